// The list of device figure names (see figures.hpp and docs/authoring.md).
#include "model/figures.hpp"

namespace workbook {

const std::vector<std::string>& spec_figure_names() {
  static const std::vector<std::string> names = {
      "sm_count",        "fp32_cores_per_sm", "max_threads_per_sm", "max_warps_per_sm",
      "max_blocks_per_sm", "regs_per_sm",     "shared_kb_per_sm",   "shared_kb_per_block_optin",
      "l2_mb",           "memory_gb",         "dram_gbps",          "boost_clock_mhz",
      "fp32_tflops",     "fp64_tflops",
  };
  return names;
}

const std::vector<std::string>& tensor_figure_names() {
  static const std::vector<std::string> names = {"tensor_fp16_tflops", "tensor_tf32_tflops"};
  return names;
}

const std::vector<std::string>& measured_only_figure_names() {
  static const std::vector<std::string> names = {
      "h2d_pinned_gbps", "h2d_pageable_gbps", "d2h_pinned_gbps", "d2h_pageable_gbps", "launch_us",
  };
  return names;
}

const std::vector<std::string>& device_figure_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = spec_figure_names();
    all.insert(all.end(), tensor_figure_names().begin(), tensor_figure_names().end());
    all.insert(all.end(), measured_only_figure_names().begin(), measured_only_figure_names().end());
    return all;
  }();
  return names;
}

}  // namespace workbook
