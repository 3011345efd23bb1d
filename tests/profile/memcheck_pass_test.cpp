// The memcheck pass of a `memcheck: quick` lab (runner/src/profile/memcheck_pass.hpp):
// the command it runs, the check it makes from memcheck's summary, and the skipped check
// when there is no compute-sanitizer. A stand-in tool writes a recorded report to its
// --log-file and runs the program.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "profile/memcheck_pass.hpp"
#include "profile_fixture.hpp"
#include "../support/files.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;
namespace fs = std::filesystem;
using wbtest::read_file;
using wbtest::write_script;

namespace {

// compute-sanitizer's stand-in: copies `recorded` to the --log-file path, runs the rest.
fs::path fake_sanitizer(const wbtest::TempDir& dir, const std::string& recorded) {
  return write_script(dir.path, "compute-sanitizer",
                      "log=\nwhile [ $# -gt 0 ]; do case \"$1\" in\n"
                      "  --log-file) log=$2; shift 2;;\n  --*) shift 2;;\n  *) break;;\nesac; done\n"
                      "cp '" + wbtest::profile_fixture_path(recorded).string() + "' \"$log\"\nexec \"$@\"\n");
}

MemcheckPass pass_in(const wbtest::TempDir& dir, const fs::path& sanitizer) {
  MemcheckPass pass;
  pass.sanitizer = sanitizer;
  // The "lab": records its arguments and its environment's WB_PROFILER.
  const std::string record = "echo \"$@\" \"profiler=$WB_PROFILER\" > '" + (dir.path / "args").string() + "'\n";
  pass.program = {write_script(dir.path, "lab", record).string()};
  pass.seed = 42;
  pass.log_file = dir.path / "run-7.memcheck.sanitizer.txt";
  pass.results_file = dir.path / "run-7.memcheck.jsonl";
  pass.timeout_s = 30;
  return pass;
}

}  // namespace

TEST_CASE("memcheck pass: the lab runs under memcheck at its quick size with the run's seed", "[profile][memcheck]") {
  wbtest::TempDir dir;
  const MemcheckPass pass = pass_in(dir, fake_sanitizer(dir, "sanitizer_memcheck_clean.txt"));
  const auto argv = memcheck_argv(pass);
  REQUIRE(argv.size() >= 5);
  CHECK(argv[1] == "--tool");
  CHECK(argv[2] == "memcheck");
  CHECK(argv[argv.size() - 2] == "seed=42");
  CHECK(argv.back() == "quick=1");

  const ReportedCheck c = run_memcheck_pass(pass);
  CHECK(c.name == "memcheck_quick");
  CHECK(c.pass);
  CHECK_FALSE(c.skipped);
  REQUIRE(c.value);
  CHECK(*c.value == 0);
  CHECK(read_file(dir.path / "args") == "seed=42 quick=1 profiler=sanitize\n");
  CHECK(c.detail.find("[the pass took ") != std::string::npos);
}

TEST_CASE("memcheck pass: memcheck's errors fail the check with the first one's place", "[profile][memcheck]") {
  wbtest::TempDir dir;
  // Recorded on the H200: an out-of-bounds atomicAdd in module13's dot_tree.
  const ReportedCheck c = run_memcheck_pass(pass_in(dir, fake_sanitizer(dir, "sanitizer_memcheck_atomic.txt")));
  CHECK_FALSE(c.pass);
  REQUIRE(c.value);
  CHECK(*c.value == 15);
  CHECK(c.detail.find("dot_reduction.cu:112") != std::string::npos);
  CHECK(c.detail.find("bounds guard") != std::string::npos);
}

TEST_CASE("memcheck pass: no summary is a failed check that says nothing was checked", "[profile][memcheck]") {
  SanitizerReport none;
  ProcessResult timed_out;
  timed_out.timed_out = true;
  timed_out.timeout_s = 1200;
  const ReportedCheck c = memcheck_check(none, timed_out);
  CHECK_FALSE(c.pass);
  CHECK_FALSE(c.value);
  CHECK(c.detail.find("no error summary") != std::string::npos);
  CHECK(c.detail.find("1200 s") != std::string::npos);
  CHECK(c.detail.find("nothing was checked") != std::string::npos);
}

TEST_CASE("memcheck pass: without compute-sanitizer the check is skipped and says NOT CHECKED", "[profile][memcheck]") {
  const ReportedCheck c = memcheck_missing_check();
  CHECK(c.name == "memcheck_quick");
  CHECK(c.skipped);
  CHECK(c.detail.rfind("NOT CHECKED: compute-sanitizer was not found", 0) == 0);
  CHECK(c.detail.find("WORKBOOK_COMPUTE_SANITIZER") != std::string::npos);
}

TEST_CASE("memcheck pass: WORKBOOK_COMPUTE_SANITIZER names the tool, a wrong one finds none", "[profile][memcheck]") {
  wbtest::TempDir dir;
  const fs::path tool = fake_sanitizer(dir, "sanitizer_memcheck_clean.txt");
  ::setenv("WORKBOOK_COMPUTE_SANITIZER", tool.c_str(), 1);
  const auto found = find_compute_sanitizer({});
  ::setenv("WORKBOOK_COMPUTE_SANITIZER", (dir.path / "none").c_str(), 1);
  const auto missing = find_compute_sanitizer({});
  ::unsetenv("WORKBOOK_COMPUTE_SANITIZER");
  REQUIRE(found);
  CHECK(*found == tool);
  CHECK_FALSE(missing);
}

TEST_CASE("memcheck pass: wanted only for a CUDA lab that asks, outside other profilers, after a run that ended", "[profile][memcheck]") {
  LabSpec lab;
  lab.memcheck = true;
  const ProcessResult ended;
  CHECK(memcheck_pass_wanted(lab, true, ProfileTool::none, ended));
  CHECK_FALSE(memcheck_pass_wanted(lab, false, ProfileTool::none, ended));  // a sweep's later value, the spec-sheet row
  for (ProfileTool t : {ProfileTool::sanitize, ProfileTool::ncu, ProfileTool::trace})
    CHECK_FALSE(memcheck_pass_wanted(lab, true, t, ended));
  ProcessResult timed_out, interrupted;
  timed_out.timed_out = true;
  interrupted.interrupted = true;
  CHECK_FALSE(memcheck_pass_wanted(lab, true, ProfileTool::none, timed_out));
  CHECK_FALSE(memcheck_pass_wanted(lab, true, ProfileTool::none, interrupted));
  LabSpec python = lab;
  python.language = LabLanguage::python;
  CHECK_FALSE(memcheck_pass_wanted(python, true, ProfileTool::none, ended));
  LabSpec plain;
  CHECK_FALSE(memcheck_pass_wanted(plain, true, ProfileTool::none, ended));
}
