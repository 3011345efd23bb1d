// Device context (see device_context.hpp).
#include "run/device_context.hpp"

#include <fmt/format.h>

#include <regex>
#include <vector>

#include "model/figures.hpp"
#include "journal/journal.hpp"
#include "profile/gpu_clocks.hpp"
#include "slurm/slurm_node.hpp"
#include "util/error.hpp"

namespace workbook {

std::string DeviceContext::describe() const {
  if (!gpu && !spec) return "no NVIDIA GPU found on this machine";
  std::string name = gpu ? gpu->name : spec->name;
  std::string cc = gpu && !gpu->compute_cap.empty() ? fmt::format("cc {}", gpu->compute_cap) : "";
  std::string src = "no spec sheet matches";
  if (spec) {
    src = fmt::format("figures: spec sheet '{}'", spec->id);
    if (calibration) src += fmt::format(", calibrated {}", calibration->measured_at.substr(0, 10));
    if (!nominal.empty()) src += ", transfer/launch figures nominal";
  }
  const std::string battery = battery_note(power_source);
  const std::string line = cc.empty() ? fmt::format("{} ({})", name, src) : fmt::format("{} ({}, {})", name, cc, src);
  return battery.empty() ? line : line + "; " + battery;
}

std::string battery_note(const std::string& power_source) {
  if (power_source != "battery") return "";
  return "on battery: a laptop GPU's clocks are capped there, and the expected ranges assume mains power "
         "(plug in for figures that count)";
}

void note_battery(Grade& grade, const std::string& power_source) {
  if (power_source != "battery") return;
  for (auto& m : grade.metrics) {
    if (!m.lo && !m.hi) continue;
    m.note += std::string(m.note.empty() ? "" : " ") + "(this run was on battery; the range assumes mains power)";
  }
}

std::set<std::string> apply_calibration(Figures& figures, const Calibration& c) {
  std::set<std::string> set;
  auto take = [&](const char* figure, const char* measured) {
    if (auto v = c.figure(measured)) {
      figures[figure] = *v;
      set.insert(figure);
    }
  };
  take("dram_gbps", "d2d_gbps");
  for (const char* name : {"fp32_tflops", "fp64_tflops"}) take(name, name);
  for (const auto& name : measured_only_figure_names()) take(name.c_str(), name.c_str());
  return set;
}

namespace {

OwnReference own_reference(LabReference row) {
  OwnReference o;
  o.measured.params = row.params;
  o.measured.basis = row.basis;
  for (const auto& [name, f] : row.figures) o.measured.figures[name] = {f.value, f.band};
  o.label = fmt::format("this GPU's own, `workbook device --calibrate --labs` {}, driver {}{}, {} runs{}",
                        row.measured_at.substr(0, 10), row.driver.empty() ? "unknown" : row.driver,
                        row.toolkit.empty() ? "" : ", CUDA " + row.toolkit, row.runs,
                        row.power_source.empty() ? "" : ", on " + row.power_source);
  o.row = std::move(row);
  return o;
}

}  // namespace

DeviceContext load_device_context(const Catalog& catalog, const std::optional<std::string>& gpu_override,
                                  Journal* journal) {
  DeviceContext d;
  d.specs = load_gpu_specs(catalog.root() / "data" / "gpus.yaml");
  d.reference = find_gpu(d.specs, kReferenceGpuId);
  d.gpu = query_local_gpu();
  if (d.gpu) d.power_source = read_power_source();
  if (gpu_override) {
    d.spec = find_gpu(d.specs, *gpu_override);
    if (!d.spec) {
      std::string ids;
      std::vector<std::string> starting;  // "h200" for h200-sxm: the one id it begins
      for (const auto& s : d.specs) {
        ids += (ids.empty() ? "" : ", ") + s.id;
        if (s.id.rfind(*gpu_override, 0) == 0) starting.push_back(s.id);
      }
      const std::string mean = starting.size() == 1 ? fmt::format("did you mean --gpu {}? ", starting[0]) : "";
      throw UsageError(fmt::format("--gpu {}: no such spec sheet", *gpu_override), mean + "known ids: " + ids);
    }
  } else if (d.gpu) {
    d.spec = match_gpu(d.specs, d.gpu->name);
    d.spec_is_local = d.spec != nullptr;
  }
  d.measured_refs = load_measured_refs(catalog.root() / "data");
  d.solutions_root = catalog.root() / "solutions";
  if (journal && d.gpu && !gpu_override) {
    d.calibration = latest_calibration(*journal, calibration_key(d.gpu->uuid, d.gpu->name));
    d.own_references_gpu = gpu_reference_name(*d.gpu);
    for (auto& row : lab_references_for(*journal, d.own_references_gpu))
      d.own_references.push_back(own_reference(std::move(row)));
  }
  if (d.spec) {
    d.figures = d.spec->figures;
    d.figures_source = fmt::format("spec sheet '{}' in data/gpus.yaml", d.spec->id);
    for (const auto& [k, v] : nominal_measured_figures(*d.spec)) {
      d.figures[k] = v;
      d.nominal.insert(k);
    }
    if (d.calibration) {
      d.measured = apply_calibration(d.figures, *d.calibration);
      for (const auto& k : d.measured) d.nominal.erase(k);
      std::string names;
      for (const auto& k : d.measured) names += (names.empty() ? "" : ", ") + k;
      d.figures_source += fmt::format("; measured by `workbook device --calibrate` on {}: {}",
                                      d.calibration->measured_at.substr(0, 10), names);
    }
    if (!d.nominal.empty()) {
      std::string names;
      for (const auto& k : d.nominal) names += (names.empty() ? "" : ", ") + k;
      d.figures_source += fmt::format("; nominal until you run `workbook device --calibrate`: {}", names);
    }
  } else if (d.gpu) {
    d.note = fmt::format("no spec sheet in data/gpus.yaml matches '{}', so expected ranges cannot be computed; "
                         "add one, or pass --gpu ID to use another GPU's sheet", d.gpu->name);
  } else {
    d.note = "no GPU found, so expected ranges cannot be computed (pass --gpu ID to see another GPU's)";
  }
  return d;
}

DeviceContext load_device_context(const Catalog& catalog, const std::optional<std::string>& gpu_override,
                                  const Workspace& workspace) {
  std::error_code ec;
  if (!gpu_override && std::filesystem::is_regular_file(workspace.journal_path(), ec)) {
    try {
      Journal journal(workspace.journal_path());
      return load_device_context(catalog, gpu_override, &journal);
    } catch (const Error&) {
      // an unreadable journal only means no calibration
    }
  }
  return load_device_context(catalog, gpu_override, nullptr);
}

}  // namespace workbook
