// The progress commands (see commands.hpp).
#include "progress/commands.hpp"

#include <fmt/format.h>

#include "content/course.hpp"
#include "content/lab_id.hpp"
#include "grade/grade.hpp"
#include "experiment/experiment_topics.hpp"
#include "learn/clock.hpp"
#include "progress/history.hpp"
#include "progress/next_step.hpp"
#include "progress/progress_report.hpp"
#include "report/ledger.hpp"
#include "ui/output.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"

namespace workbook::progress {

namespace {

ProgressReport report_of(const CommandInputs& in) {
  const long long today = learn::day_of(learn::now_unix());
  return gather_progress(in.catalog, in.journal, load_course(in.catalog.root(), in.workspace.root()), today);
}

}  // namespace

int show_progress(const CommandInputs& in, bool modules) {
  const ProgressReport report = report_of(in);
  print_result(in.out, report, [](const ProgressReport& r) { return to_json(r); },
               [modules](const ProgressReport& r, const Style& s) { fmt::print("{}", format_progress(r, s, screen_width(), modules)); });
  return 0;
}

int show_next(const CommandInputs& in) {
  const NextPlan plan = next_steps(report_of(in));
  print_result(in.out, plan, [](const NextPlan& p) { return to_json(p); },
               [](const NextPlan& p, const Style& s) { fmt::print("{}", format_next(p, s, screen_width())); });
  return 0;
}

std::string next_open_lab(const CommandInputs& in) { return next_lab(report_of(in)); }

int show_history(const CommandInputs& in, const std::string& lab, int limit, bool ledger) {
  if (limit < 1) throw UsageError("--limit must be at least 1");
  std::string id;
  if (!lab.empty()) id = in.catalog.find_lab(parse_lab_ref_or_throw(lab)).id;
  if (ledger) {
    const Ledger l = lab.empty() ? gather_ledger(in.journal, in.catalog, 0, experiment_ledger_entries(in.journal))
                                 : gather_ledger(in.journal, in.catalog, parse_lab_ref_or_throw(lab).module);
    print_result(in.out, l, ledger_json, [](const Ledger& x, const Style&) {
      const std::size_t width = text_width();
      fmt::print("{}", ledger_text(x, width));
      if (!ledger_summary(x).empty()) fmt::print("{}\n", wrap_text("In short: " + ledger_summary(x) + ".", width, "  ", "    "));
    });
    return 0;
  }
  HistoryReport report = gather_history(in.journal, id, limit);
  for (auto& r : report.runs) {
    const LabSpec* spec = in.catalog.lab_or_null(r.lab);  // nullptr: gone from the content, its runs stay in the record
    report.hint_totals[r.lab] = spec ? static_cast<int>(spec->hints.size()) : 0;
    if (!spec) continue;
    for (auto& p : r.predictions)
      for (const auto& s : spec->predictions)
        if (s.id == p.id && s.kind == PredictionKind::choice) p.unclear = unclear_choice_note(s.choices, p.answer, p.entered);
  }
  print_result(in.out, report, [](const HistoryReport& r) { return to_json(r); },
               [](const HistoryReport& r, const Style& s) { fmt::print("{}", format_history(r, s)); });
  return 0;
}

}  // namespace workbook::progress
