// Read-only questions to the journal, one set for every reader of the learner's record
// (`workbook progress`, `next`, `history`, `report`): the runs of a lab or module, each
// with its figures, predictions (all of them, or only the graded ones), explanations and
// the machine it ran on; per-lab summaries; how far numeric predictions landed; the
// latest calibration of a GPU. Nothing here writes; the tables are those of schema.cpp.
#pragma once

#include <map>
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
  std::string status;  // "in range", "below range", "no range", "not graded", ...
};

struct PredictionRow {
  std::string id, answer;                      // as the learner gave it
  std::optional<double> predicted;             // a numeric answer
  long long run_id = 0;                        // the run it was given with (an earlier one: carried)
  std::string recorded_at;
  bool first = false;                          // the lab's first of this id: its scored prediction
  bool after_measurement = false;              // given once a figure of the lab had been measured
  bool graded = false;                         // a prediction_grades row of the run is of it
  std::optional<double> measured, factor;
  std::string band, right_answer;
  int score = 0, max_score = 0;
  std::optional<bool> correct;
  std::string entered;                         // what was typed ('' in rows older workbooks wrote)
  std::string unclear;                         // set by a reader that knows the lab: see grade.hpp
};

struct ExplanationRow {
  std::string text, recorded_at;
  long long run_id = 0;  // the run it explains
  std::string feedback;  // the examiner's points (explain/feedback.hpp), one a line; "" when none
};

struct CalibrationRow {
  long long id = 0;
  std::string gpu_name, measured_at, driver, arch;
  std::optional<double> sm_clock_mhz;
  std::map<std::string, double> figures;  // d2d_gbps, fp32_tflops, ...
};

// Runs whose lab is `scope` ("module14/tiled_gemm"), in module `scope` ("module14"), or
// every run (""), oldest first.
std::vector<RunRow> runs_in_scope(Journal& journal, const std::string& scope);
// Runs of `lab` (every lab when empty), newest first, at most `limit`.
std::vector<RunRow> latest_runs(Journal& journal, const std::string& lab, int limit);

std::vector<MetricRow> metrics_of_run(Journal& journal, long long run_id);

// Which predictions of a run: those given with it, and the lab's first predictions
// (journal/lab_predictions.hpp) given with an earlier run that this run graded or, when
// the run holds no answer of that id, that stood when it ran; every one (a report shows
// the ungraded ones too), or only those with a grade.
enum class PredictionSet { all, graded };
std::vector<PredictionRow> predictions_of_run(Journal& journal, long long run_id,
                                              PredictionSet which = PredictionSet::all);

std::vector<ExplanationRow> explanations_of_run(Journal& journal, long long run_id);

// The latest calibration stored for a GPU of this name (any UUID), if any.
std::optional<CalibrationRow> latest_calibration_named(Journal& journal, const std::string& gpu_name);

// The machine a run measured on, as far as the journal records it (tables run_machine
// and run_gpu_state, written by profile/gpu_state_store.cpp). Runs from before the
// journal recorded it have neither: `recorded` and `clocks` are false.
struct RunMachine {
  bool recorded = false;  // a run_machine row exists
  std::string driver, cuda_driver, toolkit, power_source;
  bool clocks = false;    // a clock reading exists: the one before the run, else after
  std::optional<double> sm_mhz, max_sm_mhz, mem_mhz, temp_c, power_w, power_limit_w;
  std::string pstate, reason_names;
  bool throttled = false;
};
RunMachine machine_of_run(Journal& journal, long long run_id);

// A run with what `history` shows of it: its figures, graded predictions and latest
// explanation.
struct RunDetail : RunRow {
  std::vector<MetricRow> figures;
  std::vector<PredictionRow> predictions;
  std::optional<std::string> explanation;
  std::string explanation_feedback;  // the examiner's points on it, one a line ("" when none)
  RunMachine machine;
  int hints_used = 0;  // different hints of the lab shown before the run began (journal/hint_log.hpp)
};
// latest_runs with their details.
std::vector<RunDetail> run_details(Journal& journal, const std::string& lab, int limit);

// A numeric prediction graded against its measurement: the lab's first prediction of each
// id, unless it was made after a measurement, against the first run that graded it.
struct PredictionOutcome {
  long long run_id = 0;
  std::string lab, prediction, recorded_at, band;
  double predicted = 0, measured = 0, factor = 1;  // factor = max(p/m, m/p)
};
// Every graded numeric prediction, oldest first.
std::vector<PredictionOutcome> prediction_outcomes(Journal& journal);

// A choice or yes/no prediction graded against the run: the lab's first of each id,
// unless made after a measurement, against the first run that graded it.
struct ChoiceOutcome {
  long long run_id = 0;
  std::string lab, prediction, recorded_at;
  bool correct = false;
  std::string answer, entered;  // as recorded; entered '' in rows older workbooks wrote
};
// Every graded choice or yes/no prediction, oldest first.
std::vector<ChoiceOutcome> choice_outcomes(Journal& journal);

}  // namespace workbook
