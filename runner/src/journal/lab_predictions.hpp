// A prediction belongs to its lab, not only to the run it was given with. For each
// prediction id of a lab the first one recorded (any run, any variant) is the lab's
// scored prediction: later runs show it instead of asking again and grade it; a later
// answer (`run --repredict`, `--predict` on a lab that has one) is kept beside it and
// never scored. A prediction recorded once a figure of the lab had been measured says so
// (after_measurement) and is never calibrated (journal_queries.hpp prediction_outcomes).
#pragma once

#include <string>
#include <vector>

#include "journal/journal.hpp"

namespace workbook {

struct LabPrediction {
  RecordedPrediction answer;
  long long run_id = 0;  // the run it was given with
  std::string uid, recorded_at;
  bool after_measurement = false;
};

// The id of the scored prediction of p's lab and id (SQL, p aliasing predictions): the first
// this journal received. Arrival, not recorded_at: a prediction an import brings that was
// dated earlier on another machine does not take over from one this journal already
// holds (and may have scored); it is kept as a later answer. Read from first_predictions
// (schema 16), whose trigger keeps the lowest id of each lab and prediction id: every query
// of "the first prediction" (history, ledger, report, the run) reads that one table.
inline constexpr const char* kScoredPredictionId =
    "(SELECT f.prediction_id FROM first_predictions f WHERE f.lab = p.lab AND f.prediction = p.prediction)";

// The first prediction of each id of `lab` (kScoredPredictionId), in the order they arrived.
std::vector<LabPrediction> first_predictions(Journal& journal, const std::string& lab);

// Whether a figure of `lab` has been measured: a run of it recorded a metric value.
bool measurement_seen(Journal& journal, const std::string& lab);

}  // namespace workbook
