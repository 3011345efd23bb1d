// `workbook next`: the one next thing to do, with the exact command to type.
//
// The module to work on is the first open module of the assignment in focus (the earliest
// one behind, else the next one due; see calendar.hpp), or without a calendar (or with
// every assignment done) the first module not complete. In that module the workbook's
// order applies: follow the worked example, answer the exercises, run the lab; but when
// the assignment is behind or due within a week, its labs come first. With nothing open
// there: the reviews due, then the drills due.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "progress/progress_report.hpp"

namespace workbook::progress {

inline constexpr long long kLabsFirstDays = 7;

struct NextStep {
  std::string kind;     // "follow", "exercises", "run", "review", "drill", "done"
  std::string command;  // what to type, e.g. "workbook run module05/vector_add"
  std::string what;     // one line: what it is
  std::string why;      // one line: why this one now
  int module = 0;
  std::string lab;
};

struct NextPlan {
  NextStep next;
  std::vector<NextStep> also;  // reviews and drills due, when `next` is something else
};

NextPlan next_steps(const ProgressReport& report);

// The lab `next` sends the learner to: its step's lab when that is a run, else the first
// open lab of the module the step names, else of the first module with a lab open; "" when
// every lab has passed. (`workbook watch` starts there, and moves on there after a pass.)
std::string next_lab(const ProgressReport& report);

nlohmann::json to_json(const NextPlan& plan);
std::string format_next(const NextPlan& plan, const Style& style);

}  // namespace workbook::progress
