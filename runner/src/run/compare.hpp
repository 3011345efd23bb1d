// `workbook run <lab> --compare`: the learner's copy against the reference solution, on
// the same seed and parameters, each run journaled; their figures side by side with the
// ratio (yours / reference). The learner's run is opened and its predictions recorded
// first, the reference runs, then the learner's copy is built, run and graded against
// the reference's figures (each within reference_band of its spread, as a GPU's own
// calibration grades): a slower design is OUT OF RANGE against what this GPU just did.
// Predictions go with the learner's run only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "run/lab_run.hpp"

namespace workbook {

struct CompareRow {
  std::string name, unit;
  std::optional<double> mine, reference;
  std::optional<double> ratio;  // mine / reference, when both are finite and reference != 0
};

struct CompareResult {
  RunReport mine, reference;
  std::vector<CompareRow> rows;
  bool interrupted = false;  // Ctrl-C, SIGTERM or SIGHUP during either run or between them
  bool graded_on_reference = false;  // the reference ran to its end and its figures graded yours
};

// The reference's graded figures as the ranges that grade the learner's run: each value
// within reference_band(its spread); none when the reference did not pass (or ran out of
// range: still a measurement of this GPU) or reported no graded figure.
std::optional<SessionReference> session_reference(const RunReport& reference);

// The rows for two graded runs of one lab: every metric either reported, in the
// learner's run's order (pure).
std::vector<CompareRow> compare_rows(const Grade& mine, const Grade& reference);

CompareResult run_compare(const RunContext& ctx, const RunRequest& base);

// Shown by present/compare_report.hpp (print_compare, compare_json).

// The exit code of the learner's run (the reference's verdict is shown, not graded);
// 130 when either run was interrupted.
int exit_code_for(const CompareResult& r);

}  // namespace workbook
