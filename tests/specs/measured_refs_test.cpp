// Tests for specs/measured_refs: data/measured/*.yaml loads with its label, default and
// per-figure bands; problems name file, line and field; find_measured picks by GPU and lab.
#include <catch2/catch.hpp>

#include <fstream>

#include "../support/temp_dir.hpp"
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
