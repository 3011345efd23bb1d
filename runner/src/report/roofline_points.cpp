// Kernels on the roofline from a run's figures (see roofline_points.hpp).
#include "report/roofline_points.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace workbook {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// GFLOP/s for a rate unit, 0 when the unit is not a FLOP rate.
double gflops_factor(const std::string& unit) {
  if (unit == "GFLOP/s") return 1;
  if (unit == "TFLOP/s") return 1e3;
  if (unit == "MFLOP/s") return 1e-3;
  return 0;
}

}  // namespace

std::string metric_stem(const std::string& name, const std::string& unit) {
  std::vector<std::string> tails;
  if (gflops_factor(unit) > 0) tails = {"_gflops", "_tflops", "_mflops", "gflops", "tflops", "mflops", "_flops", "flops"};
  else if (unit == "GB/s") tails = {"_gbps", "_gbs", "_bw", "_bandwidth", "gbps", "bw", "bandwidth"};
  else if (unit == "FLOP/byte") tails = {"_intensity", "_ai", "intensity", "ai"};
  for (const auto& t : tails) {
    if (ends_with(name, t)) return name.substr(0, name.size() - t.size());
  }
  return name;
}

RunKernels kernels_of(const std::vector<MetricRow>& metrics) {
  std::map<std::string, const MetricRow*> bandwidth, intensity;
  for (const auto& m : metrics) {
    if (!m.value || !std::isfinite(*m.value) || *m.value <= 0) continue;
    if (m.unit == "GB/s") bandwidth[metric_stem(m.name, m.unit)] = &m;
    if (m.unit == "FLOP/byte") intensity[metric_stem(m.name, m.unit)] = &m;
  }
  std::size_t rates = 0;
  for (const auto& m : metrics) rates += gflops_factor(m.unit) > 0 && m.value && *m.value > 0 ? 1 : 0;
  // A lone intensity figure goes with any rate when it names no kernel ("intensity"), or
  // with the run's only rate.
  const bool lone = intensity.size() == 1 && (intensity.begin()->first.empty() || rates == 1);
  RunKernels out;
  for (const auto& m : metrics) {
    const double factor = gflops_factor(m.unit);
    if (factor == 0 || !m.value || !std::isfinite(*m.value) || *m.value <= 0) continue;
    KernelFigures k;
    k.stem = metric_stem(m.name, m.unit);
    k.gflops = *m.value * factor;
    if (auto b = bandwidth.find(k.stem); b != bandwidth.end()) {
      k.intensity = k.gflops / *b->second->value;
      k.from = m.name + " / " + b->second->name;
    } else if (auto i = intensity.find(k.stem); i != intensity.end()) {
      k.intensity = *i->second->value;
      k.from = m.name + " at " + i->second->name;
    } else if (lone) {
      k.intensity = *intensity.begin()->second->value;
      k.from = m.name + " at " + intensity.begin()->second->name;
    }
    if (k.intensity > 0) out.placed.push_back(k);
    else out.not_placed.push_back(fmt::format("{}: no bytes reported (no {}_gbps or FLOP/byte figure)", m.name, k.stem));
  }
  return out;
}

}  // namespace workbook
