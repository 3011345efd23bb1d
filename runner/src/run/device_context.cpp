// Device context (see device_context.hpp).
#include "run/device_context.hpp"

#include <fmt/format.h>

#include "util/error.hpp"

namespace workbook {

std::string DeviceContext::describe() const {
  if (!gpu && !spec) return "no NVIDIA GPU found on this machine";
  std::string name = gpu ? gpu->name : spec->name;
  std::string cc = gpu && !gpu->compute_cap.empty() ? fmt::format("cc {}", gpu->compute_cap) : "";
  std::string src = spec ? fmt::format("figures: {}", figures_source) : "no spec sheet matches";
  return cc.empty() ? fmt::format("{} ({})", name, src) : fmt::format("{} ({}, {})", name, cc, src);
}

DeviceContext load_device_context(const Catalog& catalog, const std::optional<std::string>& gpu_override) {
  DeviceContext d;
  d.specs = load_gpu_specs(catalog.root() / "data" / "gpus.yaml");
  d.reference = find_gpu(d.specs, kReferenceGpuId);
  d.gpu = query_local_gpu();
  if (gpu_override) {
    d.spec = find_gpu(d.specs, *gpu_override);
    if (!d.spec) {
      std::string ids;
      for (const auto& s : d.specs) ids += (ids.empty() ? "" : ", ") + s.id;
      throw UsageError(fmt::format("--gpu {}: no such spec sheet", *gpu_override), "known ids: " + ids);
    }
  } else if (d.gpu) {
    d.spec = match_gpu(d.specs, d.gpu->name);
  }
  if (d.spec) {
    d.figures = d.spec->figures;
    d.figures_source = fmt::format("spec sheet '{}' in data/gpus.yaml", d.spec->id);
  } else if (d.gpu) {
    d.note = fmt::format("no spec sheet in data/gpus.yaml matches '{}', so expected ranges cannot be computed; "
                         "add one, or pass --gpu ID to use another GPU's sheet", d.gpu->name);
  } else {
    d.note = "no GPU found, so expected ranges cannot be computed (pass --gpu ID to see another GPU's)";
  }
  return d;
}

}  // namespace workbook
