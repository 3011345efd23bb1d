// after_run: the explanation and the review nudge, once for every front end.
#include "watch/after_run.hpp"

#include <fmt/format.h>

#include "exec/process.hpp"
#include "learn/clock.hpp"
#include "present/run_report.hpp"
#include "progress/missed_predictions.hpp"
#include "run/explained.hpp"
#include "ui/prompt.hpp"
#include "ui/wrap.hpp"

namespace workbook {

AfterRun lab_after_run(const RunReport* report, std::optional<std::string> explain, bool ask) {
  AfterRun a;
  if (report && report->run_id) a.run = explainable(*report);
  a.explain = std::move(explain);
  a.ask = ask;
  return a;
}

std::string record_given_explanation(Journal& journal, const AfterRun& a) {
  if (!a.run || !a.run->run_id || !a.explain || a.explain->empty()) return "";
  return a.run->record(journal, *a.explain);
}

namespace {

void ask_explanation(Journal& journal, const Explainable& run, const Style& s) {
  fmt::print("\n{}\n", s.bold(wrap_text(run.prompt, text_width())));
  auto line = ask_line("> ");
  if (line && !line->empty()) {
    const std::string feedback = run.record(journal, *line);
    fmt::print("{}\n", s.dim("Kept with " + run.kept_with + "."));
    fmt::print("{}", render_feedback(feedback, s));
  }
}

}  // namespace

void after_run(Journal& journal, const Catalog& catalog, const AfterRun& a, const Output& out) {
  // An interrupted run has nothing to explain, and the line typed next is not an answer.
  const bool ask = a.run && a.run->worth_asking && a.ask && !out.json && !a.explain;
  if (ask && termination_signal() == 0) ask_explanation(journal, *a.run, out.style);
  for (const auto& m : progress::nudge_missed_predictions(journal, catalog, learn::now_unix())) {
    print_notice(out, [&](const Style& s) {
      const std::string reviews = m.cards_moved == 0 ? "."
                                  : fmt::format(": {} review item(s) of module {:02d} come due sooner (workbook review).",
                                                m.cards_moved, m.module);
      fmt::print("{}\n", s.dim(wrap_text(fmt::format("Your first prediction {} of {} was off by {:.1f}x{}", m.prediction,
                                                     m.lab, m.factor, reviews),
                                         text_width())));
    });
  }
}

}  // namespace workbook
