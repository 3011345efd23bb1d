// `workbook device [--calibrate] [--json]`: the local GPU's device query (Module 3),
// measured through a probe compiled and run like a lab, beside the Colab T4 and the
// cluster H100; --calibrate measures bandwidths, FLOP rates, transfer rates and launch
// overhead, stores them in the journal for this GPU, and expected ranges use them.
#include <fmt/format.h>

#include <algorithm>

#include "cmd/registry.hpp"
#include "device/calibrate_run.hpp"
#include "device/device_print.hpp"
#include "device/device_report.hpp"
#include "device/probe_run.hpp"
#include "journal/journal.hpp"
#include "run/device_context.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

struct DeviceOptions {
  bool json = false;
  bool calibrate = false;
  bool quick = false;
  double timeout_s = 600;
};

int calibrate(const DeviceOptions& o, const Catalog& catalog, const Workspace& ws, const LocalGpu& gpu, const Style& s) {
  ws.ensure();  // a first calibration may come before any run made the workspace
  Journal journal(ws.journal_path());
  CalibrationRun run = calibrate_gpu(catalog, ws, gpu, journal, {o.quick, o.timeout_s, !o.json});
  const DeviceContext dev = load_device_context(catalog, std::nullopt, &journal);  // now with the new figures
  set_fp32_ceiling(run, dev.spec);
  CalibrationView view{run, dev.spec, dev.figures_source};
  if (o.json) {
    print_json(calibration_json(view));
  } else {
    print_calibration(view, s);
  }
  return run.failed_checks.empty() ? 0 : 1;
}

int query(const DeviceOptions& o, const Catalog& catalog, const Workspace& ws, const Style& s) {
  ProbeRequest req;
  req.name = "device_query";
  req.timeout_s = std::min(o.timeout_s, 120.0);
  req.verbose = !o.json;
  ProbeRun run = run_probe_checked(catalog, ws, req, false);
  DeviceQuery q = device_query_from_results(run.results);
  DeviceContext dev = load_device_context(catalog, std::nullopt, ws);
  const GpuSpec* spec = match_gpu(dev.specs, q.name.empty() && dev.gpu ? dev.gpu->name : q.name);
  if (!spec) spec = dev.spec;
  const Calibration* cal = dev.calibration ? &*dev.calibration : nullptr;
  DeviceView view{q, spec, cal, dev.gpu ? dev.gpu->uuid : "", dev.gpu ? dev.gpu->driver : "", dev.figures_source,
                  compare_gpus(&q, spec, cal, find_gpu(dev.specs, "t4"), find_gpu(dev.specs, "h100-sxm"))};
  if (o.json) {
    print_json(device_json(view));
  } else {
    print_device(view, s);
  }
  return 0;
}

}  // namespace

void setup_device(CLI::App& app, CommandContext& ctx) {
  auto* cmd = app.add_subcommand("device", "Your GPU: the device query, a comparison with the T4 and H100, and calibration");
  auto o = std::make_shared<DeviceOptions>();
  cmd->add_flag("--calibrate", o->calibrate, "Measure bandwidth, FLOP rates, transfers and launch overhead; store them for this GPU");
  cmd->add_flag("--quick", o->quick, "With --calibrate: small sizes (a smoke run; figures are less accurate)");
  cmd->add_option("--timeout", o->timeout_s, "Time limit of the probe run in seconds (default 600)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->footer("Examples:\n  workbook device\n  workbook device --calibrate\n  workbook device --json");
  cmd->callback([&ctx, o] {
    std::optional<LocalGpu> gpu = query_local_gpu();
    if (!gpu) {
      const std::string what = "no NVIDIA GPU found on this machine (nvidia-smi is missing or lists no GPU)";
      const std::string hint = "run `workbook device` where the GPU is (Colab, the cluster); `workbook show LAB --gpu t4` "
                               "shows another GPU's expected figures";
      if (o->json) {  // scripts get JSON on stdout whatever happens, and the same exit code
        print_json({{"gpu", nullptr}, {"error", what}, {"hint", hint}});
        fmt::print(stderr, "error: {}\n", what);
        ctx.exit_code = static_cast<int>(Exit::usage);
        return;
      }
      throw UsageError(what, hint);
    }
    Catalog catalog = ctx.global.catalog();
    Workspace ws = ctx.global.open_workspace();
    Style s = ctx.global.style();
    ctx.exit_code = o->calibrate ? calibrate(*o, catalog, ws, *gpu, s) : query(*o, catalog, ws, s);
  });
}

}  // namespace workbook
