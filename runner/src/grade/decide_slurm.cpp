// The Slurm part of the decider (see decide.hpp and slurm/slurm_outcome.hpp). When the
// compute node recorded a verdict (the lab passed, failed, crashed, hit its own
// --timeout), that verdict stands. When it could not (the job failed before the runner
// started), or when Slurm killed the job (at its --time, cancelled, out of memory, its
// node lost: the node then records the kill as "interrupted" or "runtime_error"), Slurm's
// state decides, each with a reason and what to do next.
#include <fmt/format.h>

#include "grade/decide.hpp"

namespace workbook {

namespace {

Decision by_slurm(Verdict v, std::string reason, std::string next) {
  Decision d;
  d.verdict = v;
  d.reason = std::move(reason);
  d.next_step = std::move(next);
  d.from_slurm = true;
  return d;
}

std::string on_node(const SlurmFacts& s) { return s.node.empty() ? "" : " on " + s.node; }

std::string exit_text(const SlurmFacts& s) { return s.exit_code.empty() ? "" : fmt::format(" (exit code {})", s.exit_code); }

// When Slurm kills a job it signals every process of it at once: the lab dies of the
// SIGTERM (the node records "runtime_error") or the runner forwards it first (it records
// "interrupted"). Either way Slurm's state says why. Any other verdict is the run's own.
bool node_verdict_stands(const SlurmFacts& s) {
  const bool slurm_killed = s.state == "TIMEOUT" || s.state == "CANCELLED" || s.state == "PREEMPTED" ||
                            s.state == "OUT_OF_MEMORY" || s.state == "NODE_FAIL" || s.state == "DEADLINE";
  const bool kill_verdict = s.recorded && (*s.recorded == to_string(Verdict::interrupted) ||
                                           *s.recorded == to_string(Verdict::runtime_error));
  return s.recorded && !(slurm_killed && kill_verdict);
}

Decision node_verdict(const SlurmFacts& s) {
  Decision d;
  d.verdict = verdict_named(*s.recorded).value_or(Verdict::runtime_error);
  d.reason = s.recorded_reason;
  d.next_step = s.recorded_next_step;
  if (d.next_step.empty() && !s.node_report) d.next_step = fmt::format("read the job's output in {}", s.output);
  return d;
}

Decision slurm_killed(const SlurmFacts& s) {
  const std::string& job = s.job_id;
  if (s.state == "TIMEOUT") {
    return by_slurm(Verdict::timeout,
                    fmt::format("Slurm job {} reached its time limit{} and was killed{}", job,
                                s.time_limit.empty() ? " (the partition's default)" : " (--time " + s.time_limit + ")",
                                on_node(s)),
                    "ask for more time with --time (minutes, or H:M:S; or `time:` in slurm.yaml); if the lab may hang, "
                    "give it a --timeout below the job's limit so the runner stops it and reports where it was");
  }
  if (s.state == "CANCELLED" || s.state == "PREEMPTED") {
    return by_slurm(Verdict::interrupted,
                    fmt::format("Slurm job {} was {} before the run finished", job,
                                s.state == "PREEMPTED" ? "preempted by another job" : "cancelled (scancel)"),
                    "nothing was graded; your predictions are kept in the journal: submit it again when you are ready");
  }
  if (s.state == "OUT_OF_MEMORY") {
    return by_slurm(Verdict::runtime_error, fmt::format("Slurm job {} ran out of memory{}", job, on_node(s)),
                    "ask for more memory: add \"--mem=16G\" to `sbatch:` in slurm.yaml (or run with a smaller -p size)");
  }
  if (s.state == "NODE_FAIL" || s.state == "BOOT_FAIL") {
    return by_slurm(Verdict::runtime_error, fmt::format("the node of Slurm job {} failed{}", job, on_node(s)),
                    fmt::format("submit it again; if it keeps happening, tell the cluster's admins (job {})", job));
  }
  if (s.state == "DEADLINE") {
    return by_slurm(Verdict::runtime_error, fmt::format("Slurm job {} passed its deadline", job),
                    "submit it again with a later --deadline, or none");
  }
  if (!s.no_answer.empty()) {
    return by_slurm(Verdict::runtime_error,
                    fmt::format("Slurm stopped answering about job {} ({}); the job may still run", job,
                                s.no_answer),
                    fmt::format("see whether it runs with `squeue -j {}` and cancel it with `scancel {}`; what it "
                                "printed is in {}",
                                job, job, s.output));
  }
  const std::string what = s.state.empty() ? "Slurm no longer knows the job"
                                           : fmt::format("the job ended {}{}", s.state, exit_text(s));
  return by_slurm(Verdict::runtime_error, fmt::format("Slurm job {}: {} before the run was recorded", job, what),
                  fmt::format("read the job's output in {}", s.output) +
                      ": a `setup:` line of slurm.yaml may have failed, or the runner, the workspace or the "
                      "CUDA toolkit is not reachable on the compute node (`setup:` lines such as \"module load "
                      "cuda\" make it so)");
}

}  // namespace

Decision decide_slurm(const SlurmFacts& s) {
  if (s.cancelled_here) {
    return by_slurm(Verdict::interrupted, fmt::format("cancelled on the login node (Slurm job {}, scancel)", s.job_id),
                    "nothing was graded; your predictions are kept in the journal: submit it again when you are ready");
  }
  if (node_verdict_stands(s)) return node_verdict(s);
  return slurm_killed(s);
}

}  // namespace workbook
