// The memcheck pass of a lab whose manifest says `memcheck: quick`: after the graded run,
// the same binary runs again at its quick size under compute-sanitizer's memcheck, and
// its error summary becomes the check `memcheck_quick`. Canary bands see a write past
// the end of an output; only memcheck sees a read past the end of an input.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "content/manifest.hpp"
#include "exec/process.hpp"
#include "grade/results.hpp"
#include "profile/profile_run.hpp"
#include "profile/sanitizer_summary.hpp"

namespace workbook {

// compute-sanitizer as `--sanitize` finds it: $WORKBOOK_COMPUTE_SANITIZER, PATH, then the
// toolkit's folders under `cuda_root` and /usr/local/cuda. nullopt when there is none.
std::optional<std::filesystem::path> find_compute_sanitizer(const std::filesystem::path& cuda_root);

struct MemcheckPass {
  std::filesystem::path sanitizer;   // compute-sanitizer
  std::vector<std::string> program;  // interpreter (if any) and the lab's binary
  std::uint64_t seed = 0;
  std::filesystem::path log_file;    // the tool's log (runs/run-N.memcheck.sanitizer.txt)
  std::filesystem::path results_file;  // the lab's results of this pass (read for nothing but its end)
  std::vector<std::pair<std::string, std::string>> env;  // the graded run's environment
  double timeout_s = 600;
};

// The command line of the pass: compute-sanitizer --tool memcheck ... PROGRAM seed=S quick=1.
std::vector<std::string> memcheck_argv(const MemcheckPass& pass);

// The check from the pass's outcome: passes only when memcheck's summary says 0 errors;
// fails with memcheck's first error (file:line when built with -lineinfo), or with what
// went wrong when no summary came (a timeout, a tool that did not start).
ReportedCheck memcheck_check(const SanitizerReport& report, const ProcessResult& process);

// The check when compute-sanitizer is missing: skipped (neither pass nor fail), saying
// that nothing was checked and what to install.
ReportedCheck memcheck_missing_check();

// Runs the pass and returns its check.
ReportedCheck run_memcheck_pass(const MemcheckPass& pass);

// Whether a run of `lab` gets the pass: the manifest asks (`memcheck: quick`), it is a
// CUDA lab, the request does not turn it off (`requested`), no other profiler wraps the
// run (--sanitize memcheck is this pass already; --trace and --ncu have their own
// purpose), and the graded run neither timed out nor was interrupted.
bool memcheck_pass_wanted(const LabSpec& lab, bool requested, ProfileTool tool, const ProcessResult& graded);

}  // namespace workbook
