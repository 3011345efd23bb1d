// The roofline model: a GPU's roof (its DRAM bandwidth slope up to its FP32 peak), where
// a measured kernel sits under it, and the roofline chart (log-log) of the learner's
// kernels, for the report's SVG and `history`'s terminal sketch.
#pragma once

#include <string>
#include <vector>

#include "plot/chart.hpp"

namespace workbook::plot {

struct Roof {
  std::string gpu;          // "NVIDIA H200"
  double peak_gflops = 0;   // FP32 (GFLOP/s)
  double peak_gbps = 0;     // DRAM (GB/s)
  std::string source;       // "calibrated 2026-11-30" or "spec sheet h200"
};

// A measured kernel: its arithmetic intensity and its achieved rate.
struct RoofPoint {
  std::string label;        // "module04/vecadd_roofline: achieved"
  double intensity = 0;     // FLOP/byte
  double gflops = 0;        // GFLOP/s
};

struct Placement {
  double attainable_gflops = 0;  // the roof above the kernel's intensity
  double pct_of_roof = 0;        // achieved / attainable * 100
  bool memory_bound = false;     // left of the ridge: bandwidth caps it
};

// FLOP/byte where the bandwidth slope meets the compute peak.
double ridge_intensity(const Roof& roof);

Placement place(const Roof& roof, const RoofPoint& point);

// "memory-bound at 87 % of the roof" / "compute-bound at 41 % of the roof".
std::string describe(const Placement& p);

// The chart: the roof as a line, the kernels as labelled points (log-log).
Chart roofline_chart(const Roof& roof, const std::vector<RoofPoint>& points);

// A terminal sketch of the same chart.
std::string roofline_sketch(const Roof& roof, const std::vector<RoofPoint>& points, const Style& style, int cols = 60,
                            int rows = 14);

}  // namespace workbook::plot
