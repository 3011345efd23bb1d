// `workbook run <lab> --compare`: the learner's copy, then the reference solution, on
// the same seed and parameters, each run journaled; their figures side by side with the
// ratio (yours / reference). Predictions go with the learner's run only.
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
};

// The rows for two graded runs of one lab: every metric either reported, in the
// learner's run's order (pure).
std::vector<CompareRow> compare_rows(const Grade& mine, const Grade& reference);

CompareResult run_compare(const RunContext& ctx, const RunRequest& base);

// Shown by present/compare_report.hpp (print_compare, compare_json).

// The exit code of the learner's run (the reference's verdict is shown, not graded);
// 130 when either run was interrupted.
int exit_code_for(const CompareResult& r);

}  // namespace workbook
