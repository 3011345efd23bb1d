// Tests for specs/gpu_specs (data/gpus.yaml loads; match_gpu takes the longest match),
// model/figures (names a manifest may use) and device/device_report (the comparison table).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include "device/device_report.hpp"
#include "model/figures.hpp"
#include "specs/gpu_specs.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;

namespace {

const std::vector<GpuSpec>& specs() {
  static const std::vector<GpuSpec> s = load_gpu_specs(std::filesystem::path(WORKBOOK_SOURCE_DIR) / "data" / "gpus.yaml");
  return s;
}

std::string matched(const std::string& name) {
  const GpuSpec* s = match_gpu(specs(), name);
  return s ? s->id : "(none)";
}

}  // namespace

TEST_CASE("data/gpus.yaml loads with every spec figure", "[device][gpu_specs]") {
  REQUIRE(specs().size() >= 10);
  for (const char* id : {"t4", "rtx3050-laptop-6gb", "h100-sxm", "h100-pcie", "h200-sxm", "a10", "l4"}) {
    INFO(id);
    const GpuSpec* s = find_gpu(specs(), id);
    REQUIRE(s != nullptr);
    for (const auto& f : spec_figure_names()) {
      INFO(f);
      CHECK(s->figures.count(f) == 1);
      CHECK(s->figures.at(f) > 0);
    }
    CHECK_FALSE(s->sources.empty());
  }
  const GpuSpec* t4 = find_gpu(specs(), "t4");
  CHECK(t4->figures.at("sm_count") == 40);
  CHECK(t4->figures.at("dram_gbps") == 320);
  CHECK(t4->approx.count("fp64_tflops") == 1);  // the seed marks it approximate; it stays marked
  CHECK(find_gpu(specs(), "no-such-gpu") == nullptr);
}

TEST_CASE("Tensor Core peaks: every sheet has FP16, TF32 falls back to FP32 where there is none", "[device][gpu_specs]") {
  for (const GpuSpec& s : specs()) {
    INFO(s.id);
    for (const auto& f : tensor_figure_names()) CHECK(s.figures.count(f) == 1);
  }
  const GpuSpec* t4 = find_gpu(specs(), "t4");
  CHECK(t4->figures.at("tensor_fp16_tflops") == 65);
  CHECK(t4->figures.at("tensor_tf32_tflops") == t4->figures.at("fp32_tflops"));  // Turing: no TF32
  const GpuSpec* h200 = find_gpu(specs(), "h200-sxm");
  CHECK(h200->figures.at("tensor_fp16_tflops") == 989.5);
  CHECK(h200->figures.at("tensor_tf32_tflops") == 494.5);
}

TEST_CASE("match_gpu picks the longest matching name", "[device][gpu_specs]") {
  CHECK(matched("NVIDIA H100 80GB HBM3 MIG 1g.10gb") == "h100-mig-1g-10gb");
  CHECK(matched("NVIDIA H100 80GB HBM3 MIG 3g.40gb") == "h100-mig-3g-40gb");
  CHECK(matched("NVIDIA H100 80GB HBM3") == "h100-sxm");
  CHECK(matched("NVIDIA A100-SXM4-80GB") == "a100-sxm-80gb");
  CHECK(matched("NVIDIA A10") == "a10");
  CHECK(matched("NVIDIA H200") == "h200-sxm");
  CHECK(matched("Tesla T4") == "t4");
  CHECK(matched("tesla t4") == "t4");  // case-insensitive
  CHECK(matched("NVIDIA GeForce RTX 3050 6GB Laptop GPU") == "rtx3050-laptop-6gb");
  CHECK(matched("Some Future GPU") == "(none)");
}

TEST_CASE("figure names: spec sheet figures plus the measured-only ones", "[device][figures]") {
  const auto& all = device_figure_names();
  for (const char* name : {"dram_gbps", "fp32_tflops", "fp64_tflops", "sm_count", "h2d_pinned_gbps", "h2d_pageable_gbps",
                           "d2h_pinned_gbps", "d2h_pageable_gbps", "launch_us"}) {
    INFO(name);
    CHECK(std::find(all.begin(), all.end(), name) != all.end());
  }
  CHECK(all.size() == spec_figure_names().size() + tensor_figure_names().size() + measured_only_figure_names().size());
  for (const auto& m : measured_only_figure_names()) {
    CHECK(std::find(spec_figure_names().begin(), spec_figure_names().end(), m) == spec_figure_names().end());
  }
}

TEST_CASE("the comparison table: yours (query, measured, spec) beside the T4 and H100", "[device][report]") {
  const GpuSpec* t4 = find_gpu(specs(), "t4");
  const GpuSpec* h100 = find_gpu(specs(), "h100-sxm");
  const GpuSpec* h200 = find_gpu(specs(), "h200-sxm");
  DeviceQuery q;
  q.name = "NVIDIA H200";
  q.cc = "9.0";
  q.fields = {{"sm_count", 132}, {"max_threads_per_sm", 2048}, {"max_blocks_per_sm", 32}, {"max_warps_per_sm", 64},
              {"regs_per_sm", 65536}, {"l2_bytes", 62914560}, {"cc_major", 9}};
  Calibration cal;
  cal.figures = {{"d2d_gbps", {4000, "GB/s"}}, {"fp32_tflops", {60, "TFLOP/s"}}, {"fp64_tflops", {30, "TFLOP/s"}}};

  auto rows = compare_gpus(&q, h200, &cal, t4, h100);
  auto row = [&](const std::string& figure) -> const ComparisonRow& {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const ComparisonRow& r) { return r.figure == figure; });
    REQUIRE(it != rows.end());
    return *it;
  };
  CHECK(row("SMs").yours == Approx(132));
  CHECK(row("SMs").yours_source == "query");
  CHECK(row("SMs").t4 == Approx(40));
  CHECK(row("L2 cache").yours == Approx(60));  // bytes from the query, shown in MB
  CHECK(row("DRAM bandwidth").yours == Approx(4000));
  CHECK(row("DRAM bandwidth").yours_source == "measured");
  const auto& bal = row("machine balance (FP32)");
  CHECK(bal.yours == Approx(60e3 / 4000.0));
  CHECK(bal.yours_source == "measured");
  CHECK(bal.t4 == Approx(8.1e3 / 320.0));
  CHECK(row("BF16 tensor cores").yours == Approx(1));
  CHECK(row("BF16 tensor cores").t4 == Approx(0));
  for (const auto& r : rows) {
    INFO(r.figure);
    CHECK_FALSE(r.note.empty());
    CHECK(r.note.find('?') == std::string::npos);  // every figure in the notes was known
  }

  // Without a calibration or a query: the spec sheet's figures.
  auto spec_rows = compare_gpus(nullptr, h200, nullptr, t4, h100);
  auto it = std::find_if(spec_rows.begin(), spec_rows.end(), [](const ComparisonRow& r) { return r.figure == "DRAM bandwidth"; });
  REQUIRE(it != spec_rows.end());
  CHECK(it->yours == Approx(4800));
  CHECK(it->yours_source == "spec");
}

TEST_CASE("format_number", "[device][report]") {
  CHECK(format_number(132) == "132");
  CHECK(format_number(4.8e9) == "4800000000");
  CHECK(format_number(12.345678) == "12.35");
}
