// How the learning commands present what they found and did (issue 28, as nvbench's
// printers do): the session logic (learn/practice.cpp) calls *_start with the plan before
// the first question and *_end with the outcome (learn/practice_outcome.hpp); it never
// asks whether the output is JSON. Two printers, chosen once by practice_printer:
//   text  the header lines at the start, the summary at the end, in the Output's style
//   JSON  nothing until the end, then one JSON object (and the session itself is quiet)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "learn/practice_outcome.hpp"
#include "ui/output.hpp"

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

// The JSON printer for out.json, else the text printer in out.style.
std::unique_ptr<PracticePrinter> practice_printer(const Output& out);

// "module07"; "module11 and module24".
std::string module_name(int module);
std::string modules_text(const std::vector<int>& modules);

}  // namespace workbook::learn
