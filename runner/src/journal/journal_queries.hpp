// Read-only questions to the journal for the learner's record (`workbook progress`,
// `next`, `history`): what each lab's runs came to, every run with its figures, and how
// far each numeric prediction landed from its measurement. Nothing here writes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "journal/journal.hpp"

namespace workbook {

// One lab's runs of the learner's own code (every variant but "solution").
struct LabRecord {
  std::string lab;
  int runs = 0;
  int passes = 0;        // verdict pass
  int measured = 0;      // runs that recorded at least one metric value
  int explained = 0;     // runs with an explanation
  std::string last_verdict, last_at;
};
std::vector<LabRecord> lab_records(Journal& journal);

struct RunFigure {
  std::string name, unit, status;
  bool derived = false;
  std::optional<double> value, lo, hi;
};

struct RunPrediction {
  std::string prediction, answer, band;
  std::optional<double> predicted, measured, factor;
  int score = 0, max_score = 0;
  std::optional<bool> correct;
};

struct RunDetail {
  long long id = 0;
  std::string lab, variant, started_at, verdict, device, arch, params;
  std::vector<RunFigure> figures;
  std::vector<RunPrediction> predictions;
  std::optional<std::string> explanation;
  int hints_used = 0;  // different hints of the lab shown before the run began (journal/hint_log.hpp)
};
// Runs of `lab` (every lab when empty), newest first, at most `limit`.
std::vector<RunDetail> run_details(Journal& journal, const std::string& lab, int limit);

// A numeric prediction graded against its measurement.
struct PredictionOutcome {
  long long run_id = 0;
  std::string lab, prediction, recorded_at, band;
  double predicted = 0, measured = 0, factor = 1;  // factor = max(p/m, m/p)
};
// Every graded numeric prediction, oldest first.
std::vector<PredictionOutcome> prediction_outcomes(Journal& journal);

}  // namespace workbook
