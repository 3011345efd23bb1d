// Experiments on Slurm (see experiment_slurm.hpp).
#include "experiment/experiment_slurm.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "experiment/experiment_store.hpp"
#include "slurm/slurm_node.hpp"
#include "slurm/slurm_outcome.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace fs = std::filesystem;

fs::path experiment_slurm_dir(const Workspace& workspace, long long run_id) {
  return slurm_job_dir(workspace, fmt::format("experiment-{}", run_id));
}

namespace {

BatchScript experiment_batch(const Workspace& workspace, const ExperimentRequest& req, const SlurmSettings& s,
                             const fs::path& dir, const std::string& run_id) {
  BatchScript b;
  b.settings = s;
  b.job_name = fmt::format("wb-exp-{}-{}", req.name, run_id);  // one a run: a lost job id is found by it
  b.run_label = fmt::format("experiment run #{} of {}", run_id, req.name);
  b.submitted_with = "workbook experiment run --slurm";
  b.node_does = "runs every variant, reads its metrics and records them";
  b.output = dir / "job.out";
  b.workdir = current_folder();
  b.command = {this_binary().string(), "--workspace", workspace.root().string(), "experiment", "run", req.name,
               "--slurm-continue", run_id};
  if (req.trace) b.command.push_back("--trace");
  if (req.timeout_s) b.command.insert(b.command.end(), {"--timeout", fmt::format("{:g}", *req.timeout_s)});
  return b;
}

// Ends the run as `status` unless it has ended (the node may have recorded it).
void end_open_run(Journal& journal, long long run_id, ExperimentStatus status, const std::string& detail) {
  const auto row = load_experiment_run(journal, run_id);
  if (row && row->status.empty()) finish_experiment_run(journal, run_id, status, detail);
}

// What an experiment's run records at each step of its job's life (slurm/slurm_job.hpp).
// The node knows its run by the batch script in the run's folder, written before sbatch.
class ExperimentJobOwner : public SlurmJobOwner {
 public:
  ExperimentJobOwner(const Workspace& workspace, long long run_id) : workspace_(workspace), run_id_(run_id) {}
  // A job that ran before sbatch answered has ended the run, and its node recorded the
  // id ($SLURM_JOB_ID): an ended run is not changed.
  void job_id_known(const std::string& id) override {
    Journal journal(workspace_.journal_path());
    const auto row = load_experiment_run(journal, run_id_);
    if (row && row->status.empty()) record_experiment_slurm_job(journal, run_id_, id);
  }
  void not_submitted(const std::string& why) override {
    Journal journal(workspace_.journal_path());
    end_open_run(journal, run_id_, ExperimentStatus::not_run, why);
  }
  void interrupted_submitting(const std::string& why) override {
    Journal journal(workspace_.journal_path());
    end_open_run(journal, run_id_, ExperimentStatus::interrupted, why);
  }

 private:
  const Workspace& workspace_;
  long long run_id_;
};

// The status of a job that ended before the node finished the run: Slurm's state says why.
void settle_from_slurm(Journal& journal, long long run_id, const SlurmJobEnd& end, const SlurmSettings& s,
                       const fs::path& output) {
  if (end.cancelled_here)
    end_open_run(journal, run_id, ExperimentStatus::interrupted, fmt::format("cancelled on the login node (Slurm job {}, scancel)", end.job_id));
  const SlurmOutcome o = slurm_outcome(end.job_id, end.status, std::nullopt, s.time, output);
  end_open_run(journal, run_id, o.verdict == Verdict::interrupted ? ExperimentStatus::interrupted : ExperimentStatus::failed,
               o.reason + (o.next_step.empty() ? "" : "; " + o.next_step));
}

}  // namespace

std::string experiment_dry_run_script(const Workspace& workspace, const fs::path& content_root,
                                      const ExperimentRequest& req, const SlurmFlags& flags) {
  prepare_experiment(workspace, content_root, req);
  const SlurmSettings s = resolve_slurm_settings(workspace, flags, true);
  return render_batch_script(experiment_batch(workspace, req, s, slurm_job_dir(workspace, "experiment-RUN_ID"), "RUN_ID"));
}

long long submit_experiment(const Workspace& workspace, const fs::path& content_root, const Style& style,
                            const ExperimentRequest& req, const SlurmFlags& flags, SlurmObserver& observer) {
  const Experiment e = prepare_experiment(workspace, content_root, req);
  const SlurmSettings s = resolve_slurm_settings(workspace, flags, true);
  require_slurm_tools();
  check_batch_script(experiment_batch(workspace, req, s, experiment_slurm_dir(workspace, 0), "0"));
  const std::vector<RecordedPrediction> predictions = collect_experiment_predictions(workspace, e, req, style);
  workspace.ensure();
  long long id = 0;
  {  // The journal is closed before sbatch runs: the job may start at once and write it.
    Journal journal(workspace.journal_path());
    id = open_experiment_run(journal, e, predictions, req.trace);
  }
  SlurmJob job;
  job.dir = experiment_slurm_dir(workspace, id);
  job.script = experiment_batch(workspace, req, s, job.dir, std::to_string(id));
  job.done_marker = job.dir / "done";
  job.run_label = fmt::format("experiment run #{}", id);
  job.echo = req.echo;
  ExperimentJobOwner owner(workspace, id);
  const SlurmJobEnd end = run_slurm_job(job, owner, observer, style);
  Journal journal(workspace.journal_path());
  settle_from_slurm(journal, id, end, s, job.script.output);
  return id;
}

ExperimentStatus continue_experiment(const Workspace& workspace, const Style& style, const ExperimentRequest& req,
                                long long run_id) {
  Journal journal(workspace.journal_path());
  const auto row = load_experiment_run(journal, run_id);
  const fs::path dir = experiment_slurm_dir(workspace, run_id);
  std::error_code ec;
  if (!row || row->experiment != req.name || !fs::is_regular_file(dir / "job.sh", ec)) {
    throw UsageError(fmt::format("--slurm-continue {}: experiment run #{} of {} was not submitted with --slurm", run_id,
                                 run_id, req.name),
                     "this option is for the batch script that `workbook experiment run --slurm` writes");
  }
  if (!row->status.empty()) throw UsageError(fmt::format("--slurm-continue {}: the run has already ended ({})", run_id, row->status));
  // The job's id, in case the job started before sbatch answered the login node.
  if (const char* job = std::getenv("SLURM_JOB_ID"); job && *job && row->slurm_job.empty())
    record_experiment_slurm_job(journal, run_id, job);
  // The file as the login node read it, so an edit meanwhile changes nothing.
  const Experiment e = parse_experiment(row->file_text, row->experiment, "experiments/" + row->experiment + ".yaml");
  const ComputeNode node = this_compute_node();
  ExperimentStatus status = ExperimentStatus::not_run;
  try {
    status = measure_experiment(journal, workspace, e, run_id, req, style, node.gpu.empty() ? "" : node.gpu + " on " + node.node);
  } catch (...) {
    write_file_text(dir / "done", std::string(to_string(ExperimentStatus::not_run)) + "\n");
    throw;
  }
  write_file_text(dir / "done", std::string(to_string(status)) + "\n");
  return status;
}

}  // namespace workbook
