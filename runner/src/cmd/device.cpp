// `workbook device [--calibrate | --toolchain] [--json]`: the toolchain line (nvcc, its
// host compiler, and whether the pair compiles a probe), then the local GPU's device query (Module 3),
// measured through a probe compiled and run like a lab, beside the Colab T4 and the
// cluster H100; --calibrate measures bandwidths, FLOP rates, transfer rates and launch
// overhead, stores them in the journal for this GPU, and expected ranges use them;
// --calibrate --labs measures each lab's reference solution as this GPU's own references.
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "cmd/registry.hpp"
#include "device/calibrate_run.hpp"
#include "present/device_print.hpp"
#include "device/device_report.hpp"
#include "device/probe_problem.hpp"
#include "device/probe_run.hpp"
#include "device/toolchain_status.hpp"
#include "journal/journal.hpp"
#include "run/device_context.hpp"
#include "run/lab_calibration.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "util/utf8.hpp"

namespace workbook {

namespace {

struct DeviceOptions {
  bool json = false;
  bool calibrate = false;
  bool labs = false;               // --labs given (with or without lab ids)
  std::vector<std::string> lab_ids;  // --labs LAB ...: these; none: every lab
  bool quick = false;
  bool toolchain_only = false;
  bool verbose = false;  // print the probe's own output when it cannot use the GPU
  double timeout_s = 600;
};

// The toolchain line alone (`--toolchain`, scripts/setup.sh): 0 when the pair works,
// 3 when it does not, 2 without nvcc.
int report_toolchain(const DeviceOptions& o, const ToolchainStatus& tool, const Style& s) {
  print_result(output_for(o.json, s), tool, [](const ToolchainStatus& t) { return nlohmann::json{{"toolchain", toolchain_json(t)}}; },
               [](const ToolchainStatus& t, const Style& st) { print_toolchain(t, st); });
  if (!tool.toolchain) return static_cast<int>(Exit::usage);
  return tool.works() ? 0 : static_cast<int>(Exit::compile_error);
}

int calibrate(const DeviceOptions& o, const Catalog& catalog, const Workspace& ws, const LocalGpu& gpu, const Style& s) {
  ws.ensure();  // a first calibration may come before any run made the workspace
  Journal journal(ws.journal_path());
  CalibrationRun run = calibrate_gpu(catalog, ws, gpu, journal, {o.quick, o.timeout_s, !o.json});
  const DeviceContext dev = load_device_context(catalog, std::nullopt, &journal);  // now with the new figures
  set_fp32_ceiling(run, dev.spec);
  CalibrationView view{run, dev.spec, dev.figures_source};
  print_result(output_for(o.json, s), view, calibration_json, [](const CalibrationView& v, const Style& st) { print_calibration(v, st); });
  return run.failed_checks.empty() ? 0 : 1;
}

nlohmann::json lab_calibrations_json(const std::vector<LabCalibration>& all, double seconds) {
  nlohmann::json labs = nlohmann::json::array();
  for (const auto& c : all) {
    nlohmann::json figures = nlohmann::json::object();
    for (const auto& [name, f] : c.reference.figures)
      figures[name] = {{"value", f.value}, {"band", f.band}, {"spread", f.spread}};
    labs.push_back({{"lab", c.lab}, {"recorded", c.recorded}, {"problem", c.problem},
                    {"nothing_to_calibrate", c.nothing_to_calibrate}, {"seconds", c.seconds},
                    {"runs", c.reference.runs}, {"params", c.reference.params}, {"figures", figures}});
  }
  return {{"labs", labs}, {"seconds", seconds}};
}

void print_lab_calibrations(const std::vector<LabCalibration>& all, double seconds, const Style& s) {
  int recorded = 0;
  for (const auto& c : all) {
    if (!c.recorded) continue;
    ++recorded;
    fmt::print("{}\n", s.bold(c.lab));
    for (const auto& [name, f] : c.reference.figures)
      fmt::print("  {:<22} {:>12.4g}  spread {:>5.1f} %  graded within {:g} %\n", name, f.value, f.spread * 100,
                 f.band * 100);
  }
  fmt::print("{}\n", s.bold(wrap_text(fmt::format("{} of {} labs calibrated in {:.0f} s: runs on this GPU at their "
                                                  "default parameters are graded against these from now on.",
                                                  recorded, all.size(), seconds),
                                      text_width())));
  std::string none;
  for (const auto& c : all)
    if (c.nothing_to_calibrate) none += (none.empty() ? "" : ", ") + c.lab;
  if (!none.empty())
    fmt::print("{}\n", wrap_text("No timed figure to calibrate (correctness labs): " + none + ".", text_width(), "", "  "));
}

// 0 when every lab was calibrated or had nothing to calibrate; 1 when one failed.
int calibration_exit(const std::vector<LabCalibration>& all) {
  return std::all_of(all.begin(), all.end(), [](const LabCalibration& c) { return c.recorded || c.nothing_to_calibrate; })
             ? 0
             : 1;
}

// --calibrate --labs: this GPU's own lab references (run/lab_calibration.hpp).
int calibrate_lab_references(const DeviceOptions& o, const Catalog& catalog, const Workspace& ws, const Style& s) {
  ws.ensure();
  Journal journal(ws.journal_path());
  const RunContext ctx{catalog, ws, journal, s};
  const bool terminal = !o.json && isatty(STDOUT_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  // On a terminal each step overwrites one line and each lab's end stays; elsewhere
  // (a log, CI) a line a lab.
  const auto all = calibrate_labs(ctx, o.lab_ids, [&](const std::string& line) {
    const bool step = line.find(": run ") != std::string::npos;
    if (o.json || (step && !terminal)) return;
    fmt::print("{}{}{}", terminal ? "\r\033[K" : "", step ? s.dim(line) : line, step ? "" : "\n");
    std::fflush(stdout);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  print_result(output_for(o.json, s), all, [&](const auto& x) { return lab_calibrations_json(x, seconds); },
               [&](const auto& x, const Style& st) { print_lab_calibrations(x, seconds, st); });
  return calibration_exit(all);
}

// A device command that cannot go on. With --json, scripts still get one JSON object on
// stdout (the GPU, the error, the toolchain), and the error on stderr, with the same exit.
struct DeviceProblem {
  std::optional<std::string> gpu;
  std::string error, hint, detail;  // detail: the probe's CUDA error, if a probe ran
};

nlohmann::json problem_json(const DeviceProblem& p, const ToolchainStatus& tool) {
  nlohmann::json j = {{"gpu", p.gpu ? nlohmann::json(*p.gpu) : nlohmann::json()}, {"error", p.error}};
  if (!p.hint.empty()) j["hint"] = p.hint;
  if (!p.detail.empty()) j["detail"] = valid_utf8(p.detail);
  j["toolchain"] = toolchain_json(tool);
  return j;
}

// The device query probe, run; when CUDA cannot use the GPU nvidia-smi listed (no driver,
// a mismatched one, a hidden device), a sentence instead of the CUDA error (which
// --verbose prints, and --json keeps as "detail"): exit 2, as without a GPU.
ProbeRun query_probe(const DeviceOptions& o, const Catalog& catalog, const Workspace& ws, const ToolchainStatus& tool,
                     const LocalGpu& gpu) {
  ProbeRequest req;
  req.name = "device_query";
  req.timeout_s = std::min(o.timeout_s, 120.0);
  req.verbose = !o.json;
  ProbeRun run = run_probe(catalog, ws, req);
  const std::string failure = probe_failure(run);
  std::optional<ProbeProblem> problem;
  if (!failure.empty()) problem = no_usable_gpu(failure + "\n" + run.process.err, gpu.name);
  if (!problem) {
    check_probe(run, req, false);  // any other failure: what failed, exit 4
    return run;
  }
  const DeviceProblem p{gpu.name, problem->what, problem->hint, trim(failure + "\n" + run.process.err)};
  print_result(output_for(o.json, Style(false)), p, [&](const DeviceProblem& x) { return problem_json(x, tool); },
               [&](const DeviceProblem& x, const Style&) {
                 if (o.verbose) fmt::print(stderr, "the probe's output:\n{}\n", x.detail);
               });
  throw UsageError(problem->what, problem->hint);
}

int query(const DeviceOptions& o, const Catalog& catalog, const Workspace& ws, const ToolchainStatus& tool,
          const LocalGpu& gpu, const Style& s) {
  ProbeRun run = query_probe(o, catalog, ws, tool, gpu);
  DeviceQuery q = device_query_from_results(run.results);
  DeviceContext dev = load_device_context(catalog, std::nullopt, ws);
  const GpuSpec* spec = match_gpu(dev.specs, q.name.empty() && dev.gpu ? dev.gpu->name : q.name);
  if (!spec) spec = dev.spec;
  const Calibration* cal = dev.calibration ? &*dev.calibration : nullptr;
  DeviceView view{q, spec, cal, dev.gpu ? dev.gpu->uuid : "", dev.gpu ? dev.gpu->driver : "", dev.figures_source,
                  compare_gpus(&q, spec, cal, find_gpu(dev.specs, "t4"), find_gpu(dev.specs, "h100-sxm"))};
  const auto with_toolchain = [&](const DeviceView& v) {
    nlohmann::json j = device_json(v);
    j["toolchain"] = toolchain_json(tool);
    return j;
  };
  print_result(output_for(o.json, s), view, with_toolchain, [](const DeviceView& v, const Style& st) { print_device(v, st); });
  return 0;
}

}  // namespace

void setup_device(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("device", "Your GPU: the device query, a comparison with the T4 and H100, and calibration");
  auto o = std::make_shared<DeviceOptions>();
  cmd->add_flag("--calibrate", o->calibrate, "Measure bandwidth, FLOP rates, transfers and launch overhead; store them for this GPU");
  cmd->add_flag("--toolchain", o->toolchain_only,
                 "Only check the toolchain: compile a one-file CUDA probe with the nvcc and host compiler labs use "
                 "(no GPU needed; exit 3 when the pair does not work)");
  auto* labs = cmd->add_option("--labs", o->lab_ids,
                               "With --calibrate: run each lab's reference solution here and grade later runs on this "
                               "GPU against it (the labs named, else every lab)")
                   ->expected(0, -1);
  cmd->add_flag("--quick", o->quick, "With --calibrate: small sizes (a smoke run; figures are less accurate)");
  cmd->add_option("--timeout", o->timeout_s, "Time limit of the probe run in seconds (default 600)");
  add_json_flag(cmd, o->json);
  cmd->add_flag("-v,--verbose", o->verbose, "When CUDA cannot use the GPU, also print the probe's CUDA error");
  cmd->footer("Examples:\n  workbook device\n  workbook device --calibrate\n"
              "  workbook device --calibrate --labs                     (every lab: minutes)\n"
              "  workbook device --calibrate --labs module14/tiled_gemm\n  workbook device --toolchain\n"
              "  workbook --ccbin /usr/bin/g++-14 device --toolchain\n  workbook device --json");
  cmd->callback([&ctx, o, labs] {
    o->labs = labs->count() > 0;
    std::erase(o->lab_ids, std::string());  // a bare --labs (every lab) comes as one empty value
    if (o->labs && !o->calibrate) throw UsageError("--labs goes with --calibrate", "workbook device --calibrate --labs");
    const Workspace ws = ctx.global.open_workspace();
    const Style s = ctx.global.style();
    const ToolchainStatus tool = toolchain_status(ws);
    if (o->toolchain_only) {
      ctx.exit_code = report_toolchain(*o, tool, s);
      return;
    }
    const Output out = ctx.global.output(o->json);
    print_notice(out, [&](const Style& st) { print_toolchain(tool, st); });  // before the probe's wait
    const auto no_text = [](const DeviceProblem&, const Style&) {};  // the toolchain line or the error says it
    const auto as_json = [&](const DeviceProblem& p) { return problem_json(p, tool); };
    std::optional<LocalGpu> gpu = query_local_gpu();
    if (gpu && tool.toolchain && !tool.works()) {  // the probes would not compile either
      print_result(out, DeviceProblem{gpu->name, "the toolchain does not compile a CUDA probe", "", ""}, as_json, no_text);
      ctx.exit_code = static_cast<int>(Exit::compile_error);
      return;
    }
    if (!gpu) {
      const DeviceProblem p{std::nullopt, "no NVIDIA GPU found on this machine (nvidia-smi is missing or lists no GPU)",
                            "run `workbook device` where the GPU is (Colab, the cluster); `workbook show LAB --gpu t4` "
                            "shows another GPU's expected figures",
                            ""};
      print_result(out, p, as_json, no_text);
      throw UsageError(p.error, p.hint);
    }
    const Catalog& catalog = ctx.global.catalog();
    if (o->labs) {
      ctx.exit_code = calibrate_lab_references(*o, catalog, ws, s);
      return;
    }
    ctx.exit_code = o->calibrate ? calibrate(*o, catalog, ws, *gpu, s) : query(*o, catalog, ws, tool, *gpu, s);
  });
}

}  // namespace workbook
