// How a Slurm job's end becomes the run's verdict: Slurm's job status as the decider's
// SlurmFacts (grade/decide.hpp, decide_slurm, which holds the rules). When the compute
// node recorded a verdict, that verdict stands; when it could not, or when Slurm killed
// the job (the node then records the kill as "interrupted" or "runtime_error"), Slurm's
// state decides:
//
//   TIMEOUT                      -> timeout      (the job's --time was reached)
//   CANCELLED, PREEMPTED         -> interrupted  (nothing graded; predictions kept)
//   OUT_OF_MEMORY, NODE_FAIL,
//   FAILED, BOOT_FAIL, DEADLINE,
//   COMPLETED without a verdict  -> runtime_error
//
// Each with a reason and what to do next.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "slurm/slurm_tools.hpp"
#include "grade/decide.hpp"

namespace workbook {

struct SlurmOutcome {
  bool from_slurm = false;  // false: the journal's verdict stands (nothing else below is set)
  Verdict verdict = Verdict::runtime_error;
  std::string reason, next_step;
};

// `recorded`: the run's verdict in the journal after the job ended (nullopt: unfinished).
// `time_limit`: what the job asked for ("" when the cluster's default); `output`: the job's output file.
SlurmOutcome slurm_outcome(const std::string& job_id, const SlurmJobStatus& status,
                           const std::optional<std::string>& recorded, const std::string& time_limit,
                           const std::filesystem::path& output);

// The same job's end as the decider's facts (the node's report and Ctrl-C on the login
// node left for the caller to add).
SlurmFacts slurm_facts(const std::string& job_id, const SlurmJobStatus& status,
                       const std::optional<std::string>& recorded, const std::string& time_limit,
                       const std::filesystem::path& output);

}  // namespace workbook
