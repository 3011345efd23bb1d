// `workbook run <lab> --slurm`: one run split between the cluster's login node and a
// compute node that share the workspace (a shared home).
//
// Login node (submit_slurm_run): the run is opened in the journal and the predictions are
// asked and recorded here, before anything is submitted. A batch script is written to the
// workspace (.workbook/slurm/run-<id>/job.sh) and submitted with sbatch; the job id goes
// into the journal (slurm_jobs). The job is followed (squeue) and its output shown as it
// grows; Ctrl-C cancels it (scancel). When it has ended, its verdict is the one the
// compute node recorded, or, when the job was killed before it could record one, the one
// Slurm's state gives (run/slurm_outcome.hpp).
//
// Compute node (continue_slurm_run): the batch script runs the same binary with the
// hidden option --slurm-continue RUN, which builds, runs, grades and records that run
// (with the node's name and GPU) and leaves its report in report.json beside the script.
#pragma once

#include <optional>

#include "run/lab_run.hpp"
#include "run/slurm_config.hpp"

namespace workbook {

struct SlurmRunOptions {
  SlurmFlags flags;
  bool dry_run = false;  // print the batch script, submit nothing, record nothing
  bool json = false;     // print one JSON object (the report, with a "slurm" object)
};

// Runs the login node's part and prints the report. nullopt after a dry run. The journal
// is open only before the job is submitted and after it has ended, never while the
// compute node writes it: SQLite's WAL mode must not be used from two hosts at once
// (its -shm index is shared memory), and a shared home is usually NFS.
std::optional<RunReport> submit_slurm_run(const Catalog& catalog, const Workspace& workspace, const Style& style,
                                          RunRequest request, const SlurmRunOptions& options);

// The compute node's part (request.continue_run_id set); prints the report.
RunReport continue_slurm_run(const RunContext& ctx, const RunRequest& request);

}  // namespace workbook
