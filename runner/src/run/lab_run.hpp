// One lab run, end to end: predictions recorded, build (cached), run with a time limit,
// grade, journal. Progress and prompts go through a RunObserver (run/run_observer.hpp);
// the caller prints the finished report (present/run_report.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "build/lab_build.hpp"
#include "content/catalog.hpp"
#include "grade/grade.hpp"
#include "journal/journal.hpp"
#include "profile/profile_run.hpp"
#include "run/device_context.hpp"
#include "run/run_observer.hpp"
#include "ui/style.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

enum class LabVariant { starter, solution, file, variant };
const char* to_string(LabVariant v);

// Figures measured in this same command that grade a run in place of every other measured
// band: `run --compare` times the reference solution just before the learner's copy, on
// the same GPU, seed and parameters (run/compare.hpp).
struct SessionReference {
  MeasuredLab figures;
  std::string label;  // "the reference solution, run #12 just before yours ..."
};

struct RunRequest {
  std::string lab;                              // "module14/tiled_gemm"
  LabVariant variant = LabVariant::starter;
  std::filesystem::path file;                   // LabVariant::file
  std::string variant_id;                       // LabVariant::variant: a manifest variant of the solution
  std::vector<std::string> params;              // -p NAME=VALUE
  std::vector<std::string> predict;             // --predict ID=VALUE
  bool no_predict = false;                      // ask nothing (the lab's standing predictions are still graded)
  bool repredict = false;                       // ask again: answers kept beside the lab's first ones, not scored
  bool quick = false;                           // each parameter's quick value
  // Grade on the spec sheet's and the nominal figures even where the workspace holds a
  // calibration: the basis an uncalibrated workspace grades on (dev check's second solution row).
  bool ignore_calibration = false;
  std::optional<double> timeout_s;
  std::optional<std::string> arch;              // --arch
  std::optional<std::string> gpu;               // --gpu ID: use that spec sheet
  std::optional<std::uint64_t> seed;
  bool interactive = false;                     // may prompt (console observer only)
  bool verbose = true;                          // without an observer: a console one, else a quiet one
  ProfileRequest profile;                       // --trace / --ncu / --sanitize (profile/profile_run.hpp)
  // The lab's memcheck pass (`memcheck: quick`, profile/memcheck_pass.hpp) after the run;
  // false skips it (a sweep's later values, dev check's spec-sheet row: the same binary
  // at the same quick size again). Never under another profiler.
  bool memcheck = true;
  std::string ranges_not_graded;                // non-empty: figures shown without ranges (GradeBasis)
  // Stop once the run is opened and its predictions are recorded; continue_run_id goes on
  // with that run (build, run, grade): Slurm's login node and compute node
  // (run/slurm_submit.hpp, builds_elsewhere: nvcc and the profiler are looked for on the
  // node), and --compare (the reference runs between the two).
  bool stop_after_predict = false;
  bool builds_elsewhere = false;
  long long continue_run_id = 0;
  std::optional<SessionReference> session_reference;  // grades this run (not --quick) where set
};

struct RunReport {
  LabSpec lab;
  LabVariant variant = LabVariant::starter;
  std::filesystem::path source;
  std::string device;          // DeviceContext::describe()
  std::string figures_source;
  Figures device_figures;      // what the ranges were computed from (DeviceContext::figures)
  bool calibrated = false;     // device_figures hold a calibration's measurements
  std::string arch;
  std::uint64_t seed = 0;
  Figures params;              // as passed to the lab
  std::vector<RecordedPrediction> predictions;        // the lab's scored ones: graded with this run
  std::vector<RecordedPrediction> later_predictions;  // given with this run for ids the lab had predicted: kept, not scored
  std::map<std::string, std::string> prediction_uids; // id -> uid of the recorded prediction graded
  long long run_id = 0;
  bool built = false, build_cached = false;
  std::string build_diagnostics;
  std::string compile_error_kind;  // when the build failed: "source", or a ToolchainProblem's kind
  std::vector<std::string> build_command;
  bool ran = false;
  std::string process_summary; // "exited with code 1"
  double wall_s = 0;
  std::string out, err;
  std::vector<std::string> errors;            // CUDA/harness errors the lab reported
  std::vector<std::string> protocol_problems;
  std::filesystem::path results_file;
  Grade grade;
  std::string next_step;       // what to do now, for failures
  ProfileReport profile;       // GPU clocks before/after; the trace, ncu or sanitizer results
};

struct RunContext {
  const Catalog& catalog;
  const Workspace& workspace;
  Journal& journal;
  const Style& style;
  RunObserver* observer = nullptr;  // who watches the run; nullptr: chosen from the request
};

// Runs the lab. Throws UsageError/ContentError before anything is recorded when the
// request or content is bad. The verdict is in report.grade.verdict; compile errors give
// Verdict::compile_error; a machine without a GPU stops after the build with ran=false.
RunReport run_lab(const RunContext& ctx, const RunRequest& request);

// run_lab's first step alone: the request and the content checked, and the lab, its
// parameters, the source, the device, the architecture and the seed chosen into the
// report; nothing is recorded. Throws as run_lab does. Slurm's login node checks a
// request with it before it writes or prints a batch script.
RunReport prepare_run(const RunContext& ctx, const RunRequest& request);

// What building `source` as `lab` takes: the harness folder, the manifest's flags and
// libraries, the language, the workspace's cache. Shared by run and dev check.
BuildRequest lab_build_request(const RunContext& ctx, const LabSpec& lab, const std::filesystem::path& source,
                               const std::string& arch);

// What tightens the graded ranges of a run of `lab` with `params` (see GradeBasis):
// measured figures and graded workbook figures of the local GPU's spec sheet; with
// `any_sheet`, of whatever sheet dev holds (--gpu), for showing them before a run.
// Where a run's figures are graded from: `session` (run --compare's reference, timed in the
// same command) where given, else this GPU's own references (run/lab_calibration.hpp), then
// the project's (data/measured), else the model. `set_aside` (may be null)
// says why this GPU's own references do not apply to this run: another driver or toolkit
// (`toolkit`: the nvcc release that built it, "" unknown), or the machine's present state
// (`clocks`: the run's reading after it ran).
GradeBasis grade_basis(const DeviceContext& dev, const LabSpec& lab, const Figures& params, bool quick, bool any_sheet,
                       std::string* set_aside = nullptr, const GpuClocks* clocks = nullptr,
                       const std::string& toolkit = "", const SessionReference* session = nullptr);

// The exit code for a report (see util/error.hpp).
int exit_code_for(const RunReport& report);

}  // namespace workbook
