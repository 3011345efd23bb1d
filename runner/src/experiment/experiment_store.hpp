// The journal's record of experiments (tables experiment_runs, experiment_predictions,
// experiment_results, experiment_explanations; journal/schema.cpp, version 11). They
// travel with `journal export/import` like runs. Predictions are immutable (triggers).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment_spec.hpp"
#include "grade/grade.hpp"
#include "journal/journal.hpp"
#include "journal/lab_predictions.hpp"

namespace workbook {

// How one run of one variant ended.
enum class RepeatOutcome { ok, failed, crashed, timeout, interrupted, no_metrics, not_started };
const char* to_string(RepeatOutcome o);
RepeatOutcome repeat_outcome_named(const std::string& name);

// One run (a repeat) of one variant.
struct RepeatResult {
  std::string variant;
  int repeat = 1;  // 1-based
  RepeatOutcome outcome = RepeatOutcome::ok;
  std::optional<int> exit_code;
  double wall_s = 0;
  std::string detail;  // how it ended, or which pattern matched nothing (with the output's first lines)
  std::map<std::string, std::vector<double>> readings;  // metric -> values in output order
  nlohmann::json kernels = nlohmann::json::array();     // --trace: [{name, calls, total_us, min_us, max_us}]
};

struct ExperimentExplanationRow {
  std::string text, recorded_at;
};

struct ExperimentRunRow {
  long long id = 0;
  std::string experiment, file_text, started_at, finished_at, status, detail, gpu, slurm_job;
  bool traced = false;
  nlohmann::json machine = nlohmann::json::object();  // report/machine_line's machine_json, or {}
  std::vector<LabPrediction> predictions;  // given with this run
  // The experiment's scored prediction of each id (the first this journal received, as for
  // a lab: journal/lab_predictions.hpp), where it came with this run or an earlier one.
  std::vector<LabPrediction> scored;
  std::vector<RepeatResult> results;
  std::vector<ExperimentExplanationRow> explanations;  // given with this run, oldest first
};

long long begin_experiment_run(Journal& journal, const Experiment& e, bool traced);
void record_experiment_prediction(Journal& journal, long long run_id, const std::string& experiment,
                                  const RecordedPrediction& p, bool after_measurement);
void record_experiment_machine(Journal& journal, long long run_id, const std::string& gpu, const nlohmann::json& machine);
void record_experiment_slurm_job(Journal& journal, long long run_id, const std::string& job_id);
void record_repeat(Journal& journal, long long run_id, const RepeatResult& r);
// How a run ended (experiment_run.hpp says when each is given, and its exit code); the
// journal keeps its name ("done", "no_metrics", ...), "" while the run is open.
enum class ExperimentStatus { done, no_metrics, failed, interrupted, not_run };
const char* to_string(ExperimentStatus s);
std::optional<ExperimentStatus> experiment_status_named(const std::string& name);  // nullopt: "" or unknown
void finish_experiment_run(Journal& journal, long long run_id, ExperimentStatus status, const std::string& detail);
void record_experiment_explanation(Journal& journal, long long run_id, const std::string& text);

// The experiment's runs, newest first, without their results (all experiments when `name` is "").
std::vector<ExperimentRunRow> experiment_runs(Journal& journal, const std::string& name = {}, int limit = 50);
// One run with its predictions, results and explanation; nullopt when there is none.
std::optional<ExperimentRunRow> load_experiment_run(Journal& journal, long long id);
// The newest run of `name` that finished with results ("done", else any with results).
std::optional<ExperimentRunRow> latest_experiment_run(Journal& journal, const std::string& name);
// True when a run of the experiment has recorded a result: later predictions are made after it.
bool experiment_measured(Journal& journal, const std::string& name);

// The scored prediction of each id of experiment `name` (the first this journal received).
std::vector<LabPrediction> scored_experiment_predictions(Journal& journal, const std::string& name);

// The runs of `name` other than `except` that have an explanation, oldest first, each with
// its children (load_experiment_run).
std::vector<ExperimentRunRow> explained_experiment_runs(Journal& journal, const std::string& name, long long except);

}  // namespace workbook
