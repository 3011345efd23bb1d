// The device a lab will run on, as the runner sees it before running anything: the
// local GPU (nvidia-smi), its spec sheet from data/gpus.yaml, and the reference GPU
// (the workbook's Colab T4) whose figures are shown beside ours.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "device/gpu_specs.hpp"
#include "device/local_gpu.hpp"

namespace workbook {

struct DeviceContext {
  std::optional<LocalGpu> gpu;     // nullopt: no GPU on this machine
  const GpuSpec* spec = nullptr;   // the local GPU's spec sheet, if known
  const GpuSpec* reference = nullptr;  // the workbook's reference GPU (t4)
  Figures figures;                 // what expressions see (empty when unknown)
  std::string figures_source;      // "spec sheet h200 (data/gpus.yaml)"
  std::string note;                // why figures are missing, when they are
  std::vector<GpuSpec> specs;      // owns the sheets the pointers point into

  std::string describe() const;    // "NVIDIA H200 (sm_90, spec sheet h200)" or "no GPU found"
};

// Queries the local GPU and loads the spec sheets from the catalog's data/gpus.yaml.
// `gpu_override` (the --gpu flag) picks a spec sheet by id, e.g. to see a T4's ranges.
DeviceContext load_device_context(const Catalog& catalog, const std::optional<std::string>& gpu_override);

inline constexpr const char* kReferenceGpuId = "t4";

}  // namespace workbook
