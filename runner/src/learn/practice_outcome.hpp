// What the learning commands found and did, as data (issue 28): learn/practice.cpp fills
// these and hands them to a printer (the interface learn/practice_print.hpp; the text and
// JSON printers are the presenter's, present/practice_print.hpp), which alone decides how
// they read: text or one JSON object. A *Plan is known before the first question (the
// header), an *Outcome at the end (the summary).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "learn/practice_session.hpp"

namespace workbook::learn {

// An item `exercises` leaves out: graded before and not due until `due_day`.
struct SkippedCard {
  std::string item;
  long long due_day = 0;
};

// `workbook exercises <module>`: the items it asks and those it skips.
struct ExercisesPlan {
  int module = 0;
  std::size_t asked = 0;  // items in the session (an item on a learning step comes again)
  bool pass_fail = false;
  std::optional<std::uint64_t> seed;  // with --variant: the seed of the fresh numbers
  std::vector<SkippedCard> skipped;   // not due yet (without --all or --item)
};
struct ExercisesOutcome {
  ExercisesPlan plan;
  std::vector<ItemResult> results;  // every answer, in the order given
  Stop stop = Stop::done;
};

// `workbook review`: what is due across the modules, and the new items let in today.
struct ReviewPlan {
  long long today = 0;    // day number (learn/clock.hpp)
  int due = 0;            // cards due (all of them, also those past --limit)
  int fresh = 0;          // new items in the session
  int fresh_available = 0;  // new items not yet seen, in all
  std::size_t queued = 0;   // items in the session: 0 is "nothing to review"
};
struct ReviewOutcome {
  ReviewPlan plan;
  std::vector<ItemResult> results;
  Stop stop = Stop::done;
  std::optional<long long> next_due_day;  // the next card due after the session (none: no card yet)
};

// `workbook follow <module>`: the worked example walked, or none when every one is done.
struct FollowOutcome {
  int module = 0;
  std::optional<FollowResult> result;  // nullopt: every worked example is done (no --restart)
  Stop stop = Stop::done;
};

// `workbook drill [11|24]`: the modules covered and how many drills are to be run.
struct DrillPlan {
  std::vector<int> modules;  // 11, 24 or both
  bool weekly = false;       // no module asked: this week's drills
  std::size_t queued = 0;    // drills in the session
};
struct DrillOutcome {
  DrillPlan plan;
  std::vector<DrillResult> results;  // the drills done, in order
  Stop stop = Stop::done;
};

// `workbook drill --status`: each drill's readiness and when it is due.
struct DrillStatusReport {
  std::vector<int> modules;
  bool weekly = false;
  long long today = 0;
  std::vector<DrillStatus> drills;  // bank order, module by module
};

}  // namespace workbook::learn
