// `workbook history`: JSON and the screen (see history.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "progress/history.hpp"
#include "report/machine_line.hpp"
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

std::string run_text(const RunDetail& r, int hints_total, const Style& s) {
  std::string out = fmt::format("#{:<4} {} {}  {}  {}  {}\n", r.id, r.started_at.substr(0, 10),
                                r.started_at.size() >= 16 ? r.started_at.substr(11, 5) : "", s.bold(r.lab),
                                r.variant, verdict_text(r.verdict, s));
  if (!r.device.empty()) {
    out += s.dim(fmt::format("      on {}{}", r.device, r.arch.empty() ? "" : " (" + r.arch + ")")) + "\n";
    out += s.dim("      machine: " + machine_text(r.machine)) + "\n";
  }
  for (const auto& f : r.figures) {
    const std::string range = format_range(f.lo, f.hi, f.unit);
    out += fmt::format("      {:<22} {:>14}  {:<12} {}\n", f.name, f.value ? format_figure(*f.value, f.unit) : "-",
                       f.status, s.dim(range));
  }
  for (const auto& p : r.predictions) {
    if (!p.unclear.empty()) {
      out += wrap_text(fmt::format("predicted {}: {} ({})", p.id, p.answer, p.unclear), text_width(), "      ",
                       "        ") + "\n";
    } else if (p.factor) {
      out += fmt::format("      predicted {}: {} -> {} ({:.2f}x, {})\n", p.id, p.answer,
                         p.measured ? format_figure(*p.measured, "") : "-", *p.factor, p.band);
    } else if (p.correct) {
      out += fmt::format("      predicted {}: {} ({})\n", p.id, p.answer, *p.correct ? "right" : "wrong");
    } else {  // not graded with this run (it did not run, or a later answer)
      out += fmt::format("      predicted {}: {} ({}{})\n", p.id, p.answer, p.first ? "made " : "a later answer, made ",
                         p.recorded_at.substr(0, 10) + (p.after_measurement ? ", after a measurement" : ""));
    }
  }
  if (hints_total > 0 || r.hints_used > 0) {
    out += s.dim(fmt::format("      hints used: {} of {}", r.hints_used, std::max(hints_total, r.hints_used))) + "\n";
  }
  if (r.explanation) {
    const auto lines = split_lines(printable_text(*r.explanation));  // typed or imported: shown, never obeyed
    out += fmt::format("      explained: {}{}\n", lines.empty() ? "" : lines.front(), lines.size() > 1 ? " ..." : "");
    for (const auto& line : split_lines(r.explanation_feedback))
      out += wrap_text(line, text_width(), "        ", "          ") + "\n";  // to the terminal
  }
  return out;
}

std::string row_text(const CalibrationRow& r) {
  return fmt::format("  {:<20} {:>4} {:>7.2f}x {:>6} {:>5} {:>5} {:>5} {:>4}/{:<4} {:>6.2f}\n", r.scope, r.n,
                     r.median_factor, r.within_1_25, r.within_2, r.within_4, r.beyond, r.over, r.under,
                     r.typical_ratio);
}

std::string calibration_text(const Calibration& c, const Style& s) {
  std::string out = s.bold("Prediction calibration") + s.dim(" (numeric predictions against their measurements)") + "\n";
  if (c.overall.n == 0) return out + "  No numeric prediction has been graded yet.\n";
  out += s.dim(fmt::format("  {:<20} {:>4} {:>8} {:>6} {:>5} {:>5} {:>5} {:>9} {:>6}", "", "n", "median", "<1.25x",
                           "<2x", "<4x", ">4x", "over/und", "p/m")) + "\n";
  for (const auto& r : c.modules) out += row_text(r);
  out += row_text(c.overall);
  for (const auto& r : c.halves) out += row_text(r);
  // The abbreviated columns explained, each line within 80 columns.
  out += s.dim("  median: the typical factor max(p/m, m/p); <1.25x to >4x: how many per factor\n"
               "  over/und: how many predicted above / below the measurement; p/m: the typical\n"
               "  predicted / measured (above 1: your predictions run high)") + "\n";
  if (!c.trend.empty()) {
    out += fmt::format("  Trend: {} (median factor {:.2f}x, then {:.2f}x)\n", c.trend, c.halves[0].median_factor,
                       c.halves[1].median_factor);
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
