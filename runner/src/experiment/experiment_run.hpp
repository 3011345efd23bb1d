// `workbook experiment run NAME`: predictions first (asked on a terminal, else from -p
// NAME=VALUE, recorded before anything runs and never changed), then each variant
// `repeats` times (interleaved: fp32, bf16, fp32, bf16, ... so a drifting clock hits
// both), each with the file's time limit; the metrics read from each run's output;
// with --trace each run under the CUPTI injection library the labs use; the machine
// line; all of it in the journal (experiment/experiment_store.hpp).
//
// A run's status and exit code (docs/commands.md, "Exit codes"):
//   done          every run of every variant exited 0 and every metric was read   0
//   no_metrics    a pattern matched nothing in a run that exited 0 (fix the
//                 pattern: the message shows the output's first lines)            2
//   failed        a variant exited non-zero, crashed or hit the time limit        4
//   interrupted   Ctrl-C (SIGTERM, SIGHUP): the runs so far are kept             130
//   not_run       a command could not be started (not found, bad cwd)             2
// A variant that fails is not repeated; the other variants still run.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment_spec.hpp"
#include "experiment/experiment_store.hpp"
#include "journal/journal.hpp"
#include "run/explained.hpp"
#include "ui/style.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

struct ExperimentRequest {
  std::string name;
  std::vector<std::string> predict;  // NAME=VALUE
  bool no_predict = false;
  bool interactive = false;          // may prompt
  bool echo = true;                  // progress lines and the commands' output on stdout
  bool trace = false;
  std::optional<double> timeout_s;   // over the file's timeout_s
};

// <workspace>/experiments/NAME.yaml; UsageError for a name that is no plain file name.
std::filesystem::path experiment_path(const Workspace& workspace, const std::string& name);
// Loads it; UsageError naming `experiment list` and `experiment new` when it is missing.
Experiment load_workspace_experiment(const Workspace& workspace, const std::string& name);

// The experiment a request names, checked before anything is asked, recorded or
// submitted: its file, its project topic against the course's (`content_root` and the
// workspace's course.yaml) and the values given with -p. Every front end (a local run,
// --slurm, --slurm-dry-run) starts here.
Experiment prepare_experiment(const Workspace& workspace, const std::filesystem::path& content_root,
                              const ExperimentRequest& req);

// The predictions given and asked (run/predictions.hpp's prompts and checks). As for a
// lab, the experiment's first prediction of each id is its scored one: it is shown (when
// echoing), not asked again, and one given with -p for such an id is kept as a later
// answer. Throws UsageError when some are missing, stdin is no terminal and --no-predict
// is not set.
std::vector<RecordedPrediction> collect_experiment_predictions(const Workspace& workspace, const Experiment& e,
                                                               const ExperimentRequest& req, const Style& style);

// Opens the run and records the predictions (before anything runs); returns its id.
long long open_experiment_run(Journal& journal, const Experiment& e, const std::vector<RecordedPrediction>& predictions,
                              bool traced);

// Runs every variant of an opened run, records the results and the machine (`gpu_name`
// over the local GPU's name, for a Slurm node), finishes the run; returns its status.
ExperimentStatus measure_experiment(Journal& journal, const Workspace& workspace, const Experiment& e, long long run_id,
                               const ExperimentRequest& req, const Style& style, const std::string& gpu_name = {});

int experiment_exit_code(ExperimentStatus status);

// An ended run as the after-run (watch/after_run.hpp) asks for its explanation: kept with
// the run (no examiner's points: an experiment has no `examiner:` block).
Explainable explainable_experiment(long long run_id, ExperimentStatus status);

}  // namespace workbook
