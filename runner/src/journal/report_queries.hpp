// Read-only queries for reports and plots: the runs of a lab or module with their figures,
// predictions (beside their grades) and explanations, and the latest calibration of a GPU
// by name. Nothing here writes; the tables are those of journal.cpp's schema.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "journal/journal.hpp"

namespace workbook {

struct RunRow {
  long long id = 0;
  std::string lab, variant, params;  // params: a JSON object
  unsigned long long seed = 0;
  std::string device, arch, started_at, finished_at;
  std::string verdict;  // "unfinished" while a run has no verdict
};

struct MetricRow {
  std::string name, unit;
  bool derived = false;
  std::optional<double> value, lo, hi;
  std::string status;  // "in range", "below", ...
};

struct PredictionRow {
  std::string id, answer;                      // as the learner gave it
  std::optional<double> number;                // a numeric answer
  bool graded = false;                         // a prediction_grades row exists
  std::optional<double> measured, factor;
  std::string band, right_answer;
  int score = 0, max_score = 0;
  std::optional<bool> correct;
};

struct ExplanationRow {
  std::string text, recorded_at;
};

struct CalibrationRow {
  long long id = 0;
  std::string gpu_name, measured_at, driver, arch;
  std::optional<double> sm_clock_mhz;
  std::map<std::string, double> figures;  // d2d_gbps, fp32_tflops, ...
};

// Runs whose lab is `scope` ("module14/tiled_gemm"), in module `scope` ("module14"), or
// every run ("" ), oldest first.
std::vector<RunRow> runs_in_scope(Journal& journal, const std::string& scope);

std::vector<MetricRow> metrics_of_run(Journal& journal, long long run_id);
std::vector<PredictionRow> predictions_of_run(Journal& journal, long long run_id);
std::vector<ExplanationRow> explanations_of_run(Journal& journal, long long run_id);

// The latest calibration stored for a GPU of this name (any UUID), if any.
std::optional<CalibrationRow> latest_calibration_named(Journal& journal, const std::string& gpu_name);

}  // namespace workbook
