// One Slurm job's life on the login node, the same for a lab's run (run/slurm_submit.hpp)
// and an experiment's (experiment/experiment_slurm.hpp):
//
//   1. the batch script is written into the job's folder and the run's owner records what
//      the compute node needs to find (the job may start before sbatch has answered);
//   2. sbatch submits it; the owner records the job's id. When sbatch's answer is unclear
//      (no id, no answer in time, Ctrl-C), the job is looked for by its name: found once,
//      its id is recorded; interrupted, what was found is cancelled and the run ends as
//      interrupted; otherwise the run stays open (its node, if the job runs, records it)
//      and the error says how to find the job. A refused job ends the run as not run;
//   3. the job is followed (slurm_follow.hpp) until it ends; Ctrl-C cancels it (scancel)
//      and waits for its end.
//
// The journal is the owner's: it opens it for each record and never while the job may
// write it (SQLite's WAL must not be shared by two hosts, and a shared home is often NFS).
// What the job's end means for the run is the owner's too (slurm_outcome.hpp, decide).
#pragma once

#include <filesystem>
#include <string>

#include "slurm/slurm_config.hpp"
#include "slurm/slurm_tools.hpp"
#include "ui/style.hpp"

namespace workbook {

struct SlurmJob {
  BatchScript script;                 // written to <dir>/job.sh; its output goes to script.output
  std::filesystem::path dir;          // the job's folder (slurm_job_dir)
  std::filesystem::path done_marker;  // written by the node once it recorded the run: ask Slurm at once
  std::string run_label;              // "run #12", "experiment run #12": what the learner is told
  bool echo = true;                   // the job's output and its state shown as they change
};

// What the login node tells the person waiting. The base says nothing.
class SlurmObserver {
 public:
  virtual ~SlurmObserver() = default;
  // sbatch answered with the job's id.
  virtual void submitted(const std::string& /*job_id*/, const std::string& /*run_label*/,
                         const SlurmSettings& /*settings*/) {}
  // sbatch's answer was unclear (`what`), and the job was found by its name.
  virtual void found_by_name(const std::string& /*what*/, const std::string& /*name*/, const std::string& /*job_id*/) {}
  // Ctrl-C: the job is being cancelled (scancel).
  virtual void cancelling(const std::string& /*job_id*/) {}
};

// The run a job belongs to: what is recorded at each step. Each call opens the journal.
class SlurmJobOwner {
 public:
  virtual ~SlurmJobOwner() = default;
  // Before sbatch runs: what the job needs to find when it starts.
  virtual void submitting() {}
  // The job's id, from sbatch or found by the job's name.
  virtual void job_id_known(const std::string& job_id) = 0;
  // sbatch refused the job (`why`: its message): the run ends as not run.
  virtual void not_submitted(const std::string& why) = 0;
  // Ctrl-C while sbatch ran: the run ends as interrupted (`why` says what was cancelled).
  virtual void interrupted_submitting(const std::string& why) = 0;
};

struct SlurmJobEnd {
  std::string job_id;
  SlurmJobStatus status;        // the last state Slurm gave (no_answer set when it stopped answering)
  bool cancelled_here = false;  // Ctrl-C on the login node cancelled it
};

// Submits the job and follows it until it has ended (see above). Throws the refusal or
// the unclear submission after the owner recorded it.
SlurmJobEnd run_slurm_job(const SlurmJob& job, SlurmJobOwner& owner, SlurmObserver& observer, const Style& style);

// The folder a job starts in (sbatch's --chdir): the current one, which must exist.
std::filesystem::path current_folder();
// This runner's binary, which the batch script runs on the compute node.
std::filesystem::path this_binary();

}  // namespace workbook
