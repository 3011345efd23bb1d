// Building and running probes (see probe_run.hpp).
#include "device/probe_run.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "build/toolchain.hpp"
#include "build/toolchain_config.hpp"
#include "util/error.hpp"

namespace workbook {
namespace fs = std::filesystem;

fs::path probe_source(const Catalog& catalog, const std::string& name) {
  return catalog.common_dir() / "probes" / (name + ".cu");
}

BuildRequest probe_build_request(const Catalog& catalog, const Workspace& workspace, const std::string& name,
                                 const std::string& arch) {
  BuildRequest build;
  build.source = probe_source(catalog, name);
  build.display_name = "labs/common/probes/" + name + ".cu";
  build.include_dirs = {catalog.common_dir()};
  build.flags = {"-O3"};
  build.arch = arch;
  build.language = Language::cuda;
  build.cache_dir = workspace.build_cache();
  return build;
}

ProbeRun run_probe(const Catalog& catalog, const Workspace& workspace, const ProbeRequest& req) {
  std::optional<Toolchain> nvcc = find_toolchain(workspace.root());
  if (!nvcc) {
    throw UsageError("nvcc (the CUDA compiler) was not found; the device probes are compiled with it",
                     "install the CUDA Toolkit, put its bin/ on PATH, or set WORKBOOK_NVCC to the nvcc to use");
  }
  fs::path source = probe_source(catalog, req.name);
  std::error_code ec;
  if (!fs::is_regular_file(source, ec)) {
    throw UsageError(fmt::format("the probe {} is missing", source.string()),
                     "the content root must hold labs/common/probes/ (--content DIR)");
  }
  workspace.ensure();
  fs::create_directories(workspace.runs_dir(), ec);

  ProbeRun run;
  const BuildRequest build = probe_build_request(catalog, workspace, req.name, resolve_arch(std::nullopt));
  if (req.verbose) {
    fmt::print("Building {} for {} ...\n", build.display_name, build.arch);
    std::fflush(stdout);
  }
  run.build = build_lab(build, &*nvcc);
  if (run.build.interrupted) throw Error(Exit::runtime_error, "interrupted (Ctrl-C) while building " + build.display_name);
  if (!run.build.ok && run.build.toolchain_problem) {
    throw Error(Exit::compile_error, fmt::format("the probe {} did not compile:\n{}", build.display_name, run.build.diagnostics),
                run.build.toolchain_problem->next_step);
  }
  if (!run.build.ok) {
    throw Error(Exit::compile_error, fmt::format("the probe {} did not compile:\n{}", build.display_name, run.build.diagnostics),
                "the probes are part of the workbook: report this with the output of `nvcc --version`");
  }

  run.results_file = workspace.runs_dir() / fmt::format("probe-{}-{}.jsonl", req.name, static_cast<long>(::getpid()));
  fs::remove(run.results_file, ec);
  ProcessOptions proc;
  proc.argv = {run.build.binary.string()};
  for (const auto& a : req.args) proc.argv.push_back(a);
  proc.env = {{"WORKBOOK_RESULTS", run.results_file.string()}};
  proc.timeout_s = req.timeout_s;
  proc.echo = req.echo;
  if (req.verbose) {
    fmt::print("Running {} (time limit {:g} s) ...\n", req.name, req.timeout_s);
    std::fflush(stdout);
  }
  run.process = run_process(proc);
  run.results = read_results_file(run.results_file);
  if (run.process.interrupted) throw Error(Exit::runtime_error, "interrupted (Ctrl-C) while running " + req.name);
  return run;
}

std::string probe_failure(const ProbeRun& run) {
  if (!run.results.errors.empty()) {
    std::string s;
    for (const auto& e : run.results.errors) s += (s.empty() ? "" : "; ") + e;
    return s;
  }
  if (run.process.exited_ok() && run.results.ended) return "";
  if (!run.process.exited_ok()) return describe(run.process);
  return "the probe ended without its `end` record";
}

double probe_metric(const LabResults& results, const std::string& name) {
  const ReportedMetric* m = results.metric(name);
  return m ? m->value : std::numeric_limits<double>::quiet_NaN();
}

ProbeRun run_probe_checked(const Catalog& catalog, const Workspace& ws, const ProbeRequest& req, bool allow_failed_checks) {
  ProbeRun run = run_probe(catalog, ws, req);
  check_probe(run, req, allow_failed_checks);
  return run;
}

void check_probe(const ProbeRun& run, const ProbeRequest& req, bool allow_failed_checks) {
  const std::string why = probe_failure(run);
  const bool failed_checks_only = run.results.ended && run.results.errors.empty() && !run.process.timed_out &&
                                  run.process.signal == 0 && run.process.exit_code == 1;
  if (!why.empty() && !(allow_failed_checks && failed_checks_only)) {
    const std::string& err = run.process.err;
    const std::string tail = err.size() > 2000 ? err.substr(err.size() - 2000) : err;
    throw Error(Exit::runtime_error, fmt::format("the {} probe failed: {}{}", req.name, why, tail.empty() ? "" : "\n" + tail),
                "check that the GPU works: `nvidia-smi`, then run the probe by hand (see its header)");
  }
}

}  // namespace workbook
