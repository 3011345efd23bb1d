// Tests for profile/sanitizer_summary: compute-sanitizer's report read into a count and
// the first errors with file:line.
#include <catch2/catch.hpp>

#include "profile/sanitizer_summary.hpp"
#include "profile_fixture.hpp"

using namespace workbook;

TEST_CASE("memcheck's out-of-bounds report gives the count and the first errors with file:line", "[profile]") {
  const SanitizerReport r = parse_sanitizer_output(wbtest::profile_fixture("sanitizer_memcheck_oob.txt"), "memcheck");
  REQUIRE(r.error_count);
  CHECK(*r.error_count == 3070);
  CHECK(r.errors_printed == 3);  // two invalid writes and the failed API call
  REQUIRE(r.errors.size() == 3);
  const SanitizerError& e = r.errors[0];
  CHECK(e.what == "Invalid __global__ write of size 4 bytes");
  CHECK(e.function == "copy_col_wise(const float *, float *, int, int)+0x1b0");
  CHECK(e.where == "coalescing.cu:94");
  CHECK(e.thread == "thread (29,7,0) in block (31,127,0)");
  CHECK(e.detail == "Address 0x7f3a2e4ffff4 is out of bounds");
  CHECK(r.errors[2].what.find("cudaErrorLaunchFailure") != std::string::npos);
  const std::string d = describe(r);
  CHECK(d.find("3070 errors") != std::string::npos);
  CHECK(d.find("coalescing.cu:94") != std::string::npos);
  CHECK(d.find("thread (29,7,0)") != std::string::npos);
  CHECK(parse_sanitizer_output(wbtest::profile_fixture("sanitizer_memcheck_oob.txt"), "memcheck", 1).errors.size() == 1);
}

TEST_CASE("memcheck's first error is placed in the lab's own file, not in the CUDA header it was inlined from", "[profile]") {
  // Recorded on the H200 (CUDA 13.0): module13 dot_reduction with an out-of-bounds
  // atomicAdd(double*). Its innermost frame is the toolkit's atomic header, the lab's line
  // the "Device Frame:" below it; 14 such errors and the failed API call, all printed.
  const SanitizerReport r =
      parse_sanitizer_output(wbtest::profile_fixture("sanitizer_memcheck_atomic.txt"), "memcheck");
  REQUIRE(r.error_count);
  CHECK(*r.error_count == 15);
  CHECK(r.errors_printed == 15);
  REQUIRE(r.errors.size() == 5);
  const SanitizerError& e = r.errors[0];
  CHECK(e.what == "Invalid __global__ atomic of size 8 bytes");
  CHECK(e.where == "dot_reduction.cu:112");
  CHECK(e.function == "dot_tree(double *, const float *, const float *, int)+0x400");
  CHECK(e.thread == "thread (0,0,0) in block (13,0,0)");
  CHECK(e.detail == "Access to 0x7f1d6ee90000 is out of bounds");  // "Access to", not "Address"
  REQUIRE(e.frames.size() == 2);  // host frames are not device frames
  CHECK(e.frames[0].where == "sm_60_atomic_functions.hpp:294");
  CHECK(e.frames[0].toolkit);
  CHECK(e.frames[0].function == "atomicAdd(double *, double)+0x400");
  CHECK_FALSE(e.frames[1].toolkit);
  for (const auto& x : r.errors) CHECK(x.where == "dot_reduction.cu:112");
  CHECK(r.tool_messages == std::vector<std::string>{"COMPUTE-SANITIZER", "Target application returned an error"});
  CHECK(describe(r) == "15 errors: Invalid __global__ atomic of size 8 bytes at dot_reduction.cu:112 "
                       "(thread (0,0,0) in block (13,0,0))");
}

TEST_CASE("memcheck's frames: a header with its folder, 'Device Frame:' without a space, a header frame alone", "[profile]") {
  // Written by hand: variants of the recorded report's lines that other toolkits print.
  const SanitizerReport r = parse_sanitizer_output(
      "========= Invalid __global__ atomic of size 8 bytes\n"
      "=========     at atomicAdd(double *, double)+0x2a0 in /usr/local/cuda/targets/x86_64-linux/include/"
      "sm_60_atomic_functions.hpp:294\n"
      "=========     Device Frame:dot_tree(double *, const float *, const float *, int)+0x2a0 in /tmp/v/dot.cu:121\n"
      "=========\n"
      "========= Invalid __global__ atomic of size 8 bytes\n"
      "=========     at atomicAdd(double *, double)+0x2a0 in sm_60_atomic_functions.hpp:294\n"
      "=========\n"
      "========= ERROR SUMMARY: 2 errors\n",
      "memcheck");
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].where == "dot.cu:121");
  CHECK(r.errors[0].frames[0].toolkit);
  CHECK(r.errors[1].where == "sm_60_atomic_functions.hpp:294");  // the raw first frame is the fallback
  CHECK(r.errors[1].function == "atomicAdd(double *, double)+0x2a0");
}

TEST_CASE("toolkit headers are told from the lab's own files", "[profile]") {
  CHECK(is_toolkit_file("/usr/local/cuda/include/sm_60_atomic_functions.hpp:294"));
  CHECK(is_toolkit_file("/usr/local/cuda-13.0/targets/x86_64-linux/include/cuda/std/__atomic/api.h:12"));
  CHECK(is_toolkit_file("/opt/cccl/libcudacxx/include/cuda/std/atomic:40"));
  CHECK(is_toolkit_file("sm_60_atomic_functions.hpp:294"));
  CHECK(is_toolkit_file("cuda_ptx_generated.h:152"));
  CHECK(is_toolkit_file("device_atomic_functions.hpp:110"));
  CHECK_FALSE(is_toolkit_file("/tmp/wb/labs/module13/dot_reduction.cu:61"));
  CHECK_FALSE(is_toolkit_file("dot_reduction.cu:61"));
  CHECK_FALSE(is_toolkit_file("/work/labs/common/wb_harness.hpp:80"));
  CHECK_FALSE(is_toolkit_file("my_device_helpers.cuh:9"));
}

TEST_CASE("a clean sanitizer run is 0 errors, and the program's own lines are ignored", "[profile]") {
  // Recorded on the H200: memcheck on module13/dot_reduction's solution (its log file).
  const std::string clean = wbtest::profile_fixture("sanitizer_memcheck_clean.txt");
  const SanitizerReport r = parse_sanitizer_output(clean, "memcheck");
  REQUIRE(r.error_count);
  CHECK(*r.error_count == 0);
  CHECK(r.errors.empty());
  CHECK(r.errors_printed == 0);
  CHECK(r.tool_messages == std::vector<std::string>{"COMPUTE-SANITIZER"});
  CHECK(describe(r) == "memcheck: no errors");
  // On stdout (no log file) the lab's lines come between the sanitizer's.
  const SanitizerReport mixed =
      parse_sanitizer_output("[start]  module13/dot_reduction\n[check]  PASS dot_matches\n" + clean, "memcheck");
  CHECK(mixed.error_count == 0);
  CHECK(mixed.errors.empty());
}

TEST_CASE("a lab that fails its own check under memcheck still has 0 sanitizer errors (H200)", "[profile]") {
  // Recorded: memcheck on module03/device_query, whose measured-peak check failed.
  const SanitizerReport r =
      parse_sanitizer_output(wbtest::profile_fixture("sanitizer_memcheck_lab_failed.txt"), "memcheck");
  REQUIRE(r.error_count);
  CHECK(*r.error_count == 0);
  CHECK(r.errors.empty());
  CHECK(r.tool_messages == std::vector<std::string>{"COMPUTE-SANITIZER", "Target application returned an error"});
  CHECK(describe(r) == "memcheck: no errors");
}

TEST_CASE("a clean racecheck on the H200 prints only its RACECHECK SUMMARY: 0 hazards is a pass", "[profile]") {
  // Recorded: racecheck on module13/dot_reduction's solution; no ERROR SUMMARY line.
  const SanitizerReport r =
      parse_sanitizer_output(wbtest::profile_fixture("sanitizer_racecheck_clean.txt"), "racecheck");
  REQUIRE(r.error_count);
  CHECK(*r.error_count == 0);
  CHECK(r.errors.empty());
  CHECK(r.tool_messages.back() == "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)");
  CHECK(describe(r) == "racecheck: no errors");
}

TEST_CASE("racecheck's hazard names both sides", "[profile]") {
  const SanitizerReport r = parse_sanitizer_output(wbtest::profile_fixture("sanitizer_racecheck.txt"), "racecheck");
  REQUIRE(r.error_count);
  CHECK(*r.error_count == 1);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].where == "dot_reduction.cu:61");
  CHECK(r.errors[0].detail.find("Read access") != std::string::npos);
  CHECK(r.tool_messages.size() == 2);  // the banner and the RACECHECK SUMMARY
}

TEST_CASE("racecheck on the H200 reports races as warnings, with no ERROR SUMMARY: they still count", "[profile]") {
  // Recorded: module13 dot_reduction's missing_loop_barrier variant, racecheck, CUDA 13.0.
  const SanitizerReport r =
      parse_sanitizer_output(wbtest::profile_fixture("sanitizer_racecheck_h200.txt"), "racecheck");
  REQUIRE(r.error_count);
  CHECK(*r.error_count == 30);  // "20 hazards displayed (0 errors, 30 warnings)"
  REQUIRE_FALSE(r.errors.empty());
  CHECK(r.errors[0].what.rfind("Warning: Race reported", 0) == 0);
  CHECK(r.errors[0].where == "dot_reduction.missing_loop_barrier.cu:109");
  CHECK(describe(r).find("30 errors") != std::string::npos);
}

TEST_CASE("output without an ERROR SUMMARY is not a pass", "[profile]") {
  const SanitizerReport r = parse_sanitizer_output("========= COMPUTE-SANITIZER\n========= Error: Failed to launch\n", "memcheck");
  CHECK_FALSE(r.error_count);
  CHECK(describe(r).find("no ERROR SUMMARY") != std::string::npos);
  const auto argv = sanitizer_command("compute-sanitizer", "synccheck", "/tmp/s.txt");
  CHECK(argv == std::vector<std::string>{"compute-sanitizer", "--tool", "synccheck", "--print-limit", "20", "--log-file", "/tmp/s.txt"});
}
