// `workbook device --calibrate`, the measuring part: build and run the calibration
// probe, turn its results into a Calibration, store it in the journal for this GPU, and
// work out the independent FP32 ceiling it is compared with. Printing is device_print's.
#pragma once

#include <optional>
#include <string>

#include "content/catalog.hpp"
#include "device/calibration.hpp"
#include "device/local_gpu.hpp"
#include "device/probe_run.hpp"
#include "specs/gpu_specs.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

class Journal;

struct CalibrateOptions {
  bool quick = false;       // small sizes: a smoke run
  double timeout_s = 600;   // the probe's time limit
  bool show_progress = false;  // "Building ..." and the probe's own output
};

struct CalibrationRun {
  Calibration cal;                        // as stored (cal.id set)
  std::string failed_checks;              // "" when every probe check passed
  std::optional<double> fp32_ceiling_tflops;  // 2 x SMs x FP32 lanes per SM x max SM clock
  double sm_count = 0, fp32_lanes_per_sm = 0, sm_clock_khz = 0;  // what the ceiling is made of
  std::optional<double> d2d_crosscheck_pct;
};

// Runs the probe and stores what it measured. Throws Error(runtime_error) when the probe
// did not run to its end or left a figure unmeasured (nothing is stored then).
CalibrationRun calibrate_gpu(const Catalog& catalog, const Workspace& ws, const LocalGpu& gpu, Journal& journal,
                             const CalibrateOptions& options);

// Fills the FP32 ceiling from the GPU's spec sheet (its FP32 lanes per SM; may be null).
void set_fp32_ceiling(CalibrationRun& run, const GpuSpec* sheet);

}  // namespace workbook
