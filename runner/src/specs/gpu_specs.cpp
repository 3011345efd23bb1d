// Loading data/gpus.yaml (see gpu_specs.hpp).
#include "specs/gpu_specs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>

#include "util/text.hpp"
#include "util/yaml_reader.hpp"
#include "model/figures.hpp"

namespace workbook {

std::vector<GpuSpec> load_gpu_specs(const std::filesystem::path& file) {
  Problems problems;
  std::vector<GpuSpec> out;
  std::string display = file.filename() == "gpus.yaml" ? "data/gpus.yaml" : file.string();
  YAML::Node root = load_yaml_file(file, problems);
  if (present(root) && !root.IsNull()) {
    MapReader r(root, display, "", problems);
    auto version = r.integer("format_version", true);
    if (version && *version != 1) r.problem("format_version", "must be 1");
    YAML::Node list = r.node("gpus");
    if (!list.IsSequence()) {
      r.problem("gpus", "must be a list of GPUs");
    } else {
      for (std::size_t i = 0; i < list.size(); ++i) {
        MapReader g(list[i], display, fmt::format("gpus[{}]", i), problems);
        GpuSpec s;
        s.id = g.str("id", true).value_or("");
        s.name = g.str("name", true).value_or("");
        s.match = g.str_list("match", true);
        s.arch = g.str("arch", true).value_or("");
        s.cc = g.str("cc", true).value_or("");
        for (const auto& name : spec_figure_names()) {
          if (auto v = g.number(name, true)) s.figures[name] = *v;
        }
        if (YAML::Node t = g.node("tensor_tflops"); present(t)) {
          MapReader tr(t, display, g.path("tensor_tflops"), problems);
          for (const char* p : {"fp16", "bf16", "tf32", "fp8", "int8"}) {
            if (auto v = tr.number(p, false)) s.tensor_tflops[p] = *v;
          }
          tr.finish();
        }
        if (auto fp16 = s.tensor_tflops.find("fp16"); fp16 != s.tensor_tflops.end()) {
          s.figures["tensor_fp16_tflops"] = fp16->second;
        } else {
          g.problem("tensor_tflops", "needs fp16 (the dense FP16 Tensor Core peak with FP32 accumulation)");
        }
        if (auto tf32 = s.tensor_tflops.find("tf32"); tf32 != s.tensor_tflops.end()) {
          s.figures["tensor_tf32_tflops"] = tf32->second;
        } else if (s.figures.count("fp32_tflops")) {
          s.figures["tensor_tf32_tflops"] = s.figures["fp32_tflops"];  // no TF32 Tensor Cores: FP32 units
        }
        s.memory_type = g.str("memory_type", false).value_or("");
        s.pcie = g.str("pcie", false).value_or("");
        for (const auto& a : g.str_list("approx", false)) {
          if (!s.figures.count(a) && a != "tensor_tflops") g.problem("approx", fmt::format("'{}' is not a figure", a));
          s.approx.insert(a);
        }
        s.notes = g.str("notes", false).value_or("");
        s.sources = g.str_list("sources", true);
        g.finish();
        if (std::any_of(out.begin(), out.end(), [&](const GpuSpec& o) { return o.id == s.id; })) {
          g.problem("id", fmt::format("'{}' appears twice", s.id));
        }
        out.push_back(std::move(s));
      }
    }
    r.finish();
  }
  problems.throw_if_any();
  return out;
}

const GpuSpec* match_gpu(const std::vector<GpuSpec>& specs, const std::string& device_name) {
  const GpuSpec* best = nullptr;
  std::size_t best_len = 0;
  std::string name = lower(device_name);
  for (const auto& s : specs) {
    for (const auto& m : s.match) {
      if (m.size() > best_len && name.find(lower(m)) != std::string::npos) {
        best = &s;
        best_len = m.size();
      }
    }
  }
  return best;
}

const GpuSpec* find_gpu(const std::vector<GpuSpec>& specs, const std::string& id) {
  for (const auto& s : specs) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

Figures nominal_measured_figures(const GpuSpec& spec) {
  double per_lane = 0, lanes = 0;
  std::smatch m;
  static const std::regex kPcie(R"(gen\s*([0-9]+)\s*x\s*([0-9]+))", std::regex::icase);
  if (std::regex_search(spec.pcie, m, kPcie)) {
    int gen = std::stoi(m[1].str());
    lanes = std::stod(m[2].str());
    per_lane = gen <= 3 ? 0.985 : gen == 4 ? 1.969 : 3.938;
  }
  double pinned = per_lane > 0 ? 0.8 * per_lane * lanes : 12.0;
  return {{"h2d_pinned_gbps", pinned}, {"d2h_pinned_gbps", pinned},  {"h2d_pageable_gbps", pinned / 2},
          {"d2h_pageable_gbps", pinned / 2}, {"launch_us", 5.0}};
}


}  // namespace workbook
