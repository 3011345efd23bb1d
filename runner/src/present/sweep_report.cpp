// A sweep as text and JSON (see sweep_report.hpp).
#include "present/sweep_report.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "present/run_report.hpp"
#include "run/report_json.hpp"
#include "ui/table.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"
#include "util/utf8.hpp"

namespace workbook {

namespace {

// The table's figure columns: the plotted metrics, then the others that change across
// the sweep, at most six in all.
std::vector<std::string> table_columns(const SweepResult& r, std::size_t& left_out) {
  std::vector<std::string> cols = sweep_metrics(r);
  left_out = 0;
  if (r.runs.empty()) return cols;
  for (const auto& m : r.runs.front().grade.metrics) {
    if (std::find(cols.begin(), cols.end(), m.name) != cols.end()) continue;
    const bool varies = std::any_of(r.runs.begin(), r.runs.end(), [&](const RunReport& x) {
      const MetricGrade* other = find_metric(x, m.name);
      return (other ? other->value : std::nullopt) != m.value;
    });
    if (!varies) continue;
    if (cols.size() < 6) cols.push_back(m.name);
    else ++left_out;
  }
  return cols;
}

std::string cell(const RunReport& r, const std::string& name) {
  const MetricGrade* m = find_metric(r, name);
  if (!m || !m->value) return "-";
  const bool outside = m->status == RangeStatus::below || m->status == RangeStatus::above;
  return format_quantity(*m->value, m->unit) + (outside ? " !" : "");
}

}  // namespace

void print_sweep(const SweepResult& r, const Style& s) {
  fmt::print("{}\n", wrap_text(fmt::format("{} {} sweep of {} over {} values, seed {}", s.bold(r.lab.id), s.dim("·"), r.plan.param,
                                           r.plan.values.size(), r.seed), text_width()));
  for (const auto& run : r.runs) {
    if (!run.built) print_report(run, s);  // the compiler's errors
  }
  std::size_t left_out = 0;
  const std::vector<std::string> cols = table_columns(r, left_out);
  const std::size_t width = text_width();
  Table t{{{r.plan.param, true}, {"verdict"}}, {}, "  ", true};
  for (std::size_t k = 0; k < cols.size(); ++k) t.columns.push_back({cols[k], true, false, k > 0});
  t.columns.push_back({"", false, true});
  bool any_outside = false;
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const RunReport& run = r.runs[i];
    std::vector<std::string> row{sweep_value_text(r.plan.values[i]), to_string(run.grade.verdict)};
    for (const auto& c : cols) {
      row.push_back(cell(run, c));
      any_outside = any_outside || row.back().back() == '!';
    }
    const bool graded = sweep_grading_note(r.plan, r.plan.values[i]).empty();
    row.push_back(s.dim(fmt::format("run #{}{}", run.run_id, graded ? "" : ", figures not graded")));
    t.rows.push_back(row);
  }
  fmt::print("\n{}", render_table(t, width, s));
  if (!r.runs.empty()) {
    const bool has_default = std::find(r.plan.values.begin(), r.plan.values.end(), r.plan.default_value) != r.plan.values.end();
    fmt::print("{}\n", s.dim(wrap_text(fmt::format("{0} against the expected ranges (they are set for {1}={2}); the other values' "
                                                    "figures are shown, not graded, and their checks still count.",
                                                    has_default ? "Only " + r.plan.param + "=" + sweep_value_text(r.plan.default_value) + " is graded"
                                                                : "No value here is graded",
                                                    r.plan.param, sweep_value_text(r.plan.default_value)),
                                        width, "  ", "  ")));
  }
  if (any_outside) fmt::print("{}\n", s.dim(wrap_text("!: the figure is outside its expected range", width, "  ", "  ")));
  if (left_out) fmt::print("{}\n", s.dim(wrap_text(fmt::format("({} more changing figures in --json)", left_out), width, "  ", "  ")));
  if (!r.stopped.empty()) fmt::print("{} {}\n", s.yellow("Sweep"), r.stopped);
  const plot::Chart chart = sweep_chart(r);
  const int chart_cols = width == 0 ? 60 : std::clamp(static_cast<int>(width) - 16, 20, 60);  // room for the y ticks
  if (!chart.series.empty() && r.runs.size() > 1) fmt::print("\n{}", plot::render_text(chart, s, chart_cols));
  if (!r.svg.empty()) fmt::print("\n{} {}\n", s.bold("Plot:"), r.svg.string());
}

nlohmann::json sweep_json(const SweepResult& r) {
  nlohmann::json j;
  j["lab"] = r.lab.id;
  j["param"] = r.plan.param;
  j["unit"] = r.plan.unit;
  j["values"] = r.plan.values;
  j["graded_value"] = r.plan.default_value;  // the value the expected ranges are for
  j["seed"] = r.seed;
  j["plotted"] = sweep_metrics(r);
  j["svg"] = r.svg.empty() ? nlohmann::json() : nlohmann::json(r.svg.string());
  j["stopped"] = r.stopped;
  j["runs"] = nlohmann::json::array();
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    nlohmann::json run = report_json(r.runs[i]);
    run["sweep_value"] = r.plan.values[i];
    const std::string note = sweep_grading_note(r.plan, r.plan.values[i]);
    run["ranges_graded"] = note.empty();
    run["grading_note"] = note;
    j["runs"].push_back(run);
  }
  j["verdict"] = to_string(sweep_verdict(r));
  make_valid_utf8(j);
  return j;
}

}  // namespace workbook
