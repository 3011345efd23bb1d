// Slurm states to verdicts (see slurm_outcome.hpp).
#include "run/slurm_outcome.hpp"

#include <fmt/format.h>

namespace workbook {

namespace {

SlurmOutcome make(Verdict v, std::string reason, std::string next) {
  return SlurmOutcome{true, v, std::move(reason), std::move(next)};
}

std::string on_node(const SlurmJobStatus& s) { return s.node.empty() ? "" : " on " + s.node; }

std::string exit_text(const SlurmJobStatus& s) {
  return s.exit_code.empty() ? "" : fmt::format(" (exit code {})", s.exit_code);
}

}  // namespace

SlurmOutcome slurm_outcome(const std::string& job_id, const SlurmJobStatus& s,
                           const std::optional<std::string>& recorded, const std::string& time_limit,
                           const std::filesystem::path& output) {
  // When Slurm kills a job it signals every process of it at once: the lab dies of the
  // SIGTERM (the node records "runtime_error") or the runner forwards it first (it records
  // "interrupted"). Either way Slurm's state says why. Any other verdict is the run's own.
  const bool slurm_killed = s.state == "TIMEOUT" || s.state == "CANCELLED" || s.state == "PREEMPTED" ||
                            s.state == "OUT_OF_MEMORY" || s.state == "NODE_FAIL" || s.state == "DEADLINE";
  const bool kill_verdict =
      recorded && (*recorded == to_string(Verdict::interrupted) || *recorded == to_string(Verdict::runtime_error));
  if (recorded && !(slurm_killed && kill_verdict)) return {};
  const std::string output_hint = fmt::format("read the job's output in {}", output.string());
  if (s.state == "TIMEOUT") {
    return make(Verdict::timeout,
                fmt::format("Slurm job {} reached its time limit{} and was killed{}", job_id,
                            time_limit.empty() ? " (the partition's default)" : " (--time " + time_limit + ")",
                            on_node(s)),
                "ask for more time with --time (minutes, or H:M:S; or `time:` in slurm.yaml); if the lab may hang, "
                "give it a --timeout below the job's limit so the runner stops it and reports where it was");
  }
  if (s.state == "CANCELLED" || s.state == "PREEMPTED") {
    return make(Verdict::interrupted,
                fmt::format("Slurm job {} was {} before the run finished", job_id,
                            s.state == "PREEMPTED" ? "preempted by another job" : "cancelled (scancel)"),
                "nothing was graded; your predictions are kept in the journal: submit it again when you are ready");
  }
  if (s.state == "OUT_OF_MEMORY") {
    return make(Verdict::runtime_error, fmt::format("Slurm job {} ran out of memory{}", job_id, on_node(s)),
                "ask for more memory: add \"--mem=16G\" to `sbatch:` in slurm.yaml (or run with a smaller -p size)");
  }
  if (s.state == "NODE_FAIL" || s.state == "BOOT_FAIL") {
    return make(Verdict::runtime_error, fmt::format("the node of Slurm job {} failed{}", job_id, on_node(s)),
                fmt::format("submit it again; if it keeps happening, tell the cluster's admins (job {})", job_id));
  }
  if (s.state == "DEADLINE") {
    return make(Verdict::runtime_error, fmt::format("Slurm job {} passed its deadline", job_id),
                "submit it again with a later --deadline, or none");
  }
  const std::string what = s.state.empty() ? "Slurm no longer knows the job"
                                           : fmt::format("the job ended {}{}", s.state, exit_text(s));
  return make(Verdict::runtime_error,
              fmt::format("Slurm job {}: {} before the run was recorded", job_id, what),
              output_hint + ": a `setup:` line of slurm.yaml may have failed, or the runner, the workspace or the "
                            "CUDA toolkit is not reachable on the compute node (`setup:` lines such as \"module load "
                            "cuda\" make it so)");
}

}  // namespace workbook
