// `workbook next`: the one next thing to do, with the exact command to type.
//
// The module to work on: the first open module (calendar order) of the assignment due
// next (today or later); once no assignment is due any more, while the project report or
// presentation is ahead, the first project topic not yet measured (its lab); then the
// first open module of the earliest assignment behind; without a calendar (or with every
// assignment done) the first module neither complete nor handed in. In that module the
// workbook's order applies: follow the worked example, answer the exercises, run the lab;
// but when the assignment is behind or due within a week, its labs come first. With
// nothing open there: the reviews due, then the drills due. Assignments behind are listed
// in `also` (kind "handin") with the command that marks them handed in.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "progress/progress_report.hpp"

namespace workbook::progress {

inline constexpr long long kLabsFirstDays = 7;

struct NextStep {
  std::string kind;     // "follow", "exercises", "run", "review", "drill", "handin", "done"
  std::string command;  // what to type, e.g. "workbook run module05/vector_add"
  std::string what;     // one line: what it is
  std::string why;      // one line: why this one now
  int module = 0;
  std::string lab;
};

struct NextPlan {
  NextStep next;
  std::vector<NextStep> also;  // reviews and drills due, when `next` is something else; assignments behind
};

NextPlan next_steps(const ProgressReport& report);

// The lab `next` sends the learner to: its step's lab when that is a run, else the first
// open lab of the module the step names, else of the first module with a lab open; "" when
// every lab has passed. (`workbook watch` starts there, and moves on there after a pass.)
std::string next_lab(const ProgressReport& report);

nlohmann::json to_json(const NextPlan& plan);

}  // namespace workbook::progress
