// `workbook history`: the screen (see progress_text.hpp).
#include "present/progress_text.hpp"

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

std::string format_history(const HistoryReport& h, const Style& s) {
  std::string out = s.bold(fmt::format("Runs of {} (newest first, at most {})", h.lab.empty() ? "every lab" : h.lab,
                                       h.limit)) + "\n";
  if (h.runs.empty()) out += "  No runs yet. `workbook next` says which lab to run.\n";
  for (const auto& r : h.runs) out += run_text(r, h.hints_total(r.lab), s);
  return out + "\n" + calibration_text(h.calibration, s);
}

}  // namespace workbook::progress
