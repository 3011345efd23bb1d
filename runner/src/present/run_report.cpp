// A run report as text (see run_report.hpp).
#include "present/run_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "present/profile_view.hpp"
#include "run/report_json.hpp"
#include "ui/table.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"
#include "util/lines.hpp"
#include "util/utf8.hpp"

namespace workbook {

namespace {

using Out = std::back_insert_iterator<std::string>;

std::string range_text(const MetricGrade& m) { return format_range(m.lo, m.hi, m.unit); }

std::string status_text(const MetricGrade& m, const Style& s) {
  switch (m.status) {
    case RangeStatus::in_range: return s.green("in range");
    case RangeStatus::below: return s.yellow("below");
    case RangeStatus::above: return s.yellow("above");
    case RangeStatus::missing: return s.red("missing");
    case RangeStatus::unknown: return s.dim("range unknown");
    case RangeStatus::no_range: return "";
    case RangeStatus::not_graded: return s.dim("not graded");
    case RangeStatus::below_warning: return s.yellow("below (warning)");
    case RangeStatus::above_warning: return s.yellow("above (warning)");
  }
  return "";
}

void print_checks(Out out, const RunReport& r, const Style& s) {
  if (r.grade.checks.empty()) return;
  fmt::format_to(out, "\n{}\n", s.bold("Checks"));
  Table t{{{""}, {"check"}, {"detail", false, true}}, {}, "  ", false};
  for (const auto& c : r.grade.checks) {
    std::string mark = c.skipped ? s.yellow("SKIP") : c.pass ? s.green("PASS") : s.red("FAIL");
    t.rows.push_back({mark, c.name, s.dim(c.reported ? c.detail : "never reported by the lab")});
  }
  fmt::format_to(out, "{}", render_table(t, text_width(), s));
}

// The figures as a table (figure, measured, its samples, the range here, the verdict on
// it, the workbook's figure), each figure's notes wrapped under its row.
void print_metrics(Out out, const RunReport& r, const Style& s) {
  if (r.grade.metrics.empty()) return;
  const std::size_t width = text_width();
  fmt::format_to(out, "\n{}\n", s.bold("Figures"));
  // Too wide for the terminal: the samples column moves under its row first, then the
  // workbook's figure (ui/table).
  Table t{{{"figure"}, {"measured", true}, {"expected here", false, true}, {""}, {"workbook", false, true, true},
           {"samples", false, false, true}}, {}, "  ", true};
  std::string notes;
  bool any_samples = false;
  for (const auto& m : r.grade.metrics) {
    std::string samples = m.stats && m.stats->samples ? fmt::format("n={}", *m.stats->samples) : "";
    if (!samples.empty() && m.stats->spread) samples += fmt::format(", ±{:.1f}%", *m.stats->spread * 100);
    t.rows.push_back({m.name, m.value ? format_figure(*m.value, m.unit) : "-", range_text(m), status_text(m, s),
                      s.dim(m.reference), s.dim(samples)});
    any_samples = any_samples || !samples.empty();
    if (!m.note.empty() && m.status != RangeStatus::in_range) notes += wrap_text(m.name + ": " + m.note, width, "  ", "    ") + "\n";
    if (m.basis != RangeBasis::model && m.status != RangeStatus::no_range)
      notes += wrap_text(m.name + " range: " + m.basis_note, width, "  ", "    ") + "\n";
  }
  fmt::format_to(out, "{}", render_table(t, width, s));
  if (any_samples) {
    const std::string legend = "samples: how many timings were taken, and ±: their spread (max - min over the median)";
    notes = wrap_text(legend, width, "  ", "    ") + "\n" + notes;
  }
  if (!notes.empty()) fmt::format_to(out, "{}", s.dim(notes));
}

void print_predictions(Out out, const RunReport& r, const Style& s) {
  if (r.grade.predictions.empty()) return;
  fmt::format_to(out, "\n{}\n", s.bold("Your predictions"));
  for (const auto& p : r.grade.predictions) {
    if (p.answer.empty()) {
      fmt::format_to(out, "  {:<16} {}\n", p.id, s.dim("(none made)"));
      continue;
    }
    if (p.kind == PredictionKind::number) {
      if (p.factor) {
        fmt::format_to(out, "  {:<16} predicted {}, measured {}: {} ({} of {} points)\n", p.id, p.answer, format_figure(*p.measured, ""),
                   p.score >= 2 ? s.green(p.band) : s.yellow(p.band), p.score, p.max_score);
      } else {
        fmt::format_to(out, "  {:<16} predicted {}: {}\n", p.id, p.answer, s.dim(p.note));
      }
    } else if (p.correct) {
      fmt::format_to(out, "  {:<16} {}: {}{}\n", p.id, p.answer, *p.correct ? s.green("right") : s.red("wrong"),
                 *p.correct ? "" : " (it was: " + p.right_answer + ")");
    } else {
      fmt::format_to(out, "  {:<16} {}: {}\n", p.id, p.answer, s.dim(p.note));
    }
    if (!p.why.empty() && p.correct && !*p.correct) fmt::format_to(out, "{}\n", s.dim(wrap_text(p.why, text_width(), "      ", "      ")));
  }
}

}  // namespace

std::string render_report(const RunReport& r, const Style& s) {
  std::string text;
  Out out(text);
  if (!r.build_diagnostics.empty()) {
    fmt::format_to(out, "\n{}\n{}\n", s.bold(r.built ? "Compiler warnings" : "Compiler errors"), r.build_diagnostics);
  }
  if (r.ran && r.grade.verdict != Verdict::not_run) {  // not_run: it stopped before any check
    print_checks(out, r, s);
    print_metrics(out, r, s);
    print_predictions(out, r, s);
    for (const auto& e : r.errors) fmt::format_to(out, "{} {}\n", s.red("error:"), e);
    for (const auto& p : r.protocol_problems) fmt::format_to(out, "{} results file {}\n", s.yellow("warning:"), p);
  }
  std::string verdict = to_string(r.grade.verdict);
  for (auto& c : verdict) c = c == '_' ? ' ' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string colored = r.grade.verdict == Verdict::pass           ? s.green(verdict)
                        : r.grade.verdict == Verdict::out_of_range ? s.yellow(verdict)
                                                                   : s.red(verdict);
  const std::string& why = r.grade.verdict_reason;
  fmt::format_to(out, "\n{}\n", wrap_text(s.bold("Verdict:") + " " + colored + (why.empty() ? "" : " · " + why), text_width(), "", "  "));
  if (r.ran) {
    fmt::format_to(out, "{}\n", s.dim(wrap_text(fmt::format("{}, {:.2f} s, run #{} in the journal", r.process_summary, r.wall_s, r.run_id),
                                       text_width(), "", "  ")));
  }
  if (!r.next_step.empty()) fmt::format_to(out, "{}\n", wrap_text(s.bold("Next:") + " " + r.next_step, text_width(), "", "  "));
  for (const auto& line : profile_lines(r.profile, s))  // the GPU's clocks (108 columns on an H100), throttling
    fmt::format_to(out, "{}\n", wrap_text(line, text_width(), "", "    "));
  return text;
}

void print_report(const RunReport& r, const Style& s) { fmt::print("{}", render_report(r, s)); }

std::string render_slurm_end(const SlurmRunEnd& o, const Style& s) {
  std::string text;
  Out out(text);
  // The node printed its report into the job's output, shown above; one here when it
  // could not, or when Slurm's state overrides what it recorded.
  if (o.from_slurm && o.node_report) {
    fmt::format_to(out, "\n{}\n", s.bold(fmt::format("Slurm ended job {} ({}); the run's verdict is Slurm's:", o.job.job_id,
                                                     o.status.state.empty() ? "state unknown" : o.status.state)));
  }
  if (o.from_slurm || !o.node_report) text += render_report(o.report, s);
  fmt::format_to(out, "{}\n", s.dim(fmt::format("Slurm job {} {}{}{} · run #{} · script and output in {}", o.job.job_id,
                                               o.status.state.empty() ? "ended" : o.status.state,
                                               o.job.node.empty() ? "" : " on " + o.job.node,
                                               o.job.gpu.empty() ? "" : " (" + o.job.gpu + ")", o.report.run_id,
                                               o.dir.string())));
  return text;
}

std::string render_feedback(const std::string& feedback, const Style& s) {
  if (feedback.empty()) return "";
  std::string text = s.bold("What an examiner would say") + "\n";
  for (const auto& point : split_lines(feedback)) {
    const std::string folded = wrap_text(point, text_width(), "  ", "    ");  // continuations under its text
    text += (point.rfind("✓", 0) == 0 ? s.green(folded) : s.yellow(folded)) + "\n";
  }
  return text;
}

void print_explained_run(const ExplainedRun& run, const Style& s) {
  print_report(run.report, s);
  fmt::print("{}", render_feedback(run.feedback, s));
}

nlohmann::json explained_run_json(const ExplainedRun& run) {
  nlohmann::json j = run_report_json(run.report);
  if (run.explanation) {
    j["explanation"] = valid_utf8(*run.explanation);
    j["explanation_feedback"] = split_lines(run.feedback);
  }
  j["later_predictions"] = nlohmann::json::array();  // kept, not scored (run/lab_run.hpp)
  for (const auto& p : run.report.later_predictions) {
    j["later_predictions"].push_back({{"id", p.id}, {"answer", valid_utf8(p.text)}});
  }
  return j;
}

}  // namespace workbook
