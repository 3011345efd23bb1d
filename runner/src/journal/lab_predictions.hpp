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

// The first prediction of each id of `lab`, oldest first.
std::vector<LabPrediction> first_predictions(Journal& journal, const std::string& lab);

// Whether a figure of `lab` has been measured: a run of it recorded a metric value.
bool measurement_seen(Journal& journal, const std::string& lab);

}  // namespace workbook
