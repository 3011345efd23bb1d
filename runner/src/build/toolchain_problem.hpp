// Telling a broken toolchain from a broken lab. Two failures come from the machine, not
// from the learner's code: nvcc refusing a host compiler newer than its release supports
// (crt/host_config.h's "#error -- unsupported GNU version! ..."), and CUDA's own math
// headers clashing with a newer glibc's declarations of cospi/sinpi/rsqrt. Both are
// recognised in nvcc's output and explained with the fix, as data the printers show.
// tests/fixtures/toolchain/README.md says where each recognised text comes from.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "build/toolchain.hpp"

namespace workbook {

struct ToolchainProblem {
  std::string kind;                     // "host_compiler_unsupported" or "cuda_header_conflict"
  std::string evidence;                 // the line of nvcc's output that shows it
  std::optional<int> newest_supported;  // 13 from "gcc versions later than 13 are not supported"
  std::string reason;                   // one line for the verdict: "the toolchain, not your code: ..."
  std::string explanation;              // what happened, naming nvcc's release and the host compiler
  std::vector<std::string> fixes;       // what to do, in order
  std::string next_step;                // the short form of the first fix
};

// The problem `raw_output` (nvcc's stdout and stderr) shows, if it is one of the two.
// `glibc` is the C library's version, named in the header-conflict explanation.
std::optional<ToolchainProblem> diagnose_toolchain(std::string_view raw_output, const Toolchain& tc,
                                                   const std::string& glibc);

// The C library's version ("2.41"), or "" when not glibc.
std::string glibc_version();

// The block a compile-error view shows below nvcc's output:
//   This is the toolchain, not your code.
//     <explanation>
//     Fix it once, for every lab: ...
std::string render_toolchain_problem(const ToolchainProblem& problem);

// The outcome of compiling a one-file CUDA probe with the toolchain (no GPU needed).
struct ToolchainCheck {
  bool ok = false;
  bool cached = false;                     // an earlier check of the same toolchain passed
  std::optional<ToolchainProblem> problem;  // when it failed for one of the two reasons
  std::string output;                      // nvcc's output when it failed
  std::vector<std::string> command;
};

// Compiles the probe (`-c`, no -arch: nvcc's default) into `cache_dir`/<key>/. A pass is
// remembered there by the toolchain's identity (nvcc and host compiler paths and
// versions, flags), so a later check costs no compile; a failure is tried again.
ToolchainCheck check_toolchain(const Toolchain& tc, const std::filesystem::path& cache_dir, double timeout_s = 120);

}  // namespace workbook
