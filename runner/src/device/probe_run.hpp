// Probes: small CUDA programs under labs/common/probes/ that speak the lab contract
// (docs/lab-contract.md) and measure the device itself (device_query.cu, calibrate.cu).
// They are compiled into the workspace's build cache like labs and run like labs; no
// manifest names them, so `workbook dev check` never treats them as labs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "build/lab_build.hpp"
#include "content/catalog.hpp"
#include "exec/process.hpp"
#include "grade/results.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

struct ProbeRequest {
  std::string name;                // "device_query" -> labs/common/probes/device_query.cu
  std::vector<std::string> args;   // NAME=VALUE arguments
  double timeout_s = 120;          // run time limit
  bool echo = false;               // copy the probe's output to ours as it runs
  bool verbose = false;            // say "Building ..." / "Running ..."
};

struct ProbeRun {
  BuildResult build;
  ProcessResult process;
  LabResults results;
  std::filesystem::path results_file;
};

// labs/common/probes/<name>.cu under the catalog's content root.
std::filesystem::path probe_source(const Catalog& catalog, const std::string& name);

// How a probe is built: -O3 against the harness, into the workspace's build cache, for
// `arch` (resolve_arch's form). run_probe builds with it; dev check compiles every probe.
BuildRequest probe_build_request(const Catalog& catalog, const Workspace& workspace, const std::string& name,
                                 const std::string& arch);

// Builds (content-hash cached in the workspace, for the local GPU's arch) and runs a
// probe; parses its results file. Throws UsageError when nvcc or the probe source is
// missing, Error(compile_error) when the probe does not compile. A probe that runs but
// fails comes back as is: look at process and results.
ProbeRun run_probe(const Catalog& catalog, const Workspace& workspace, const ProbeRequest& request);

// run_probe, and an Error (exit 4) when the probe did not run to its end. With
// `allow_failed_checks`, a probe that ended normally with failed checks (exit 1) is
// returned for the caller to report.
ProbeRun run_probe_checked(const Catalog& catalog, const Workspace& workspace, const ProbeRequest& request,
                           bool allow_failed_checks);
// The check run_probe_checked makes, on a run made already.
void check_probe(const ProbeRun& run, const ProbeRequest& request, bool allow_failed_checks);

// One line on why a probe run failed ("" when it exited 0 with an `end` line): the
// `error` records, else how the process ended.
std::string probe_failure(const ProbeRun& run);

// The value of a reported metric, or NaN when the probe did not report it.
double probe_metric(const LabResults& results, const std::string& name);

}  // namespace workbook
