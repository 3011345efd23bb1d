// Measuring and storing a calibration (see calibrate_run.hpp).
#include "device/calibrate_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "build/toolchain.hpp"
#include "journal/journal.hpp"
#include "util/error.hpp"
#include "util/seed.hpp"

namespace workbook {

namespace {

// The failed probe checks, as one line ("" when all passed).
std::string failed_checks_of(const LabResults& results) {
  std::vector<std::string> failed;
  for (const auto& c : results.checks) {
    if (!c.pass) failed.push_back(c.name + (c.detail.empty() ? "" : ": " + c.detail));
  }
  return fmt::format("{}", fmt::join(failed, "; "));
}

}  // namespace

CalibrationRun calibrate_gpu(const Catalog& catalog, const Workspace& ws, const LocalGpu& gpu, Journal& journal,
                             const CalibrateOptions& o) {
  ProbeRequest req;
  req.name = "calibrate";
  const unsigned long long seed = new_seed();
  req.args = {fmt::format("seed={}", seed), fmt::format("quick={}", o.quick ? 1 : 0)};
  req.timeout_s = o.timeout_s;
  req.echo = o.show_progress;
  req.verbose = o.show_progress;
  ProbeRun run = run_probe_checked(catalog, ws, req, true);
  std::optional<double> clock = query_sm_clock_mhz();  // just after the run, while the clocks are still up

  std::vector<std::string> missing;
  CalibrationRun out;
  out.cal = calibration_from_results(run.results, missing);
  if (!missing.empty()) {
    throw Error(Exit::runtime_error, fmt::format("the calibration probe did not measure: {}", fmt::join(missing, ", ")),
                "nothing was stored; run it again");
  }
  out.failed_checks = failed_checks_of(run.results);
  Calibration& cal = out.cal;
  cal.gpu_uuid = calibration_key(gpu.uuid, gpu.name);
  cal.gpu_name = run.results.device_name.value_or(gpu.name);
  cal.driver = gpu.driver;
  cal.sm_clock_mhz = clock;
  cal.arch = arch_for_gpu(std::nullopt, gpu.compute_cap);
  cal.seed = seed;
  cal.measured_at = utc_now();
  cal.detail = out.failed_checks.empty() ? (o.quick ? "quick run" : "") : "failed checks: " + out.failed_checks;
  cal.id = store_calibration(journal, cal);

  out.sm_count = probe_metric(run.results, "sm_count");
  out.sm_clock_khz = probe_metric(run.results, "sm_clock_khz");
  if (run.results.metric("d2d_crosscheck_pct")) out.d2d_crosscheck_pct = probe_metric(run.results, "d2d_crosscheck_pct");
  return out;
}

// An independent ceiling for FP32: 2 FLOP x SMs x FP32 lanes per SM x the max SM clock.
void set_fp32_ceiling(CalibrationRun& run, const GpuSpec* sheet) {
  run.fp32_ceiling_tflops.reset();
  if (!sheet) return;
  if (auto it = sheet->figures.find("fp32_cores_per_sm"); it != sheet->figures.end()) run.fp32_lanes_per_sm = it->second;
  if (run.fp32_lanes_per_sm > 0 && std::isfinite(run.sm_count) && std::isfinite(run.sm_clock_khz)) {
    run.fp32_ceiling_tflops = 2.0 * run.sm_count * run.fp32_lanes_per_sm * run.sm_clock_khz * 1e3 / 1e12;
  }
}

}  // namespace workbook
