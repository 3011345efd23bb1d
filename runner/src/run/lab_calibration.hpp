// A GPU's own lab references (issue 37): `workbook device --calibrate --labs [LAB ...]`
// builds each lab's reference solution for this GPU, runs it at its default parameters
// kRunsPerLab times (a scratch journal: these runs are no attempt and no view of the
// solution, which is run, never shown), and records the median of each graded range
// figure with a band from the spread between runs (never tighter than kBandFloor) in the
// workspace's journal (journal/lab_references.hpp). From then on a run on this GPU at
// those parameters is graded against them, as the H200 is against data/measured/h200.yaml,
// unless its state differs (on battery where the references were on mains: then the
// model band applies and the run says why).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "journal/lab_references.hpp"
#include "profile/gpu_clocks.hpp"
#include "run/device_context.hpp"
#include "run/lab_run.hpp"

namespace workbook {

inline constexpr int kRunsPerLab = 5;
inline constexpr double kBandFloor = 0.2;  // as data/measured/h200.yaml's ±20 %

// The band of a figure measured with relative spread (max - min) / median over the runs.
double reference_band(double spread);

struct LabCalibration {
  std::string lab;
  bool recorded = false;
  std::string problem;        // why nothing was recorded ("" when recorded)
  bool nothing_to_calibrate = false;  // the lab ran and grades no figure against a range (a
                                      // correctness lab): not a failure
  LabReference reference;     // what was recorded
  double seconds = 0;         // the build and the runs
};

// Calibrates `labs` (every lab of the course when empty). `progress` is told a line at
// each step ("[3/25] module14/tiled_gemm: run 2 of 5"). Throws UsageError for an unknown lab.
std::vector<LabCalibration> calibrate_labs(const RunContext& ctx, const std::vector<std::string>& labs,
                                           const std::function<void(const std::string&)>& progress);

// The GPU's own reference that grades a run of `lab` at `params`, when one matches: the
// newest of this GPU (name), driver, toolkit (`toolkit`: the nvcc release that built this
// run; "" where unknown, e.g. `show`, matches any), solution source and parameters. None
// is used, and `why_not` (may be null) says why for the run to say before it grades, when
// the newest one for this source and size was measured with another driver or toolkit
// (calibrate again), or when the machine's state differs from the one it was measured in:
// on battery where it was on mains, or (`clocks`: the run's reading after it ran) the SM
// clock 10 % or more below the references' or a throttle reason set (power, heat,
// hardware slowdown).
const OwnReference* own_reference_for(const DeviceContext& dev, const LabSpec& lab, const Figures& params,
                                      std::string* why_not = nullptr, const GpuClocks* clocks = nullptr,
                                      const std::string& toolkit = "");

}  // namespace workbook
