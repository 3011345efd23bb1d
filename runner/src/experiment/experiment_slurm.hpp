// `workbook experiment run NAME --slurm`: an experiment's run on a Slurm compute node, with
// the job's life the lab's (slurm/slurm_job.hpp). On the login node the predictions are
// asked and recorded and the run is opened; the batch script
// (.workbook/slurm/experiment-<id>/job.sh) runs the same binary on the compute node with the
// hidden --slurm-continue ID, which measures every variant there and records it in the
// shared workspace's journal; the login node follows the job (Ctrl-C cancels it) and,
// once it ended, shows the run and asks for the explanation.
#pragma once

#include <filesystem>
#include <string>

#include "experiment/experiment_run.hpp"
#include "slurm/slurm_job.hpp"

namespace workbook {

struct ExperimentSlurmOptions {
  SlurmFlags flags;
  bool dry_run = false;
};

// The batch script --slurm would submit (RUN_ID standing for the run's id), once the
// request is checked as a local run checks it; nothing is recorded.
std::string experiment_dry_run_script(const Workspace& workspace, const std::filesystem::path& content_root,
                                      const ExperimentRequest& req, const SlurmFlags& flags);

// The login node's part: returns the run's id once its job has ended.
long long submit_experiment(const Workspace& workspace, const std::filesystem::path& content_root, const Style& style,
                            const ExperimentRequest& req, const SlurmFlags& flags, SlurmObserver& observer);

// The compute node's part: measures the opened run `run_id`; returns its status.
ExperimentStatus continue_experiment(const Workspace& workspace, const Style& style, const ExperimentRequest& req,
                                long long run_id);

// Where the job's files are: <workspace>/.workbook/slurm/experiment-<id>/.
std::filesystem::path experiment_slurm_dir(const Workspace& workspace, long long run_id);

}  // namespace workbook
