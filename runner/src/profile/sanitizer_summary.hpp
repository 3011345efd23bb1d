// compute-sanitizer's report as a check: its ERROR SUMMARY, and the first errors with
// where they happened (file:line when the lab was built with -lineinfo).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace workbook {

// One device frame of an error's stack, as printed ("at F+0x90 in FILE:LINE" first, then
// the "Device Frame:" lines of the functions it was inlined into).
struct SanitizerFrame {
  std::string function;  // "atomicAdd(double *, double)+0x2d0"
  std::string file;      // as printed: "/usr/local/cuda/include/sm_60_atomic_functions.hpp:294"
  std::string where;     // its file name and line: "sm_60_atomic_functions.hpp:294"
  bool toolkit = false;  // inside a CUDA header (the toolkit's include folder, CCCL, ...)
};

struct SanitizerError {
  std::string what;      // "Invalid __global__ write of size 4 bytes"
  std::string function;  // "oob(float *, int)+0x90"
  std::string where;     // "tools.cu:5" (empty without -lineinfo): the first frame in the lab's
                         // own code, not in a CUDA header; the first frame when none is
  std::string thread;    // "thread (6,0,0) in block (3,0,0)"
  std::string detail;    // "Address 0x... is out of bounds", the hazard's other side, ...
  std::vector<SanitizerFrame> frames;  // the device stack, innermost first (memcheck)
};

// Whether a frame's file is one of the CUDA Toolkit's headers rather than the lab's own
// code: under a CUDA include folder, or one of its headers by name (sm_60_atomic_functions.hpp).
bool is_toolkit_file(const std::string& file);

struct SanitizerReport {
  std::string tool;                     // memcheck, racecheck, synccheck, initcheck
  std::optional<long long> error_count; // from "ERROR SUMMARY: N errors"; nullopt: no summary seen
  std::vector<SanitizerError> errors;   // the first ones printed (at most `keep`)
  long long errors_printed = 0;         // error blocks in the output
  std::vector<std::string> tool_messages;  // sanitizer lines that are not errors (e.g. could not start)
};

// The sanitizer tools `--sanitize` accepts.
const std::vector<std::string>& sanitizer_tools();

// Parses compute-sanitizer's text (its "========= " lines; other lines are ignored).
SanitizerReport parse_sanitizer_output(const std::string& text, const std::string& tool, std::size_t keep = 5);

// "29 errors: Invalid __global__ write of size 4 bytes at tools.cu:5 (thread (6,0,0) in block (3,0,0))"
std::string describe(const SanitizerReport& report);

// The compute-sanitizer command line before the program's own argv.
std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool,
                                           const std::string& log_file);

}  // namespace workbook
