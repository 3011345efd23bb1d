// The expected figures of a lab on a given GPU, before anything runs (for `show`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "model/expr.hpp"
#include "grade/grade.hpp"

namespace workbook {

// The notes of a range that cannot be worked out before a run.
inline constexpr const char* kNoDeviceFigures = "no device figures";
inline constexpr const char* kAfterTheRun = "depends on figures measured in the run";

// Each metric's band (grade/grade.hpp set_band: the one place a band is worked out) with
// the device figures and the parameters' default values, as a MetricGrade without a value
// (status no_range). Its note says why a band could not be worked out (kNoDeviceFigures,
// an error in the lab's vars, kAfterTheRun for a range over other measured figures) and
// which profiler measures the figure. `basis` tightens ranges as a run's grade would
// (measured or workbook figures).
std::vector<MetricGrade> expected_rows(const LabSpec& lab, const Figures& device, const std::string& reference_gpu_name,
                                       const GradeBasis& basis = {});

}  // namespace workbook
