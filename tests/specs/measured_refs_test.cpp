// Tests for specs/measured_refs: data/measured/*.yaml loads with its label, default and
// per-figure bands; problems name file, line and field; find_measured picks by GPU and lab.
#include <catch2/catch.hpp>

#include <fstream>

#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"
#include "specs/measured_refs.hpp"
#include "util/error.hpp"

using namespace workbook;
namespace fs = std::filesystem;

TEST_CASE("measured references load with their label and bands, and are found by GPU and lab", "[measured]") {
  wbtest::TempDir tmp;
  fs::create_directories(tmp.path / "measured");
  std::ofstream(tmp.path / "measured/h200.yaml") << "format_version: 1\n"
                                                    "gpu: h200-sxm\n"
                                                    "measured: {date: 2026-11-30, driver: '580.1', cuda: '13.0', sm_clock_mhz: 1980}\n"
                                                    "band: 0.1\n"
                                                    "labs:\n"
                                                    "  module14/tiled_gemm:\n"
                                                    "    params: {N: 1024}\n"
                                                    "    figures: {tiled_ms: 0.26, speedup: {value: 1.5, band: 0.25}}\n";
  auto all = load_measured_refs(tmp.path);
  REQUIRE(all.size() == 1);
  std::string label;
  const MeasuredLab* lab = find_measured(all, "h200-sxm", "module14/tiled_gemm", &label);
  REQUIRE(lab);
  CHECK(label == "2026-11-30, driver 580.1, CUDA 13.0, 1980 MHz");
  CHECK(lab->params.at("N") == 1024);
  CHECK(lab->figures.at("tiled_ms").value == 0.26);
  CHECK(lab->figures.at("tiled_ms").band == 0.1);
  CHECK(lab->figures.at("speedup").band == 0.25);
  CHECK_FALSE(find_measured(all, "t4", "module14/tiled_gemm"));
  CHECK_FALSE(find_measured(all, "h200-sxm", "module14/conv1d"));
  CHECK(load_measured_refs(tmp.path / "nothing-here").empty());
}

TEST_CASE("a measured file without its machine line or with a bad figure is reported", "[measured]") {
  wbtest::TempDir tmp;
  fs::create_directories(tmp.path / "measured");
  std::ofstream(tmp.path / "measured/bad.yaml") << "format_version: 1\n"
                                                   "gpu: t4\n"
                                                   "labs:\n"
                                                   "  module01/x:\n"
                                                   "    figures: {a_ms: fast}\n";
  try {
    load_measured_refs(tmp.path);
    FAIL("no exception");
  } catch (const ContentError& e) {
    std::string all;
    for (const auto& p : e.problems()) all += p + "\n";
    INFO(all);
    CHECK(all.find("data/measured/bad.yaml:1: measured: is required") != std::string::npos);
    CHECK(all.find("data/measured/bad.yaml:5: labs.module01/x.figures.a_ms: must be a number") != std::string::npos);
  }
}

TEST_CASE("a measured file's basis (the device figures its runs were graded on) reaches every lab", "[measured]") {
  wbtest::TempDir tmp;
  fs::create_directories(tmp.path / "measured");
  std::ofstream(tmp.path / "measured/h200.yaml") << "format_version: 1\n"
                                                    "gpu: h200-sxm\n"
                                                    "measured: {date: 2026-11-30, driver: '580.1', cuda: '13.0', sm_clock_mhz: 1980}\n"
                                                    "basis: {dram_gbps: 4800, fp32_tflops: 67}\n"
                                                    "labs:\n"
                                                    "  module04/vecadd_roofline:\n"
                                                    "    params: {N: 16777216}\n"
                                                    "    figures: {pct_of_bandwidth: 70.6}\n";
  auto all = load_measured_refs(tmp.path);
  const MeasuredLab* lab = find_measured(all, "h200-sxm", "module04/vecadd_roofline");
  REQUIRE(lab);
  CHECK(lab->basis.at("dram_gbps") == 4800);
  CHECK(lab->basis.at("fp32_tflops") == 67);

  std::ofstream(tmp.path / "measured/h200.yaml", std::ios::app) << "";
  std::ofstream(tmp.path / "measured/bad.yaml") << "format_version: 1\n"
                                                   "gpu: t4\n"
                                                   "measured: {date: 2026-11-30, driver: '1', cuda: '13.0', sm_clock_mhz: 1590}\n"
                                                   "basis: {dram_gbps: fast}\n"
                                                   "labs: {}\n";
  try {
    load_measured_refs(tmp.path);
    FAIL("a basis figure that is not a number must be refused");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("basis.dram_gbps") != std::string::npos);
  }
}

TEST_CASE("the project's H200 measurements record the basis they were graded on", "[measured]") {
  auto all = load_measured_refs(fs::path(WORKBOOK_SOURCE_DIR) / "data");
  const MeasuredLab* lab = find_measured(all, "h200-sxm", "module04/vecadd_roofline");
  REQUIRE(lab);
  CHECK(lab->basis.at("dram_gbps") == 4800);  // the spec sheet's: the runs were uncalibrated
}
