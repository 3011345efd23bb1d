// `workbook history`: JSON and the screen (see history.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "progress/history.hpp"
#include "report/machine_line.hpp"
#include "ui/table.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"

#include "util/lines.hpp"
#include "util/utf8.hpp"

namespace workbook::progress {

namespace {

using nlohmann::json;

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

int total_hints(const HistoryReport& h, const std::string& lab) {
  auto it = h.hint_totals.find(lab);
  return it == h.hint_totals.end() ? 0 : it->second;
}

json run_json(const RunDetail& r, int hints_total) {
  json figures = json::array(), predictions = json::array();
  for (const auto& f : r.figures) {
    figures.push_back({{"name", f.name}, {"unit", f.unit}, {"derived", f.derived}, {"value", opt(f.value)},
                       {"min", opt(f.lo)}, {"max", opt(f.hi)}, {"status", f.status}});
  }
  for (const auto& p : r.predictions) {
    predictions.push_back({{"prediction", p.id}, {"answer", p.answer}, {"predicted", opt(p.predicted)},
                           {"measured", opt(p.measured)}, {"factor", opt(p.factor)}, {"band", p.band},
                           {"score", p.score}, {"max_score", p.max_score},
                           {"correct", p.correct ? json(*p.correct) : json(nullptr)}, {"graded", p.graded},
                           {"first", p.first}, {"after_measurement", p.after_measurement},
                           {"recorded_at", p.recorded_at}, {"entered", p.entered}, {"unclear", p.unclear}});
  }
  json params = json::parse(r.params, nullptr, false);
  return {{"id", r.id}, {"lab", r.lab}, {"variant", r.variant}, {"started_at", r.started_at},
          {"verdict", r.verdict}, {"device", r.device}, {"arch", r.arch},
          {"params", params.is_discarded() ? json(r.params) : params}, {"figures", figures},
          {"predictions", predictions}, {"explanation", r.explanation ? json(*r.explanation) : json(nullptr)},
          {"explanation_feedback", split_lines(r.explanation_feedback)},
          {"hints_used", r.hints_used}, {"hints_total", hints_total},
          {"machine", machine_json(r.machine)}};
}

json row_json(const CalibrationRow& r) {
  return {{"scope", r.scope},
          {"n", r.n},
          {"median_factor", r.median_factor},
          {"typical_ratio", r.typical_ratio},
          {"bands", {{"within 1.25x", r.within_1_25}, {"within 2x", r.within_2}, {"within 4x", r.within_4},
                     {"off by more than 4x", r.beyond}}},
          {"over", r.over},
          {"under", r.under}};
}

json rows_json(const std::vector<CalibrationRow>& rows) {
  json out = json::array();
  for (const auto& r : rows) out.push_back(row_json(r));
  return out;
}

std::string verdict_text(const std::string& v, const Style& s) {
  if (v == "pass") return s.green(v);
  if (v == "out_of_range") return s.yellow(v);
  return s.red(v);
}

// A sentence of a run's block, wrapped under the run's indent.
std::string run_line(const std::string& text, std::size_t width) { return wrap_text(text, width, "      ", "        ") + "\n"; }

std::string prediction_text(const PredictionRow& p) {
  if (!p.unclear.empty()) return fmt::format("predicted {}: {} ({})", p.id, p.answer, p.unclear);
  if (p.factor) {
    return fmt::format("predicted {}: {} -> {} ({:.2f}x, {})", p.id, p.answer,
                       p.measured ? format_figure(*p.measured, "") : "-", *p.factor, p.band);
  }
  if (p.correct) return fmt::format("predicted {}: {} ({})", p.id, p.answer, *p.correct ? "right" : "wrong");
  // not graded with this run (it did not run, or a later answer)
  return fmt::format("predicted {}: {} ({}{})", p.id, p.answer, p.first ? "made " : "a later answer, made ",
                     p.recorded_at.substr(0, 10) + (p.after_measurement ? ", after a measurement" : ""));
}

std::string run_text(const RunDetail& r, int hints_total, const Style& s) {
  const std::size_t width = text_width();
  std::string out = fmt::format("#{:<4} {} {}  {}  {}  {}\n", r.id, r.started_at.substr(0, 10),
                                r.started_at.size() >= 16 ? r.started_at.substr(11, 5) : "", s.bold(r.lab),
                                r.variant, verdict_text(r.verdict, s));
  if (!r.device.empty()) {
    out += s.dim(run_line(fmt::format("on {}{}", r.device, r.arch.empty() ? "" : " (" + r.arch + ")"), width));
    out += s.dim(run_line("machine: " + machine_text(r.machine), width));
  }
  Table figures{{{"figure"}, {"value", true}, {"status"}, {"range", false, true}}, {}, "      ", false};
  for (const auto& f : r.figures) {
    figures.rows.push_back({f.name, f.value ? format_figure(*f.value, f.unit) : "-", f.status,
                            s.dim(format_range(f.lo, f.hi, f.unit))});
  }
  out += render_table(figures, width, s);
  for (const auto& p : r.predictions) out += run_line(prediction_text(p), width);
  if (hints_total > 0 || r.hints_used > 0) {
    out += s.dim(fmt::format("      hints used: {} of {}", r.hints_used, std::max(hints_total, r.hints_used))) + "\n";
  }
  if (r.explanation) {
    const auto lines = split_lines(printable_text(*r.explanation));  // typed or imported: shown, never obeyed
    out += run_line(fmt::format("explained: {}{}", lines.empty() ? "" : lines.front(), lines.size() > 1 ? " ..." : ""), width);
    for (const auto& line : split_lines(r.explanation_feedback))
      out += wrap_text(line, width, "        ", "          ") + "\n";  // to the terminal
  }
  return out;
}

std::vector<std::string> row_cells(const CalibrationRow& r) {
  return {r.scope, std::to_string(r.n), fmt::format("{:.2f}x", r.median_factor), std::to_string(r.within_1_25),
          std::to_string(r.within_2), std::to_string(r.within_4), std::to_string(r.beyond),
          fmt::format("{}/{}", r.over, r.under), fmt::format("{:.2f}", r.typical_ratio)};
}

std::string calibration_text(const Calibration& c, const Style& s) {
  std::string out =
      s.bold(wrap_text("Prediction calibration (numeric predictions against their measurements)", text_width())) + "\n";
  if (c.overall.n == 0) return out + "  No numeric prediction has been graded yet.\n";
  const std::size_t width = text_width();
  Table t{{{"", false, true}, {"n", true}, {"median", true}, {"<1.25x", true}, {"<2x", true}, {"<4x", true},
           {">4x", true}, {"over/und", true}, {"p/m", true}}, {}, "  ", true};
  for (const auto& r : c.modules) t.rows.push_back(row_cells(r));
  t.rows.push_back(row_cells(c.overall));
  for (const auto& r : c.halves) t.rows.push_back(row_cells(r));
  out += render_table(t, width, s);
  // The abbreviated columns explained.
  out += s.dim(wrap_text("median: the typical factor max(p/m, m/p); <1.25x to >4x: how many per factor; over/und: how "
                         "many predicted above / below the measurement; p/m: the typical predicted / measured (above 1: "
                         "your predictions run high)", width == 0 ? 80 : width, "  ", "  ")) + "\n";
  if (!c.trend.empty()) {
    out += wrap_text(fmt::format("Trend: {} (median factor {:.2f}x, then {:.2f}x)", c.trend, c.halves[0].median_factor,
                                 c.halves[1].median_factor), width, "  ", "    ") + "\n";
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const HistoryReport& h) {
  json runs = json::array();
  for (const auto& r : h.runs) runs.push_back(run_json(r, total_hints(h, r.lab)));
  const Calibration& c = h.calibration;
  return {{"lab", h.lab.empty() ? json(nullptr) : json(h.lab)},
          {"limit", h.limit},
          {"runs", runs},
          {"calibration",
           {{"overall", row_json(c.overall)}, {"modules", rows_json(c.modules)}, {"halves", rows_json(c.halves)},
            {"weeks", rows_json(c.weeks)}, {"trend", c.trend.empty() ? json(nullptr) : json(c.trend)}}}};
}

std::string format_history(const HistoryReport& h, const Style& s) {
  std::string out = s.bold(fmt::format("Runs of {} (newest first, at most {})", h.lab.empty() ? "every lab" : h.lab,
                                       h.limit)) + "\n";
  if (h.runs.empty()) out += "  No runs yet. `workbook next` says which lab to run.\n";
  for (const auto& r : h.runs) out += run_text(r, total_hints(h, r.lab), s);
  return out + "\n" + calibration_text(h.calibration, s);
}

}  // namespace workbook::progress
