// Running a lab under a profiler: `workbook run LAB --trace | --ncu [WHAT] | --sanitize
// [TOOL]`. The run pipeline (run/lab_run.cpp) asks for a plan before anything is
// recorded (a missing tool is a UsageError, exit 2), wraps the lab's command with it,
// and afterwards collects the tool's output into the report, the lab's figures (the
// manifest's `source:` metrics) and, for the sanitizer, a check.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "content/manifest.hpp"
#include "exec/process.hpp"
#include "grade/decide.hpp"
#include "grade/grade.hpp"
#include "grade/results.hpp"
#include "profile/gpu_clocks.hpp"
#include "profile/ncu_csv.hpp"
#include "profile/sanitizer_summary.hpp"
#include "profile/trace_summary.hpp"

namespace workbook {

enum class ProfileTool { none, trace, ncu, sanitize };
const char* to_string(ProfileTool tool);

struct ProfileRequest {
  ProfileTool tool = ProfileTool::none;
  std::string option;  // ncu: sections and/or metrics, comma-separated; sanitize: the tool
};

// What running under the tool takes, found before the run.
struct ProfilePlan {
  ProfileRequest request;
  std::filesystem::path tool;                  // ncu, compute-sanitizer, or the injection library
  std::filesystem::path cupti_dir;             // trace: where libcupti lives (added to LD_LIBRARY_PATH)
  std::vector<std::string> build_flags;        // -lineinfo for ncu and the sanitizer
  double timeout_factor = 1;                   // the lab's own limit times this (not --timeout)
  NcuSelection ncu;                            // ncu: what is collected
  std::vector<std::string> ncu_kernels;        // ncu: the kernels the manifest names (a -k filter)
};

// Finds the tool and checks the request. `cuda_root` is the toolkit nvcc belongs to
// (empty when unknown). Throws UsageError (exit 2) with what to install when the tool
// is missing, or when the option is not one the tool takes.
ProfilePlan plan_profile(const ProfileRequest& request, const LabSpec& lab, const std::filesystem::path& cuda_root);

// Puts the tool in front of the lab's command and sets its environment; `output` is the
// trace file or the tool's log.
void wrap_command(const ProfilePlan& plan, const std::filesystem::path& output, ProcessOptions& proc);

struct ProfileReport {
  ProfileTool tool = ProfileTool::none;
  std::string option;
  std::filesystem::path output;                  // the trace or the tool's log
  std::optional<GpuClocks> clocks_before, clocks_after;
  MachineState machine;                          // driver, CUDA versions, power source
  std::vector<std::string> warnings;             // throttling, tool notes
  std::optional<TraceSummary> trace;
  std::vector<std::string> timeline;
  std::optional<NcuTable> ncu;
  std::vector<std::string> ncu_metrics;          // ncu: the metrics asked for, the ones the report lists
                                                 // (empty with sections: their metrics are ncu's own)
  std::optional<SanitizerReport> sanitizer;
  std::map<std::string, double> figures;         // the manifest's profiler metrics, measured
  std::string not_run_reason;                    // the tool could not measure (no counter access)
};

// Reads the tool's output after the run: fills `report`, adds the manifest's profiler
// metrics to `results` and, for the sanitizer, its check (`sanitizer_<tool>`).
void collect_profile(const ProfilePlan& plan, const std::filesystem::path& output, const LabSpec& lab,
                     const ProcessResult& process, ProfileReport& report, LabResults& results);

// The lab as graded in a run with `tool`: profiler metrics of other tools (and the
// derived metrics and predictions built on them) are left out. Under ncu and the
// sanitizer the lab's own timings are distorted, so its min/max ranges are shown but not
// graded (exact `equals` figures still are), and only predictions of the tool's own
// figures are asked.
LabSpec profile_view(const LabSpec& lab, ProfileTool tool);

// What the tool says for the decider (grade/decide.hpp): when it could not measure
// (report.not_run_reason) the run is `not_run` (exit 2); a lab that fails under the
// sanitizer or ncu gets the tool's first error as its reason.
ProfilerFacts profiler_facts(const ProfileReport& report);

}  // namespace workbook
