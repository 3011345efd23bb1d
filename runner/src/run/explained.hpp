// The learner's explanation of a run, recorded with what the examiner says of it
// (explain/feedback.hpp, from the lab's `examiner:` block and the run's own figures).
#pragma once

#include <functional>
#include <string>

#include "journal/journal.hpp"
#include "run/lab_run.hpp"

namespace workbook {

// The examiner's points on `text` for `report`'s run, one a line ("" when the lab has no
// `examiner:` block, or the run measured nothing).
std::string explanation_feedback_for(const RunReport& report, const std::string& text);

// Records `text` with its feedback for report.run_id; returns the feedback.
std::string record_explained(Journal& journal, const RunReport& report, const std::string& text);

// A finished run as the after-run (watch/after_run.hpp) sees it, a lab's or an
// experiment's: where an explanation is kept and what is asked for it.
struct Explainable {
  long long run_id = 0;
  std::string kept_with;      // "run #12", "experiment run #3"
  std::string prompt;         // the question a terminal is asked
  bool worth_asking = false;  // it ran to an end that is not an interruption
  // Records the text with the run; returns the examiner's points on it ("" when none).
  std::function<std::string(Journal&, const std::string&)> record;
};

// A lab's run (`report` must outlive the result: record_explained reads it).
Explainable explainable(const RunReport& report);

}  // namespace workbook
