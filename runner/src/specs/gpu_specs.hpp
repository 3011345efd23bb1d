// Spec sheets of the GPUs a learner meets (data/gpus.yaml), and matching the local GPU.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/expr.hpp"

namespace workbook {

struct GpuSpec {
  std::string id;    // "t4"
  std::string name;  // "Tesla T4"
  std::vector<std::string> match;  // case-insensitive substrings of the CUDA device name
  std::string arch;
  std::string cc;    // "7.5"
  Figures figures;   // every name of spec_figure_names()
  std::map<std::string, double> tensor_tflops;  // dense, by precision
  std::string memory_type;
  std::string pcie;
  std::set<std::string> approx;  // figures that are approximate
  std::string notes;
  std::vector<std::string> sources;
};

// Loads data/gpus.yaml; throws ContentError with every problem.
std::vector<GpuSpec> load_gpu_specs(const std::filesystem::path& file);

// The spec whose `match` fits the device name best (longest matching substring), if any.
const GpuSpec* match_gpu(const std::vector<GpuSpec>& specs, const std::string& device_name);

const GpuSpec* find_gpu(const std::vector<GpuSpec>& specs, const std::string& id);

// Nominal values of the measured-only figures for a spec sheet, used until the GPU is
// calibrated: pinned H2D and D2H at 80 % of the PCIe link's per-direction rate (from
// `pcie`: gen3 0.985, gen4 1.969, gen5 3.938 GB/s a lane, times the lanes; 12 GB/s when
// it cannot be read), pageable at half of pinned, launch_us = 5.
Figures nominal_measured_figures(const GpuSpec& spec);

}  // namespace workbook
