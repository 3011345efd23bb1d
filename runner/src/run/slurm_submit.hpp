// `workbook run <lab> --slurm`: one run split between the cluster's login node and a
// compute node that share the workspace (a shared home).
//
// Login node (submit_slurm_run): the run is opened in the journal and the predictions are
// asked and recorded here, before anything is submitted. A batch script is written to the
// workspace (.workbook/slurm/run-<id>/job.sh) and submitted with sbatch; the job id goes
// into the journal (slurm_jobs). The job is followed (squeue) and its output shown as it
// grows; Ctrl-C cancels it (scancel). When it has ended, its verdict is the one the
// compute node recorded, or, when the job was killed before it could record one, the one
// Slurm's state gives (slurm/slurm_outcome.hpp).
//
// The job's life (sbatch, following it, Ctrl-C) is slurm/slurm_job.hpp's, shared with
// experiments; this file is what a lab's run records at each step of it.
//
// Compute node (continue_slurm_run): the batch script runs the same binary with the
// hidden option --slurm-continue RUN, which builds, runs, grades and records that run
// (with the node's name and GPU) and leaves its report in report.json beside the script.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "run/lab_run.hpp"
#include "slurm/slurm_job.hpp"
#include "run/slurm_journal.hpp"

namespace workbook {

struct SlurmRunOptions {
  SlurmFlags flags;
  bool dry_run = false;  // print the batch script, submit nothing, record nothing
  bool json = false;     // the result goes out as JSON: the job's output is not shown as it grows
};

// How a job ended, for the presenter (present/): the report with the verdict decided on
// the login node, and the JSON that --json prints.
struct SlurmRunEnd {
  RunReport report;        // ran: the node ran the lab and its verdict stands (false when Slurm's state decided)
  nlohmann::json json;     // the node's report.json (else this report's), verdict, reason, next_step, "slurm"
  SlurmJobRecord job;
  SlurmJobStatus status;
  bool from_slurm = false;   // Slurm's state decided the verdict, not the node
  bool node_report = false;  // the node left its report (and printed it into the job's output)
  std::filesystem::path dir; // the job's script and output
};

// The batch script --slurm would submit (RUN_ID standing for the run's id), once the
// request is checked as a local run checks it; nothing is recorded.
std::string slurm_dry_run_script(const Catalog& catalog, const Workspace& workspace, const Style& style,
                                 const RunRequest& request, const SlurmFlags& flags);

// Runs the login node's part: returns once the job has ended. The journal is open only
// before the job is submitted and after it has ended, never while the compute node writes
// it: SQLite's WAL mode must not be used from two hosts at once (its -shm index is shared
// memory), and a shared home is usually NFS.
SlurmRunEnd submit_slurm_run(const Catalog& catalog, const Workspace& workspace, const Style& style,
                              RunRequest request, const SlurmRunOptions& options, SlurmObserver& observer);

// Where a submitted run keeps its files: <workspace>/.workbook/slurm/run-<id>/ with
// job.sh, job.out and report.json (the compute node's report, once it graded the run).
std::filesystem::path slurm_run_dir(const Workspace& workspace, long long run_id);

// The runner's command line on the compute node: the same binary, content and
// workspace, the request's lab, source and parameters, the seed chosen on the login
// node, and the hidden --slurm-continue RUN (`run_id` is text so a dry run can show a
// placeholder).
std::vector<std::string> compute_node_command(const std::filesystem::path& binary, const std::filesystem::path& content,
                                              const std::filesystem::path& workspace, const RunRequest& request,
                                              const std::string& run_id);

// The compute node's part (request.continue_run_id set): the report, also left in
// report.json for the login node.
RunReport continue_slurm_run(const RunContext& ctx, const RunRequest& request);

}  // namespace workbook
