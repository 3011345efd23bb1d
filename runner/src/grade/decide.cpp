// The one decider (see decide.hpp). Slurm's part is in decide_slurm.cpp.
#include "grade/decide.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace workbook {

namespace {

Decision made(Verdict v, std::string reason, std::string next_step = "") {
  Decision d;
  d.verdict = v;
  d.reason = std::move(reason);
  d.next_step = std::move(next_step);
  return d;
}

// What to do after a lab ran with this verdict ("" when there is nothing to add).
std::string next_step_for(const std::string& lab_id, Verdict verdict) {
  switch (verdict) {
    case Verdict::runtime_error:
      return fmt::format(
          "find the bad access with `workbook run {} --sanitize` (compute-sanitizer's memcheck names the first one "
          "with its file:line); add --quick for a short run",
          lab_id);
    case Verdict::timeout:
      return "look for a loop that never ends or a __syncthreads() inside a branch not all threads take; "
             "raise the limit with --timeout S if the lab is only slow";
    case Verdict::fail: return "read the failing check's detail above, fix the kernel, and run again";
    case Verdict::interrupted:
      return "nothing was graded; your predictions are kept in the journal: run it again when you are ready";
    case Verdict::not_run:
      return "install what the line above names (or move to a machine that has it: Colab has torch and triton), "
             "then run again";
    case Verdict::out_of_range:
      return fmt::format("the result is right but the figure says the design is not yet what the module teaches: "
                         "`workbook hint {}` shows the lab's next hint; compare your access pattern with the "
                         "reading, and run again",
                         lab_id);
    default: return "";
  }
}

// "correct, but kernel_ms = 3.1 ms is above the 2.5 ms this GPU should give: <hint>"
std::string out_of_range_reason(std::span<const MetricGrade> metrics) {
  auto outside = std::find_if(metrics.begin(), metrics.end(), outside_range);
  const bool below = outside->status == RangeStatus::below;
  const auto bound = below ? outside->lo : outside->hi;
  const long others = std::count_if(metrics.begin(), metrics.end(), outside_range) - 1;
  const std::string unit = outside->unit.empty() || outside->unit == "count" ? "" : " " + outside->unit;
  const bool exact = outside->lo && outside->hi && *outside->lo == *outside->hi;
  const std::string where = exact ? fmt::format("is not the expected {:.6g}", *outside->lo)
                                  : fmt::format("is {} the {:.4g}{} this GPU should give", below ? "below" : "above",
                                                bound.value_or(0), unit);
  return fmt::format("correct, but {} = {:.6g}{} {}{}{}", outside->name, *outside->value, unit, where,
                     others > 0 ? fmt::format(" (and {} more figure{} out of range)", others, others > 1 ? "s" : "") : "",
                     outside->note.empty() ? "" : ": " + outside->note);
}

// A lab that wrote its `end` record: its checks, then its figures against their bands.
Decision from_results(const RunFacts& f) {
  const auto& checks = f.checks;
  const auto& metrics = f.metrics;
  const bool all_pass = std::all_of(checks.begin(), checks.end(), [](const CheckGrade& c) { return c.pass; });
  const bool correct = all_pass && f.process->outcome.exit_code == 0 && f.process->end_pass;
  if (correct && std::none_of(metrics.begin(), metrics.end(), outside_range)) {
    Decision d = made(Verdict::pass, "");
    const auto warned = std::count_if(metrics.begin(), metrics.end(), outside_warning);
    if (warned > 0) {
      auto w = std::find_if(metrics.begin(), metrics.end(), outside_warning);
      d.reason = fmt::format("right; {} is {} ({} figure{} with a warning: the band or the timing may be off, "
                             "the result stands)",
                             w->name, to_string(w->status), warned, warned > 1 ? "s" : "");
    }
    return d;
  }
  if (correct) return made(Verdict::out_of_range, out_of_range_reason(metrics));
  auto bad = std::find_if(checks.begin(), checks.end(), [](const CheckGrade& c) { return !c.pass; });
  if (bad == checks.end()) return made(Verdict::fail, "the lab reported a failure");
  if (bad->name == kFiguresReported) return made(Verdict::fail, bad->detail);
  return made(Verdict::fail, fmt::format("check '{}' {}", bad->name, bad->reported ? "failed" : "was never reported"));
}

// How the lab's process ended, from the most serious failure down.
Decision from_process(const RunFacts& f) {
  const ProcessFacts& p = *f.process;
  const RunOutcome& o = p.outcome;
  if (o.timed_out) {
    return made(Verdict::timeout,
                fmt::format("the lab did not finish within {:g} s", o.timeout_s > 0 ? o.timeout_s : p.lab_timeout_s));
  }
  if (o.signal == 0 && o.exit_code == kLabExitMissing) {
    return made(Verdict::not_run, o.last_line.empty() ? "the lab stopped: something it needs is missing (exit 3)"
                                                      : "the lab could not run: " + o.last_line);
  }
  if (o.signal != 0 || (o.exit_code != 0 && o.exit_code != 1)) {
    return made(Verdict::runtime_error, !p.last_error.empty() ? p.last_error
                                        : o.signal ? fmt::format("the lab was killed by signal {}", o.signal)
                                                   : fmt::format("the lab exited with code {}", o.exit_code));
  }
  if (!p.ended && p.over_limit) {
    return made(Verdict::fail, fmt::format("the results file is over the {} MB limit: the runner read the first {} MB, "
                                           "and the `end` record is not among them (the lab writes too many records)",
                                           kMaxResultsBytes >> 20, kMaxResultsBytes >> 20));
  }
  if (!p.ended) return made(Verdict::runtime_error, "the lab stopped before writing its results (no `end` record)");
  return from_results(f);
}

// The lab ran: the process and the results, then what a profiler and the power source add.
Decision from_run(const RunFacts& f) {
  Decision d = !f.profiler.not_run.empty() ? made(Verdict::not_run, f.profiler.not_run) : from_process(f);
  if (!f.profiler.failure.empty() && f.profiler.not_run.empty() &&
      (d.verdict == Verdict::runtime_error || d.verdict == Verdict::fail))
    d.reason = f.profiler.failure;  // says more than "exited with code 4"
  if (f.on_battery && d.verdict == Verdict::out_of_range)
    d.reason += std::string(d.reason.empty() ? "" : " ") + "(on battery: ranges assume mains power)";
  d.next_step = next_step_for(f.lab_id, d.verdict);
  return d;
}

}  // namespace

ProcessFacts process_facts(const RunOutcome& outcome, const LabResults& results, double lab_timeout_s) {
  return {outcome, lab_timeout_s, results.ended, results.over_limit, results.end_pass,
          results.errors.empty() ? std::string() : results.errors.back()};
}

Decision decide(const RunFacts& f) {
  if (f.slurm) return decide_slurm(*f.slurm);
  if (!f.interrupted.empty()) return made(Verdict::interrupted, f.interrupted, next_step_for(f.lab_id, Verdict::interrupted));
  if (f.build_failed) {
    const BuildFailure& b = *f.build_failed;
    const bool toolchain = !b.toolchain_reason.empty();  // the machine's compiler pair, not the lab
    Decision d = made(Verdict::compile_error, toolchain ? b.toolchain_reason : "the compiler rejected the lab",
                      toolchain ? b.toolchain_next_step
                                : fmt::format("fix the first error above in {}, then run again", b.display_name));
    d.detail = b.diagnostics;
    return d;
  }
  if (!f.not_started.empty()) return made(Verdict::not_run, f.not_started);
  if (f.no_gpu) {
    return made(Verdict::not_run, "no NVIDIA GPU was found (nvidia-smi lists none), so the lab was compiled but not run",
                fmt::format("run it on a machine with a GPU (Colab, or `workbook run {} --slurm` on a cluster), or by "
                            "hand there with the nvcc line in the lab's header; your predictions stand for that run "
                            "where this journal is: on Colab, only after `workbook journal export` here and `workbook "
                            "journal import` there (docs/colab.md)",
                            f.lab_id));
  }
  if (f.process) return from_run(f);
  return made(Verdict::not_run, "the lab was not run");
}

Verdict combined_verdict(std::span<const Verdict> verdicts) {
  auto first = std::find_if(verdicts.begin(), verdicts.end(), [](Verdict v) { return v != Verdict::pass; });
  return first == verdicts.end() ? Verdict::pass : *first;
}

std::optional<Verdict> verdict_named(const std::string& name) {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::out_of_range, Verdict::compile_error, Verdict::runtime_error,
                    Verdict::timeout, Verdict::interrupted, Verdict::not_run}) {
    if (name == to_string(v)) return v;
  }
  return std::nullopt;
}

}  // namespace workbook
