// How the learning commands present what they found and did (issue 28, as nvbench's
// printers do): the session logic (learn/practice.cpp) calls *_start with the plan before
// the first question and *_end with the outcome (learn/practice_outcome.hpp); it never
// asks whether the output is JSON. This is the interface alone: the session is handed its
// printer by its caller (LearnContext::printer, learn/practice.hpp). The two printers, and
// the factory that picks one for an Output, live in the presenter (present/practice_print.hpp):
//   text  the header lines at the start, the summary at the end, in the Output's style
//   JSON  nothing until the end, then one JSON object (and the session itself is quiet)
#pragma once

#include <string>
#include <vector>

#include "content/lab_id.hpp"
#include "learn/practice_outcome.hpp"

namespace workbook::learn {

class PracticePrinter {
 public:
  virtual ~PracticePrinter() = default;

  // True when nothing but the final result may reach stdout: the session's prompts,
  // questions and model answers are not printed (LearnerInput's `quiet`).
  virtual bool quiet() const = 0;

  virtual void exercises_start(const ExercisesPlan& plan) = 0;
  virtual void exercises_end(const ExercisesOutcome& outcome) = 0;
  virtual void review_start(const ReviewPlan& plan) = 0;
  virtual void review_end(const ReviewOutcome& outcome) = 0;
  // A worked example prints its own steps: only the end is the printer's.
  virtual void follow_end(const FollowOutcome& outcome) = 0;
  virtual void drill_start(const DrillPlan& plan) = 0;
  virtual void drill_end(const DrillOutcome& outcome) = 0;
  // `drill --status`: asks nothing, so all of it at once.
  virtual void drill_status_report(const DrillStatusReport& report) = 0;
};

// "module11 and module24" (the session's errors and the printers both name modules so).
inline std::string modules_text(const std::vector<int>& modules) {
  std::string text;
  for (int m : modules) text += (text.empty() ? "" : " and ") + module_id(m);
  return text;
}

}  // namespace workbook::learn
