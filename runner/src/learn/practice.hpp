// The learning commands' logic (the cmd/ files only declare options):
//   workbook exercises <module>   a module's new and due items, in order, self-graded and scheduled
//   workbook review               what is due across all modules, then new items: the modules
//                                 of the assignment due next first, then the others in order
// Both ask an item again in the same session while it is on a (re)learning step (Again,
// and a new item's first grades: learn/fsrs.hpp, learn/session_queue.hpp).
//   workbook follow <module>      a worked example, step by step (progress kept)
//   workbook drill <11|24>        oral drills against the clock; --status for readiness
// Each returns the exit code: 0 (also at the end of input), 130 after Ctrl-C (everything
// answered before it is kept). Errors are thrown (UsageError: exit 2). None chooses its
// printer: the caller hands one in (LearnContext::printer; the cmd/ files take the
// presenter's, present/practice_print.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "content/catalog.hpp"
#include "content/course.hpp"
#include "journal/journal.hpp"
#include "ui/output.hpp"

namespace workbook::learn {

inline constexpr int kInterruptedExit = 130;

class PracticePrinter;  // learn/practice_print.hpp

struct LearnContext {
  const Catalog& catalog;
  Journal& journal;
  Output out;  // the style of the session's own prompts and answers (quiet: printer.quiet())
  PracticePrinter& printer;  // the header and the summary: text, or one JSON object at the end
};

struct ExercisesRequest {
  std::string module;
  bool variant = false;    // only items with a variant, with fresh numbers
  bool pass_fail = false;
  std::optional<std::uint64_t> seed;
  std::optional<std::string> item;  // just this item (asked whether due or not)
  bool all = false;                 // every item, due or not (else only new and due ones)
};
int run_exercises(LearnContext& ctx, const ExercisesRequest& req);

struct ReviewRequest {
  int limit = 50;      // at most this many items in the session
  int new_limit = 10;  // new items a day
  bool pass_fail = false;
  std::optional<Course> course;  // the calendar: new items of the assignment due next come first
};
int run_review(LearnContext& ctx, const ReviewRequest& req);

struct FollowRequest {
  std::string module;
  std::optional<std::string> example;
  bool restart = false;
};
int run_follow(LearnContext& ctx, const FollowRequest& req);

struct DrillRequest {
  std::string module;
  bool status = false;
  bool all = false;                  // every drill, due or not
  std::optional<std::string> drill;  // just this drill
};
int run_drill(LearnContext& ctx, const DrillRequest& req);

}  // namespace workbook::learn
