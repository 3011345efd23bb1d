// Your copy against the reference solution (see compare.hpp).
#include "run/compare.hpp"

#include <fmt/format.h>

#include <cmath>

#include "exec/process.hpp"
#include "exec/slurm.hpp"
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

CompareResult run_compare(const RunContext& ctx, const RunRequest& base) {
  CompareResult r;
  // A Ctrl-C, SIGTERM or SIGHUP while a lab or a build runs is forwarded to it and ends
  // that run as interrupted (exec/process.hpp); one that comes between the two runs is
  // caught here, so the reference is then not started.
  InterruptWatch between;
  PromptOnlyObserver observer(ctx.style, base.interactive);
  const RunContext quiet{ctx.catalog, ctx.workspace, ctx.journal, ctx.style, &observer};
  RunRequest mine = base;
  mine.variant = LabVariant::starter;
  mine.seed = base.seed ? *base.seed : new_seed();
  mine.verbose = false;
  r.mine = run_lab(quiet, mine);
  RunRequest reference = mine;
  reference.variant = LabVariant::solution;
  reference.predict.clear();
  reference.no_predict = true;
  if (r.mine.grade.verdict == Verdict::interrupted || between.fired() != 0 || termination_signal() != 0) {
    r.interrupted = true;  // stop here: the reference is not run
    return r;
  }
  r.reference = run_lab(quiet, reference);
  r.rows = compare_rows(r.mine.grade, r.reference.grade);
  r.interrupted = r.reference.grade.verdict == Verdict::interrupted || between.fired() != 0;
  return r;
}

int exit_code_for(const CompareResult& r) {
  return r.interrupted ? static_cast<int>(Exit::interrupted) : exit_code_for(r.mine);
}

}  // namespace workbook
