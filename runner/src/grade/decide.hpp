// The one decider (DESIGN.md, "Decide once, present once"): the facts of a run go in,
// its verdict and the words that go with it come out. Every path that ends a run (run,
// watch, sweep, compare, profile, Slurm, dev check: all through run/lab_run.cpp or the
// Slurm login node) fills RunFacts and records decide()'s answer (Journal::finish_run).
//
// Precedence, from the first that applies down (each pair in tests/grade/decide_test.cpp):
//   Slurm (login node)  Ctrl-C there: interrupted; Slurm killed the job or it ended
//                       without a verdict: Slurm's state; else the compute node's verdict
//   interrupted         Ctrl-C, SIGTERM or SIGHUP during the build or the lab
//   compile_error       the build failed (the lab's source, or the machine's toolchain)
//   not_run             the run never started (sbatch refused it, the node could not), or
//                       it was built and there is no GPU to run it on
//   the lab ran:
//     not_run           a profiler could not measure (ncu without counter access)
//     timeout           the lab did not finish within its limit
//     not_run           the lab exited 3: something it needs is missing
//     runtime_error     a signal, or an exit code other than 0 and 1
//     fail              the results file over its size limit without its `end` record
//     runtime_error     no `end` record
//     fail              a check failed or was never reported (the first such one names it),
//                       then a graded figure not reported (the check figures_reported),
//                       then a lab that exited 1 or whose `end` record says fail
//     out_of_range      every check passed, a graded figure is outside its band
//     pass              (a figure outside on the side that does not fail: a warning)
//   A profiler's account of a failure replaces a fail's or runtime_error's reason; on
//   battery an out_of_range reason says the ranges assume mains power.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "grade/grade.hpp"
#include "grade/results.hpp"

namespace workbook {

// A build the compiler refused.
struct BuildFailure {
  std::string display_name;         // the source as the learner knows it
  std::string diagnostics;          // the compiler's output: the journal's detail
  std::string toolchain_reason;     // non-empty: the machine's compiler pair, not the lab (build/toolchain_problem.hpp)
  std::string toolchain_next_step;
};

// How the lab's process ended and what its results file held.
struct ProcessFacts {
  RunOutcome outcome;
  double lab_timeout_s = 0;  // the manifest's limit: said when outcome.timeout_s is not set
  bool ended = false;        // the results file has its `end` record
  bool over_limit = false;   // the results file was cut at kMaxResultsBytes
  bool end_pass = false;     // the `end` record says pass
  std::string last_error;    // the last CUDA or harness error the lab reported ("" none)
};
ProcessFacts process_facts(const RunOutcome& outcome, const LabResults& results, double lab_timeout_s);

// What a profiler adds (profile/profile_run.hpp, profiler_facts).
struct ProfilerFacts {
  std::string not_run;  // non-empty: the tool could not measure (ncu without counter access): why
  std::string failure;  // non-empty: the tool's account of a failed or crashed run (its first error)
};

// How a Slurm job ended, as the login node sees it (slurm/slurm_outcome.hpp).
struct SlurmFacts {
  std::string job_id, state, exit_code, node;  // state "" when Slurm no longer knows the job
  std::string time_limit;                      // what the job asked for ("" the partition's default)
  std::string output;                          // the job's output file
  bool cancelled_here = false;                 // Ctrl-C on the login node cancelled it (scancel)
  std::optional<std::string> recorded;         // the verdict the compute node recorded (nullopt: none)
  bool node_report = false;                    // the node left its report (report.json)
  std::string recorded_reason, recorded_next_step;  // what the node said with its verdict
  std::string no_answer;                       // non-empty: Slurm stopped answering (squeue's message)
};

struct RunFacts {
  std::string lab_id;
  std::string interrupted;                  // non-empty: a signal stopped the run; how ("interrupted during the build")
  std::optional<BuildFailure> build_failed;
  std::string not_started;                  // non-empty: the run could not start (sbatch refused it, ...): why
  bool no_gpu = false;                      // built, but there is no GPU to run the CUDA lab on
  std::optional<ProcessFacts> process;      // the lab ran
  std::span<const CheckGrade> checks;       // graded (grade_parts): in order, required ones first
  std::span<const MetricGrade> metrics;     // graded figures with their bands and range status
  ProfilerFacts profiler;
  bool on_battery = false;                  // the run was on a laptop's battery
  std::optional<SlurmFacts> slurm;          // the Slurm login node's end of a run
};

struct Decision {
  Verdict verdict = Verdict::not_run;
  std::string reason;                 // shown with the verdict, in --json, and the journal's detail
  std::optional<std::string> detail;  // the journal's detail where it is not the reason (a compile error's diagnostics)
  std::string next_step;              // what to do now ("" when there is nothing to add)
  bool from_slurm = false;            // Slurm's state decided, over what the compute node recorded
  const std::string& journal_detail() const { return detail ? *detail : reason; }
};

Decision decide(const RunFacts& facts);
// decide's Slurm part alone (decide_slurm.cpp): what a job's end makes of the run.
Decision decide_slurm(const SlurmFacts& facts);

// Several runs as one (a sweep): pass when every one passed (or there were none), else
// the first verdict that is not pass.
Verdict combined_verdict(std::span<const Verdict> verdicts);

// The verdict a name (to_string) stands for; nullopt for any other text.
std::optional<Verdict> verdict_named(const std::string& name);

}  // namespace workbook
