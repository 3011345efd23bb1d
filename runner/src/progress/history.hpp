// `workbook history [lab]`: every run with its figures, verdict, GPU and date, and how
// well the learner's numeric predictions have landed (calibration), per module, overall
// and over time. Read only: predictions are never edited.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "journal/journal_queries.hpp"
#include "ui/style.hpp"

namespace workbook::progress {

// How a group of numeric predictions landed. factor = max(p/m, m/p) >= 1; the bands are
// those of the run's grade (within 1.25x, 2x, 4x, beyond).
struct CalibrationRow {
  std::string scope;  // "module05", "all", "first half", "second half", "week of 2026-11-30"
  int n = 0;
  double median_factor = 1;
  double typical_ratio = 1;  // geometric mean of predicted/measured: > 1 predicts high, < 1 low
  int within_1_25 = 0, within_2 = 0, within_4 = 0, beyond = 0;
  int over = 0, under = 0;   // predicted above / below the measurement
};

struct Calibration {
  CalibrationRow overall;
  std::vector<CalibrationRow> modules;  // by module
  std::vector<CalibrationRow> halves;   // the older half, then the newer half (when n >= 2)
  std::vector<CalibrationRow> weeks;    // by week (Monday), oldest first
  std::string trend;  // "closer", "further", "steady", or "" (fewer than 4 predictions)
};

// Pure: from graded predictions, oldest first.
Calibration calibrate(const std::vector<PredictionOutcome>& outcomes);

struct HistoryReport {
  std::string lab;  // "" = every lab
  int limit = 20;
  std::vector<RunDetail> runs;  // newest first
  Calibration calibration;      // of `lab`'s predictions, or of all
  std::map<std::string, int> hint_totals;  // lab -> hints its manifest declares (labs of `runs`)

  int hints_total(const std::string& of_lab) const;  // 0 for a lab gone from the content
};

HistoryReport gather_history(Journal& journal, const std::string& lab, int limit);
nlohmann::json to_json(const HistoryReport& report);

}  // namespace workbook::progress
