// Your copy against the reference solution (see compare.hpp).
#include "run/compare.hpp"

#include <fmt/format.h>

#include <cmath>

#include "exec/process.hpp"
#include "exec/interrupt_watch.hpp"
#include "run/lab_calibration.hpp"
#include "run/sweep.hpp"
#include "util/error.hpp"
#include "util/seed.hpp"
#include "util/utf8.hpp"

namespace workbook {

std::vector<CompareRow> compare_rows(const Grade& mine, const Grade& reference) {
  std::vector<CompareRow> rows;
  auto find = [](const Grade& g, const std::string& name) -> const MetricGrade* {
    for (const auto& m : g.metrics) {
      if (m.name == name) return &m;
    }
    return nullptr;
  };
  auto add = [&](const MetricGrade& m, const MetricGrade* other, bool mine_side) {
    CompareRow row{m.name, m.unit, {}, {}, {}};
    row.mine = mine_side ? m.value : (other ? other->value : std::nullopt);
    row.reference = mine_side ? (other ? other->value : std::nullopt) : m.value;
    if (row.mine && row.reference && std::isfinite(*row.mine) && std::isfinite(*row.reference) && *row.reference != 0)
      row.ratio = *row.mine / *row.reference;
    if (row.mine || row.reference) rows.push_back(row);
  };
  for (const auto& m : mine.metrics) add(m, find(reference, m.name), true);
  for (const auto& m : reference.metrics) {
    if (!find(mine, m.name)) add(m, nullptr, false);
  }
  return rows;
}

std::optional<SessionReference> session_reference(const RunReport& ref) {
  if (ref.grade.verdict != Verdict::pass && ref.grade.verdict != Verdict::out_of_range) return std::nullopt;
  SessionReference s;
  s.figures.params = ref.params;
  s.figures.basis = ref.device_figures;
  for (const auto& m : ref.grade.metrics) {
    if (!m.value || !std::isfinite(*m.value) || (!m.lo && !m.hi)) continue;  // only what a range grades
    const double spread = m.stats && m.stats->spread ? *m.stats->spread : 0.0;
    s.figures.figures[m.name] = {*m.value, reference_band(spread)};
  }
  if (s.figures.figures.empty()) return std::nullopt;
  s.label = fmt::format("the reference solution, run #{} just before yours, same seed and parameters", ref.run_id);
  return s;
}

CompareResult run_compare(const RunContext& ctx, const RunRequest& base) {
  CompareResult r;
  // A Ctrl-C, SIGTERM or SIGHUP while a lab or a build runs is forwarded to it and ends
  // that run as interrupted (exec/process.hpp); one that comes between the runs is caught
  // here, so nothing more is started.
  InterruptWatch between;
  PromptOnlyObserver observer(ctx.style, base.interactive);
  const RunContext quiet{ctx.catalog, ctx.workspace, ctx.journal, ctx.style, &observer};
  auto stop = [&] { return between.fired() != 0 || termination_signal() != 0; };
  // 1. Your run opens and your predictions are recorded, before anything is measured.
  RunRequest mine = base;
  mine.variant = LabVariant::starter;
  mine.seed = base.seed ? *base.seed : new_seed();
  mine.verbose = false;
  mine.stop_after_predict = true;
  r.mine = run_lab(quiet, mine);
  if (r.mine.run_id == 0 || r.mine.grade.verdict == Verdict::interrupted || stop()) {
    r.interrupted = r.mine.grade.verdict == Verdict::interrupted || stop();
    return r;  // nothing was opened, or it was stopped: the reference is not run
  }
  // 2. The reference solution, on the same seed and parameters.
  RunRequest reference = mine;
  reference.variant = LabVariant::solution;
  reference.predict.clear();
  reference.no_predict = true;
  reference.stop_after_predict = false;
  r.reference = run_lab(quiet, reference);
  if (r.reference.grade.verdict == Verdict::interrupted || stop()) {  // your copy is not started
    RunFacts facts;
    facts.lab_id = r.mine.lab.id;
    facts.interrupted = "interrupted while the reference ran, before your copy was built";
    const Decision d = ctx.journal.end_run(r.mine.run_id, facts, -1);
    r.mine.grade.verdict = d.verdict;
    r.mine.grade.verdict_reason = d.reason;
    r.interrupted = true;
    return r;
  }
  // 3. Your run goes on (built, run and graded), its ranges from the reference's figures
  //    when the reference ran to its end: the same GPU, in the same state, minutes apart.
  mine.stop_after_predict = false;
  mine.continue_run_id = r.mine.run_id;
  mine.predict.clear();
  mine.no_predict = true;
  mine.session_reference = session_reference(r.reference);
  r.graded_on_reference = mine.session_reference.has_value();
  r.mine = run_lab(quiet, mine);
  r.rows = compare_rows(r.mine.grade, r.reference.grade);
  r.interrupted = r.mine.grade.verdict == Verdict::interrupted || between.fired() != 0;
  return r;
}

int exit_code_for(const CompareResult& r) {
  return r.interrupted ? static_cast<int>(Exit::interrupted) : exit_code_for(r.mine);
}

}  // namespace workbook
