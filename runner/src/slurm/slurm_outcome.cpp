// Slurm states to verdicts, through the decider (see slurm_outcome.hpp).
#include "slurm/slurm_outcome.hpp"

namespace workbook {

SlurmFacts slurm_facts(const std::string& job_id, const SlurmJobStatus& s, const std::optional<std::string>& recorded,
                       const std::string& time_limit, const std::filesystem::path& output) {
  SlurmFacts f;
  f.job_id = job_id;
  f.state = s.state;
  f.exit_code = s.exit_code;
  f.node = s.node;
  f.time_limit = time_limit;
  f.output = output.string();
  f.no_answer = s.no_answer;
  f.recorded = recorded;
  return f;
}

SlurmOutcome slurm_outcome(const std::string& job_id, const SlurmJobStatus& s,
                           const std::optional<std::string>& recorded, const std::string& time_limit,
                           const std::filesystem::path& output) {
  const Decision d = decide_slurm(slurm_facts(job_id, s, recorded, time_limit, output));
  if (!d.from_slurm) return {};
  return SlurmOutcome{true, d.verdict, d.reason, d.next_step};
}

}  // namespace workbook
