// `workbook experiment run NAME --slurm`: the lab's batch path (run/slurm_config,
// exec/slurm, run/slurm_follow, run/slurm_outcome) for an experiment. On the login node
// the predictions are asked and recorded and the run is opened; a batch script
// (.workbook/slurm/experiment-<id>/job.sh) runs the same binary on the compute node with
// the hidden --slurm-continue ID, which measures every variant there and records it in
// the shared workspace's journal; the login node follows the job (Ctrl-C cancels it) and,
// once it ended, shows the run and asks for the explanation. While the job runs only the
// compute node has the journal open (SQLite's WAL is not for two hosts over NFS).
#pragma once

#include <string>

#include "experiment/experiment_run.hpp"
#include "run/slurm_config.hpp"

namespace workbook {

struct ExperimentSlurmOptions {
  SlurmFlags flags;
  bool dry_run = false;
};

// The login node's part. Returns the run's id (0 after a dry run).
long long submit_experiment(const Workspace& workspace, const Style& style, const ExperimentRequest& req,
                            const ExperimentSlurmOptions& options);

// The compute node's part: measures the opened run `run_id`; returns its status.
std::string continue_experiment(const Workspace& workspace, const Style& style, const ExperimentRequest& req,
                                long long run_id);

// Where the job's files are: <workspace>/.workbook/slurm/experiment-<id>/.
std::filesystem::path experiment_slurm_dir(const Workspace& workspace, long long run_id);

}  // namespace workbook
