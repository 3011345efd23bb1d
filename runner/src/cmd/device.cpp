// `workbook device [--calibrate] [--json]`: the local GPU's device query (Module 3),
// measured through a probe compiled and run like a lab, beside the Colab T4 and the
// cluster H100; --calibrate measures bandwidths, FLOP rates, transfer rates and launch
// overhead, stores them in the journal for this GPU, and expected ranges use them.
#include <fmt/format.h>

#include <cmath>

#include "build/toolchain.hpp"
#include "cmd/registry.hpp"
#include "device/calibration.hpp"
#include "device/device_report.hpp"
#include "device/probe_run.hpp"
#include "journal/journal.hpp"
#include "run/device_context.hpp"
#include "util/error.hpp"
#include "util/seed.hpp"

namespace workbook {

namespace {

struct DeviceOptions {
  bool json = false;
  bool calibrate = false;
  bool quick = false;
  double timeout_s = 600;
};

std::string opt_text(std::optional<double> v, const std::string& unit = "") {
  if (!v) return "-";
  return unit.empty() ? format_number(*v) : format_number(*v) + " " + unit;
}

nlohmann::json opt_json(std::optional<double> v) { return v ? nlohmann::json(*v) : nlohmann::json(); }

// Runs a probe and fails (Error, exit 4) when it did not run to its end.
ProbeRun run_probe_or_throw(const Catalog& catalog, const Workspace& ws, ProbeRequest req, bool allow_failed_checks) {
  ProbeRun run = run_probe(catalog, ws, req);
  std::string why = probe_failure(run);
  bool failed_checks_only = run.results.ended && run.results.errors.empty() && !run.process.timed_out &&
                            run.process.signal == 0 && run.process.exit_code == 1;
  if (!why.empty() && !(allow_failed_checks && failed_checks_only)) {
    std::string tail = run.process.err.size() > 2000 ? run.process.err.substr(run.process.err.size() - 2000) : run.process.err;
    throw Error(Exit::runtime_error, fmt::format("the {} probe failed: {}{}", req.name, why, tail.empty() ? "" : "\n" + tail),
                "check that the GPU works: `nvidia-smi`, then run the probe by hand (see its header)");
  }
  return run;
}

nlohmann::json rows_json(const std::vector<ComparisonRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    out.push_back({{"figure", r.figure}, {"unit", r.unit}, {"yours", opt_json(r.yours)}, {"yours_source", r.yours_source},
                   {"t4", opt_json(r.t4)}, {"h100", opt_json(r.h100)}, {"note", r.note}});
  }
  return out;
}

void print_rows(const std::vector<ComparisonRow>& rows, const std::string& yours_name, const Style& s) {
  fmt::print("\n{}\n", s.bold(fmt::format("Your GPU ({}) vs Colab T4 vs cluster H100 SXM", yours_name)));
  fmt::print("  {:<38} {:>16} {:>10} {:>10}\n", "", "yours", "T4", "H100");
  for (const auto& r : rows) {
    std::string label = r.unit.empty() || r.unit == "yes/no" ? r.figure : fmt::format("{} ({})", r.figure, r.unit);
    auto cell = [&](std::optional<double> v) {
      if (!v) return std::string("-");
      if (r.unit == "yes/no") return std::string(*v > 0 ? "yes" : "no");
      return format_number(*v);
    };
    std::string mine = cell(r.yours);
    if (r.yours && !r.yours_source.empty() && r.yours_source != "query") mine += fmt::format(" ({})", r.yours_source);
    fmt::print("  {:<38} {:>16} {:>10} {:>10}\n", label, mine, cell(r.t4), cell(r.h100));
    fmt::print("      {}\n", s.dim(r.note));
  }
}

// The spec sheet value a calibrated figure is compared with, and what it is.
std::pair<std::optional<double>, std::string> sheet_value(const DeviceContext& dev, const std::string& figure) {
  std::string spec_name = figure == "d2d_gbps" || figure == "memcpy_d2d_gbps" ? "dram_gbps" : figure;
  if (!dev.spec) return {std::nullopt, ""};
  if (auto it = dev.spec->figures.find(spec_name); it != dev.spec->figures.end()) return {it->second, "spec sheet"};
  Figures nominal = nominal_measured_figures(*dev.spec);
  if (auto it = nominal.find(spec_name); it != nominal.end()) return {it->second, "nominal"};
  return {std::nullopt, ""};
}

int calibrate(const CommandContext& ctx, const DeviceOptions& o, const Catalog& catalog, const Workspace& ws,
              const LocalGpu& gpu, const Style& s) {
  ProbeRequest req;
  req.name = "calibrate";
  unsigned long long seed = new_seed();
  req.args = {fmt::format("seed={}", seed), fmt::format("quick={}", o.quick ? 1 : 0)};
  req.timeout_s = o.timeout_s;
  req.echo = !o.json;
  req.verbose = !o.json;
  ProbeRun run = run_probe_or_throw(catalog, ws, req, true);
  std::optional<double> clock = query_sm_clock_mhz();  // just after the run, while the clocks are still up

  std::vector<std::string> missing;
  Calibration cal = calibration_from_results(run.results, missing);
  if (!missing.empty()) {
    std::string names;
    for (const auto& m : missing) names += (names.empty() ? "" : ", ") + m;
    throw Error(Exit::runtime_error, "the calibration probe did not measure: " + names, "nothing was stored; run it again");
  }
  std::string failed;
  for (const auto& c : run.results.checks) {
    if (!c.pass) failed += (failed.empty() ? "" : "; ") + c.name + (c.detail.empty() ? "" : ": " + c.detail);
  }
  cal.gpu_uuid = calibration_key(gpu.uuid, gpu.name);
  cal.gpu_name = run.results.device_name.value_or(gpu.name);
  cal.driver = gpu.driver;
  cal.sm_clock_mhz = clock;
  cal.arch = arch_for_gpu(std::nullopt, gpu.compute_cap);
  cal.seed = seed;
  cal.measured_at = utc_now();
  cal.detail = failed.empty() ? (o.quick ? "quick run" : "") : "failed checks: " + failed;
  Journal journal(ws.journal_path());
  cal.id = store_calibration(journal, cal);

  DeviceContext dev = load_device_context(catalog, std::nullopt, &journal);
  // Independent ceiling for FP32: 2 FLOP x SMs x FP32 lanes per SM x the max SM clock.
  const double lanes = dev.spec ? dev.spec->figures.at("fp32_cores_per_sm") : 0.0;
  const double sms = probe_metric(run.results, "sm_count"), khz = probe_metric(run.results, "sm_clock_khz");
  std::optional<double> fp32_ceiling;
  if (lanes > 0 && std::isfinite(sms) && std::isfinite(khz)) fp32_ceiling = 2.0 * sms * lanes * khz * 1e3 / 1e12;

  if (o.json) {
    nlohmann::json figs = nlohmann::json::array();
    for (const auto& name : calibration_figure_names()) {
      const auto& f = cal.figures.at(name);
      auto [sheet, what] = sheet_value(dev, name);
      figs.push_back({{"name", name}, {"value", f.value}, {"unit", f.unit}, {"sheet", opt_json(sheet)}, {"sheet_kind", what},
                      {"diff_pct", sheet && *sheet > 0 ? nlohmann::json((f.value - *sheet) / *sheet * 100.0) : nlohmann::json()}});
    }
    print_json({{"calibration_id", cal.id}, {"gpu", cal.gpu_name}, {"uuid", cal.gpu_uuid}, {"driver", cal.driver},
                {"measured_at", cal.measured_at}, {"sm_clock_mhz", opt_json(cal.sm_clock_mhz)}, {"arch", cal.arch},
                {"spec", dev.spec ? nlohmann::json(dev.spec->id) : nlohmann::json()}, {"figures", figs},
                {"d2d_crosscheck_pct", opt_json(run.results.metric("d2d_crosscheck_pct") ? std::optional<double>(probe_metric(run.results, "d2d_crosscheck_pct")) : std::nullopt)},
                {"fp32_clock_ceiling_tflops", opt_json(fp32_ceiling)},
                {"checks_failed", failed}, {"figures_source", dev.figures_source}});
  } else {
    fmt::print("\n{}\n", s.bold(fmt::format("Calibration of {} (stored, id {})", cal.gpu_name, cal.id)));
    fmt::print("  {:<20} {:>12} {:>12} {:>9}  {}\n", "figure", "measured", "sheet", "diff", "");
    for (const auto& name : calibration_figure_names()) {
      const auto& f = cal.figures.at(name);
      auto [sheet, what] = sheet_value(dev, name);
      std::string diff = sheet && *sheet > 0 ? fmt::format("{:+.1f} %", (f.value - *sheet) / *sheet * 100.0) : "-";
      fmt::print("  {:<20} {:>12} {:>12} {:>9}  {}\n", name, format_number(f.value) + " " + f.unit,
                 sheet ? format_number(*sheet) : "-", diff, s.dim(what));
    }
    if (fp32_ceiling) {
      double fp32 = cal.figures.at("fp32_tflops").value;
      fmt::print("  {}\n", s.dim(fmt::format("FP32 ceiling at the max SM clock (2 x {} SMs x {} lanes x {} MHz): {} TFLOP/s; "
                                            "measured {:.1f} % of it",
                                            format_number(sms), format_number(lanes), format_number(khz / 1e3),
                                            format_number(*fp32_ceiling), fp32 / *fp32_ceiling * 100.0)));
    }
    fmt::print("  {}\n", s.dim(fmt::format("driver {}, SM clock {} MHz just after the run; expected ranges now use: {}",
                                          cal.driver, opt_text(clock), dev.figures_source)));
    if (!failed.empty()) fmt::print("{} {}\n", s.yellow("warning:"), failed);
  }
  (void)ctx;
  return failed.empty() ? 0 : 1;
}

int query(const DeviceOptions& o, const Catalog& catalog, const Workspace& ws, const Style& s) {
  ProbeRequest req;
  req.name = "device_query";
  req.timeout_s = std::min(o.timeout_s, 120.0);
  req.verbose = !o.json;
  ProbeRun run = run_probe_or_throw(catalog, ws, req, false);
  DeviceQuery q = device_query_from_results(run.results);

  DeviceContext dev = load_device_context(catalog, std::nullopt, ws);
  const GpuSpec* spec = match_gpu(dev.specs, q.name.empty() && dev.gpu ? dev.gpu->name : q.name);
  if (!spec) spec = dev.spec;
  const GpuSpec* t4 = find_gpu(dev.specs, "t4");
  const GpuSpec* h100 = find_gpu(dev.specs, "h100-sxm");
  const Calibration* cal = dev.calibration ? &*dev.calibration : nullptr;
  auto rows = compare_gpus(&q, spec, cal, t4, h100);

  if (o.json) {
    nlohmann::json fields = nlohmann::json::object();
    for (const auto& [k, v] : q.fields) fields[k] = v;
    nlohmann::json calj;
    if (cal) {
      calj = {{"id", cal->id}, {"measured_at", cal->measured_at}, {"driver", cal->driver}, {"sm_clock_mhz", opt_json(cal->sm_clock_mhz)}};
      for (const auto& [k, f] : cal->figures) calj["figures"][k] = f.value;
    }
    print_json({{"name", q.name}, {"cc", q.cc}, {"uuid", dev.gpu ? dev.gpu->uuid : ""}, {"driver", dev.gpu ? dev.gpu->driver : ""},
                {"spec", spec ? nlohmann::json(spec->id) : nlohmann::json()}, {"query", fields}, {"calibration", calj},
                {"comparison", rows_json(rows)}, {"figures_source", dev.figures_source}});
    return 0;
  }
  fmt::print("{}  {}\n", s.bold(q.name), s.dim(fmt::format("cc {}, driver {}, {}", q.cc, dev.gpu ? dev.gpu->driver : "?",
                                                           spec ? "spec sheet '" + spec->id + "'" : "no spec sheet matches")));
  fmt::print("\n{}\n", s.bold("Device query (Module 3)"));
  for (const auto& f : device_query_fields()) fmt::print("  {:<46} {}\n", f.label, opt_text(q.field(f.metric)));
  print_rows(rows, q.name, s);
  if (cal) {
    fmt::print("\n{}\n", s.dim(fmt::format("(measured): calibration of {} (driver {}); re-run `workbook device --calibrate` after a driver or clock change",
                                          cal->measured_at.substr(0, 16), cal->driver)));
  } else {
    fmt::print("\n{}\n", s.dim("No calibration yet: `workbook device --calibrate` measures bandwidth, FLOP rates, transfers and "
                               "launch overhead, and expected ranges then use them."));
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
    ctx.exit_code = o->calibrate ? calibrate(ctx, *o, catalog, ws, *gpu, s) : query(*o, catalog, ws, s);
  });
}

}  // namespace workbook
