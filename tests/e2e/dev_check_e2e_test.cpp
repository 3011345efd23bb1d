// End-to-end: `dev check --run` grades every solution on both bases a learner can grade
// on: the workspace's calibration (after `workbook device --calibrate`) and the spec
// sheet's figures (an uncalibrated workspace), and says which it did (issue 25).
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>

#include "e2e_support.hpp"

#include "../support/lines.hpp"
#include "../support/toolchain_fixture.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::map<std::string, std::pair<std::string, bool>> rows_of(const json& j) {
  std::map<std::string, std::pair<std::string, bool>> rows;
  for (const auto& row : j["labs"]) rows[row["variant"]] = {row["verdict"], row["ok"]};
  return rows;
}

}  // namespace

TEST_CASE("e2e: dev check --run without a calibration grades solutions on the spec sheet and says so",
          "[e2e][variants][basis]") {
  FixtureCourse c;
  CommandResult r = c.run({"dev", "check", "--run", "--only", "module01/fail_lab", "--json"});
  SHOW(r);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["basis"].get<std::string>().find("spec sheet's figures only") != std::string::npos);
  CHECK(j["basis"].get<std::string>().find("workbook device --calibrate") != std::string::npos);
  auto rows = rows_of(j);
  CHECK(rows.count("solution") == 1);
  CHECK(rows.count("solution:spec_sheet") == 0);
}

TEST_CASE("e2e: dev check --run in a calibrated workspace grades each solution twice, once on the spec sheet",
          "[e2e][variants][basis]") {
  FixtureCourse c;
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);  // makes the journal
  // The fake GPU (WORKBOOK_GPU_NAME, no uuid) is calibrated under its name.
  e2e::journal_rows(c.journal(),
                    "INSERT INTO calibrations(gpu_uuid, gpu_name, measured_at, driver, sm_clock_mhz, arch, seed, detail) "
                    "VALUES('name:Tesla T4', 'Tesla T4', '2026-11-30T10:00:00Z', '550.54', 1590, 'sm_75', 1, '')");
  e2e::journal_rows(c.journal(), "INSERT INTO calibration_figures(calibration_id, name, value, unit) "
                                 "VALUES(1, 'd2d_gbps', 250, 'GB/s'), (1, 'fp32_tflops', 4, 'TFLOP/s')");
  CommandResult r = c.run({"dev", "check", "--run", "--only", "module01/fail_lab", "--json"});
  SHOW(r);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["basis"].get<std::string>().find("calibration (2026-11-30) and on the spec sheet") != std::string::npos);
  auto rows = rows_of(j);
  CHECK(rows["solution"] == std::pair<std::string, bool>{"pass", true});
  CHECK(rows["solution:spec_sheet"] == std::pair<std::string, bool>{"pass", true});
  CHECK(r.exit_code == 0);

  // The text output names the basis too.
  r = c.run({"dev", "check", "--run", "--only", "module01/fail_lab"});
  CHECK(r.out.find("Basis: solutions graded twice") != std::string::npos);
}

TEST_CASE("e2e: dev check for several GPUs builds starters and solutions for each, checks variants for the first",
          "[e2e][variants][arch]") {
  FixtureCourse c;
  const fs::path log = c.tmp.path / "nvcc.log";
  CommandResult r = c.run({"dev", "check", "--only", "module14/tiled_gemm", "--arch", "sm_75,sm_86,sm_90",
                           "--unoptimized-host", "--json"},
                          {{"WORKBOOK_CONTENT", fs::path(WORKBOOK_SOURCE_DIR).string()},
                           {"WORKBOOK_NVCC", wbtest::toolchain_fixture("fake_nvcc.sh").string()},
                           {"FAKE_NVCC_RELEASE", "12.8"},
                           {"FAKE_NVCC_LOG", log.string()}},
                          600);
  SHOW(r);
  const json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  int all_three = 0, first_only = 0, other = 0, harness = 0, linked = 0, checked = 0;
  for (const std::string& line : wbtest::lines_of(e2e::read_file(log))) {
    if (line.find("wb_harness.cu") != std::string::npos) {  // the harness object, once per architecture set
      ++harness;
      continue;
    }
    if (line.find("-DWB_HARNESS_LINKED") != std::string::npos && line.find("wb_harness.o") != std::string::npos) ++linked;
    if (line.find("-DWB_HARNESS_LINKED -cuda ") != std::string::npos && line.find("wb_harness.o") == std::string::npos)
      ++checked;
    const bool v75 = line.find("code=sm_75") != std::string::npos || line.find("-arch=sm_75") != std::string::npos;
    const bool v86 = line.find("code=sm_86") != std::string::npos;
    const bool v90 = line.find("code=sm_90") != std::string::npos;
    if (v75 && v86 && v90) ++all_three;
    else if (line.find("-arch=sm_75") != std::string::npos && !v86 && !v90) ++first_only;
    else ++other;
  }
  std::size_t variants = 0;
  for (const auto& row : j["labs"])
    if (row["variant"] != "solution" && row["variant"] != "starter") ++variants;
  CHECK(all_three == 2);  // the starter and the solution
  CHECK(variants >= 3);
  CHECK(first_only == static_cast<int>(variants));
  CHECK(other == 0);
  CHECK(harness == 1);  // for the three architectures, not once a lab; a checked variant links nothing
  CHECK(linked == all_three);
  CHECK(checked == first_only);  // nvcc -cuda: compiled and checked, never linked
}

TEST_CASE("e2e: dev check compiles the device probes too, and one that does not compile is a problem",
          "[e2e][arch][probes]") {
  FixtureCourse c;  // host labs, and the source tree's labs/common with its probes
  CommandResult r = c.run({"dev", "check", "--arch", "sm_75", "--json"},
                          {{"WORKBOOK_NVCC", wbtest::toolchain_fixture("fake_nvcc.sh").string()},
                           {"FAKE_NVCC_REFUSE", "gcc_later_than_13"}},
                          600);
  SHOW(r);
  CHECK(r.exit_code != 0);
  const json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  int probe_problems = 0;
  for (const auto& p : j["problems"]) {
    const std::string text = p.get<std::string>();
    if (text.rfind("labs/common/probes/calibrate.cu does not compile", 0) == 0 ||
        text.rfind("labs/common/probes/device_query.cu does not compile", 0) == 0)
      ++probe_problems;
  }
  CHECK(probe_problems == 2);  // (the real content's probes compile in dev_check_compiles_all_content)
}
