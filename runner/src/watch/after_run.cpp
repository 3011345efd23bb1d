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

std::string record_given_explanation(Journal& journal, const AfterRun& a) {
  if (!a.run || !a.run->run_id || !a.explain || a.explain->empty()) return "";
  return record_explained(journal, *a.run, *a.explain);
}

namespace {

void ask_explanation(Journal& journal, const RunReport& report, const Style& s) {
  const std::string prompt = report.lab.explain_prompt.empty()
                                 ? "Explain the main figure with a model (roofline, occupancy, Amdahl) in one or two sentences"
                                 : report.lab.explain_prompt;
  fmt::print("\n{}\n", s.bold(wrap_text(prompt, text_width())));
  auto line = ask_line("> ");
  if (line && !line->empty()) {
    const std::string feedback = record_explained(journal, report, *line);
    fmt::print("{}\n", s.dim("Kept with run #" + std::to_string(report.run_id) + "."));
    fmt::print("{}", render_feedback(feedback, s));
  }
}

}  // namespace

void after_run(Journal& journal, const Catalog& catalog, const AfterRun& a, const Output& out) {
  // An interrupted run has nothing to explain, and the line typed next is not an answer.
  const bool interrupted = (a.run && a.run->grade.verdict == Verdict::interrupted) || termination_signal() != 0;
  if (a.run && a.run->ran && a.ask && !out.json && !a.explain && !interrupted) ask_explanation(journal, *a.run, out.style);
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
