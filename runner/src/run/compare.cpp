// Your copy against the reference solution (see compare.hpp).
#include "run/compare.hpp"

#include <fmt/format.h>

#include <cmath>

#include "exec/process.hpp"
#include "exec/slurm.hpp"
#include "run/report_print.hpp"
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

namespace {

std::string verdict_line(const RunReport& r) {
  return fmt::format("{} (run #{}{})", to_string(r.grade.verdict), r.run_id,
                     r.grade.verdict_reason.empty() ? "" : ": " + r.grade.verdict_reason);
}

}  // namespace

void print_compare(const CompareResult& r, const Style& s) {
  fmt::print("{} {} your copy against the reference solution, seed {}\n", s.bold(r.mine.lab.id), s.dim("·"), r.mine.seed);
  if (!r.mine.built) print_report(r.mine, s);  // the compiler's errors
  fmt::print("  {:<10} {}\n  {:<10} {}\n", "yours", verdict_line(r.mine), "reference",
             r.reference.run_id ? verdict_line(r.reference) : std::string("not run"));
  if (r.rows.empty()) return;
  fmt::print("\n{}\n", s.bold(fmt::format("  {:<20} {:>14} {:>14} {:>10}", "metric", "yours", "reference", "ratio")));
  for (const auto& row : r.rows) {
    const std::string a = row.mine ? format_figure(*row.mine, row.unit) : "-";
    const std::string b = row.reference ? format_figure(*row.reference, row.unit) : "-";
    const std::string ratio = row.ratio ? fmt::format("{:.3g} x", *row.ratio) : "-";
    fmt::print("  {:<20} {:>14} {:>14} {:>10}\n", row.name, a, b, ratio);
  }
  fmt::print("{}\n", s.dim("  ratio: yours / reference (a time above 1 x is slower, a rate above 1 x is faster)"));
}

nlohmann::json compare_json(const CompareResult& r) {
  nlohmann::json j;
  j["lab"] = r.mine.lab.id;
  j["seed"] = r.mine.seed;
  j["yours"] = report_json(r.mine);
  j["reference"] = r.reference.run_id ? report_json(r.reference) : nlohmann::json();
  j["rows"] = nlohmann::json::array();
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  for (const auto& row : r.rows) {
    j["rows"].push_back({{"name", row.name}, {"unit", row.unit}, {"yours", opt(row.mine)},
                         {"reference", opt(row.reference)}, {"ratio", opt(row.ratio)}});
  }
  j["verdict"] = to_string(r.mine.grade.verdict);
  make_valid_utf8(j);
  return j;
}

int exit_code_for(const CompareResult& r) {
  return r.interrupted ? static_cast<int>(Exit::interrupted) : exit_code_for(r.mine);
}

}  // namespace workbook
