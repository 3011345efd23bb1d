// Printers of `workbook device`: the device query beside the T4 and H100, and a new
// calibration beside the spec sheet; each for people (Style) and as JSON. They decide
// nothing: what they print was measured by device_report / calibrate_run.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "device/calibrate_run.hpp"
#include "device/device_report.hpp"
#include "device/toolchain_status.hpp"
#include "specs/gpu_specs.hpp"
#include "ui/style.hpp"

namespace workbook {

// A calibration and what it is compared with: the GPU's spec sheet (may be null) and
// the line saying where expected ranges now take their figures from.
struct CalibrationView {
  const CalibrationRun& run;
  const GpuSpec* sheet;
  std::string figures_source;
};
nlohmann::json calibration_json(const CalibrationView& view);
void print_calibration(const CalibrationView& view, const Style& s);

// The device query and the three-GPU comparison.
struct DeviceView {
  const DeviceQuery& query;
  const GpuSpec* sheet;                 // the sheet the query's GPU matches, may be null
  const Calibration* calibration;       // this GPU's latest, may be null
  std::string uuid, driver, figures_source;
  std::vector<ComparisonRow> rows;
};
nlohmann::json device_json(const DeviceView& view);
void print_device(const DeviceView& view, const Style& s);

// The toolchain line (nvcc release, host compiler and version, ccbin, flags) and whether
// the pair works; when it does not, the explanation and the fix.
nlohmann::json toolchain_json(const ToolchainStatus& status);
void print_toolchain(const ToolchainStatus& status, const Style& s);

}  // namespace workbook
