// Which of a run's figures place a kernel on the roofline. A lab reports (or derives) an
// achieved rate in GFLOP/s or TFLOP/s; the kernel is placed when the same run also gives
// its bytes' rate in GB/s under the same stem (`tiled_gflops` with `tiled_gbps`,
// `achieved_gflops` with `achieved_gbps`: intensity = FLOP/s / byte/s), or its
// arithmetic intensity in FLOP/byte (`<stem>_intensity`; a lone `intensity` goes with
// every rate, and a run's only intensity with its only rate).
// Rates without bytes are listed as not placed, with the reason.
#pragma once

#include <string>
#include <vector>

#include "journal/journal_queries.hpp"
#include "plot/roofline.hpp"

namespace workbook {

struct KernelFigures {
  std::string stem;          // "tiled"
  double gflops = 0;
  double intensity = 0;      // FLOP/byte; 0 when unknown
  std::string from;          // "tiled_gflops / tiled_gbps"
};

struct RunKernels {
  std::vector<KernelFigures> placed;
  std::vector<std::string> not_placed;  // "tiled_gflops: no bytes reported (no tiled_gbps or intensity)"
};

// Pure: the kernels of one run's metrics.
RunKernels kernels_of(const std::vector<MetricRow>& metrics);

// The stem of a metric name for its unit: "tiled_gflops" (GFLOP/s) -> "tiled",
// "kernel_bw" (GB/s) -> "kernel", "intensity" (FLOP/byte) -> "".
std::string metric_stem(const std::string& name, const std::string& unit);

}  // namespace workbook
