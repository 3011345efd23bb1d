// Experiments on Slurm (see experiment_slurm.hpp).
#include "experiment/experiment_slurm.hpp"

#include <fmt/format.h>

#include "exec/slurm.hpp"
#include "experiment/experiment_store.hpp"
#include "run/slurm_follow.hpp"
#include "run/slurm_node.hpp"
#include "run/slurm_outcome.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

fs::path experiment_slurm_dir(const Workspace& workspace, long long run_id) {
  return slurm_run_dir(workspace, run_id).parent_path() / fmt::format("experiment-{}", run_id);
}

namespace {

constexpr double kCancelWait_s = 120;

fs::path this_binary() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(Exit::internal, "cannot tell where the workbook binary is (/proc/self/exe)");
  return exe;
}

BatchScript experiment_batch(const Workspace& workspace, const ExperimentRequest& req, const SlurmSettings& s,
                             const fs::path& dir, const std::string& run_id) {
  BatchScript b;
  b.settings = s;
  b.job_name = "wb-exp-" + req.name;
  b.run_label = fmt::format("experiment run #{} of {}", run_id, req.name);
  b.submitted_with = "workbook experiment run --slurm";
  b.node_does = "runs every variant, reads its metrics and records them";
  b.output = dir / "job.out";
  b.workdir = fs::current_path();
  b.command = {this_binary().string(), "--workspace", workspace.root().string(), "experiment", "run", req.name,
               "--slurm-continue", run_id};
  if (req.trace) b.command.push_back("--trace");
  if (req.timeout_s) b.command.insert(b.command.end(), {"--timeout", fmt::format("{:g}", *req.timeout_s)});
  return b;
}

// The status of a job that ended before the node finished the run: Slurm's state says why.
void settle_from_slurm(Journal& journal, long long run_id, const std::string& job, const SlurmJobStatus& status,
                       const SlurmSettings& s, const fs::path& dir) {
  const auto row = load_experiment_run(journal, run_id);
  if (!row || !row->status.empty()) return;
  const SlurmOutcome o = slurm_outcome(job, status, std::nullopt, s.time, dir / "job.out");
  const std::string st = o.verdict == Verdict::interrupted ? "interrupted" : "failed";
  finish_experiment_run(journal, run_id, st, o.reason + (o.next_step.empty() ? "" : "; " + o.next_step));
}

}  // namespace

long long submit_experiment(const Workspace& workspace, const Style& style, const ExperimentRequest& req,
                            const ExperimentSlurmOptions& o) {
  const Experiment e = load_workspace_experiment(workspace, req.name);
  const SlurmSettings s = resolve_slurm_settings(workspace, o.flags, true);
  if (o.dry_run) {
    fmt::print(stderr, "Dry run: nothing is submitted; RUN_ID becomes the experiment run's id.\n");
    fmt::print("{}", render_batch_script(experiment_batch(workspace, req, s, experiment_slurm_dir(workspace, 0).parent_path() / "experiment-RUN_ID", "RUN_ID")));
    return 0;
  }
  if (!slurm_tools_on_path()) {
    throw UsageError("--slurm needs Slurm's sbatch, squeue and scancel, and they are not on PATH",
                     "run it on the cluster's login node, or see the batch script with --slurm-dry-run");
  }
  const std::vector<RecordedPrediction> predictions = collect_experiment_predictions(workspace, e, req, style);
  workspace.ensure();
  long long id = 0;
  std::string job;
  const fs::path script_dir = [&] {
    Journal journal(workspace.journal_path());
    id = open_experiment_run(journal, e, predictions, req.trace);
    const fs::path dir = experiment_slurm_dir(workspace, id);
    write_file_text(dir / "job.sh", render_batch_script(experiment_batch(workspace, req, s, dir, std::to_string(id))));
    try {
      job = sbatch_submit(dir / "job.sh", fs::current_path());
    } catch (const Error& err) {
      finish_experiment_run(journal, id, "not_run", err.what());
      throw;
    }
    record_experiment_slurm_job(journal, id, job);
    return dir;
  }();
  if (req.echo) {
    fmt::print("Submitted Slurm job {} for experiment run #{}{}; Ctrl-C cancels it.\n", job, id,
               s.partition.empty() ? "" : " (partition " + s.partition + ")");
    std::fflush(stdout);
  }
  FollowOptions follow{job, script_dir / "job.out", script_dir / "done", s.poll_s, req.echo, req.echo && interactive_terminal()};
  FollowResult followed = follow_slurm_job(follow, style);
  if (followed.interrupt_signal != 0) {
    if (req.echo) fmt::print("\nCancelling Slurm job {} (scancel) ...\n", job);
    followed.status = cancel_slurm_job(follow, kCancelWait_s, style);
  }
  Journal journal(workspace.journal_path());
  if (followed.interrupt_signal != 0) {
    const auto row = load_experiment_run(journal, id);
    if (row && row->status.empty())
      finish_experiment_run(journal, id, "interrupted", fmt::format("cancelled on the login node (Slurm job {}, scancel)", job));
  }
  settle_from_slurm(journal, id, job, followed.status, s, script_dir);
  return id;
}

std::string continue_experiment(const Workspace& workspace, const Style& style, const ExperimentRequest& req,
                                long long run_id) {
  Journal journal(workspace.journal_path());
  const auto row = load_experiment_run(journal, run_id);
  if (!row || row->slurm_job.empty() || row->experiment != req.name) {
    throw UsageError(fmt::format("--slurm-continue {}: experiment run #{} of {} was not submitted with --slurm", run_id,
                                 run_id, req.name),
                     "this option is for the batch script that `workbook experiment run --slurm` writes");
  }
  if (!row->status.empty()) throw UsageError(fmt::format("--slurm-continue {}: the run has already ended ({})", run_id, row->status));
  // The file as the login node read it, so an edit meanwhile changes nothing.
  const Experiment e = parse_experiment(row->file_text, row->experiment, "experiments/" + row->experiment + ".yaml");
  const ComputeNode node = this_compute_node();
  std::string status;
  try {
    status = measure_experiment(journal, workspace, e, run_id, req, style, node.gpu.empty() ? "" : node.gpu + " on " + node.node);
  } catch (...) {
    write_file_text(experiment_slurm_dir(workspace, run_id) / "done", "not_run\n");
    throw;
  }
  write_file_text(experiment_slurm_dir(workspace, run_id) / "done", status + "\n");
  return status;
}

}  // namespace workbook
