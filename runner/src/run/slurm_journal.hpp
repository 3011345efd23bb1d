// The journal's record of Slurm jobs (table slurm_jobs, one row per run submitted with
// `workbook run --slurm`): the job id and what it asked for, written on the login node at
// submission; the node, cluster and GPU, written by the compute node as the run starts;
// Slurm's final state and exit code, written on the login node when the job has ended.
#pragma once

#include <optional>
#include <string>

#include "journal/journal.hpp"

namespace workbook {

struct SlurmJobRecord {
  long long run_id = 0;
  std::string job_id, partition, gres, time_limit, account, script, submitted_at;
  std::string cluster, node, gpu, state, exit_code, finished_at;  // "" until known
};

// How a run ended as the journal has it: its verdict (nullopt while unfinished) and detail.
struct RunEnd {
  std::optional<std::string> verdict;
  std::string detail;
};

// Written before sbatch is run (job_id "" until it has answered), so that a job that
// starts at once finds its row; record_slurm_job_id then fills in the id, and
// forget_slurm_submission removes the row of a job sbatch refused.
void record_slurm_submission(Journal& journal, const SlurmJobRecord& job);
void record_slurm_job_id(Journal& journal, long long run_id, const std::string& job_id);
void forget_slurm_submission(Journal& journal, long long run_id);
// The compute node: where the run is, and its GPU (also written to the run's device and arch).
void record_slurm_node(Journal& journal, long long run_id, const std::string& cluster, const std::string& node,
                       const std::string& gpu);
void record_run_arch(Journal& journal, long long run_id, const std::string& arch);
void record_slurm_end(Journal& journal, long long run_id, const std::string& state, const std::string& exit_code);
// The login node's verdict from Slurm's state (slurm/slurm_outcome.hpp), over the one the
// compute node recorded, if any: the one place a run's verdict is written twice
// (Journal::finish_run refuses a run that has ended).
void settle_slurm_verdict(Journal& journal, long long run_id, Verdict verdict, const std::string& detail);

std::optional<SlurmJobRecord> slurm_job_of(Journal& journal, long long run_id);
std::optional<RunEnd> run_end_of(Journal& journal, long long run_id);  // nullopt: no such run

}  // namespace workbook
