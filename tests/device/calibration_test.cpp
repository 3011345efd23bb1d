// Tests for device/calibration (stored in the journal per GPU UUID, the latest wins) and
// the way run/device_context overlays a calibration on the spec sheet's figures.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "device/calibration.hpp"
#include "model/figures.hpp"
#include "specs/gpu_specs.hpp"
#include "grade/results.hpp"
#include "journal/journal.hpp"
#include "run/device_context.hpp"

#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;

namespace {

using wbtest::TempDir;

Calibration make(const std::string& uuid, double d2d) {
  Calibration c;
  c.gpu_uuid = uuid;
  c.gpu_name = "NVIDIA H200";
  c.driver = "580.159.04";
  c.sm_clock_mhz = 1980;
  c.arch = "sm_90";
  c.seed = 42;
  c.figures = {{"d2d_gbps", {d2d, "GB/s"}},          {"memcpy_d2d_gbps", {d2d * 0.98, "GB/s"}},
               {"fp32_tflops", {60.5, "TFLOP/s"}},  {"fp64_tflops", {31.25, "TFLOP/s"}},
               {"h2d_pinned_gbps", {55, "GB/s"}},   {"h2d_pageable_gbps", {20, "GB/s"}},
               {"d2h_pinned_gbps", {54, "GB/s"}},   {"d2h_pageable_gbps", {18, "GB/s"}},
               {"launch_us", {2.5, "us"}}};
  return c;
}

}  // namespace

TEST_CASE("calibrations round-trip through the journal, per UUID, latest wins", "[device][calibration]") {
  TempDir dir;
  fs::path db = dir.path / "journal.db";
  {
    Journal j(db);
    CHECK_FALSE(latest_calibration(j, "GPU-aaaa").has_value());
    long long first = store_calibration(j, make("GPU-aaaa", 4000));
    long long other = store_calibration(j, make("GPU-bbbb", 300));
    long long second = store_calibration(j, make("GPU-aaaa", 4100));
    CHECK(first < second);
    CHECK(other != second);
  }
  Journal j(db);  // reopened: nothing was lost
  auto a = latest_calibration(j, "GPU-aaaa");
  REQUIRE(a.has_value());
  CHECK(a->figure("d2d_gbps") == Approx(4100));
  CHECK(a->gpu_name == "NVIDIA H200");
  CHECK(a->driver == "580.159.04");
  REQUIRE(a->sm_clock_mhz.has_value());
  CHECK(*a->sm_clock_mhz == Approx(1980));
  CHECK(a->arch == "sm_90");
  CHECK(a->seed == 42);
  CHECK_FALSE(a->measured_at.empty());  // filled in when stored
  CHECK(a->figures.size() == calibration_figure_names().size());
  CHECK(a->figures.at("launch_us").unit == "us");
  auto b = latest_calibration(j, "GPU-bbbb");
  REQUIRE(b.has_value());
  CHECK(b->figure("d2d_gbps") == Approx(300));
  CHECK_FALSE(latest_calibration(j, "GPU-cccc").has_value());
}

TEST_CASE("calibration_from_results takes every figure, and names the missing ones", "[device][calibration]") {
  std::string text;
  for (const auto& name : calibration_figure_names()) {
    if (name == "launch_us") continue;
    text += R"({"type":"metric","name":")" + name + R"(","value":12.5,"unit":"GB/s"})" + "\n";
  }
  text += R"({"type":"metric","name":"fp64_tflops","value":-1,"unit":"TFLOP/s"})" "\n";
  LabResults r = parse_results(text);
  std::vector<std::string> missing;
  Calibration c = calibration_from_results(r, missing);
  CHECK(c.figure("d2d_gbps") == Approx(12.5));
  CHECK(std::find(missing.begin(), missing.end(), "launch_us") != missing.end());
  CHECK(std::find(missing.begin(), missing.end(), "fp64_tflops") != missing.end());  // not positive
  CHECK(missing.size() == 2);
}

TEST_CASE("calibration_key falls back to the name", "[device][calibration]") {
  CHECK(calibration_key("GPU-1234", "NVIDIA H200") == "GPU-1234");
  CHECK(calibration_key("", "NVIDIA H200") == "name:NVIDIA H200");
}

TEST_CASE("a calibration overrides the spec sheet's figures, nominal values until then", "[device][calibration]") {
  auto specs = load_gpu_specs(fs::path(WORKBOOK_SOURCE_DIR) / "data" / "gpus.yaml");
  const GpuSpec* h200 = find_gpu(specs, "h200-sxm");
  const GpuSpec* t4 = find_gpu(specs, "t4");
  REQUIRE(h200);
  REQUIRE(t4);

  Figures nominal = nominal_measured_figures(*h200);  // gen5 x16
  for (const auto& name : measured_only_figure_names()) CHECK(nominal.count(name) == 1);
  CHECK(nominal.at("h2d_pinned_gbps") == Approx(0.8 * 3.938 * 16));
  CHECK(nominal.at("h2d_pageable_gbps") == Approx(0.4 * 3.938 * 16));
  CHECK(nominal.at("launch_us") == Approx(5));
  CHECK(nominal_measured_figures(*t4).at("d2h_pinned_gbps") == Approx(0.8 * 0.985 * 16));  // gen3 x16

  Figures f = h200->figures;
  auto set = apply_calibration(f, make("GPU-aaaa", 4000));
  CHECK(f.at("dram_gbps") == Approx(4000));  // the copy kernel's read + write rate
  CHECK(f.at("fp32_tflops") == Approx(60.5));
  CHECK(f.at("fp64_tflops") == Approx(31.25));
  CHECK(f.at("h2d_pinned_gbps") == Approx(55));
  CHECK(f.at("launch_us") == Approx(2.5));
  CHECK(f.at("sm_count") == Approx(132));  // untouched
  CHECK(set.count("dram_gbps") == 1);
  CHECK(set.count("sm_count") == 0);
  CHECK(set.size() == 3 + measured_only_figure_names().size());
}
