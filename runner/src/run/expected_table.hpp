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

struct ExpectedRow {
  std::string metric, unit;
  bool derived = false;
  std::optional<double> lo, hi;  // on the chosen GPU
  std::string note;              // why it could not be evaluated
  std::string reference;         // the workbook's reference figure
  std::string basis = "model";   // "model", "measured" or "workbook" (see GradeBasis)
  std::string basis_note;
};

// Evaluates each metric's expected range with the device figures and the parameters'
// default values. Ranges that depend on other measured metrics say so in `note`.
// `basis` tightens ranges as a run's grade would (measured or workbook figures).
std::vector<ExpectedRow> expected_rows(const LabSpec& lab, const Figures& device, const std::string& reference_gpu_name,
                                       const GradeBasis& basis = {});

}  // namespace workbook
