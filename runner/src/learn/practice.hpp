// The learning commands' logic (the cmd/ files only declare options):
//   workbook exercises <module>   a module's items, in order, self-graded and scheduled
//   workbook review               what is due across all modules, then new items module by module
//   workbook follow <module>      a worked example, step by step (progress kept)
//   workbook drill <11|24>        oral drills against the clock; --status for readiness
// Each returns the exit code: 0 (also at the end of input), 130 after Ctrl-C (everything
// answered before it is kept). Errors are thrown (UsageError: exit 2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "ui/style.hpp"

namespace workbook::learn {

inline constexpr int kInterruptedExit = 130;

struct LearnContext {
  const Catalog& catalog;
  Journal& journal;
  Style style;       // colour decided by the command (off with --json)
  bool json = false;  // print one JSON object at the end, nothing else
};

struct ExercisesRequest {
  std::string module;
  bool variant = false;    // only items with a variant, with fresh numbers
  bool pass_fail = false;
  std::optional<std::uint64_t> seed;
  std::optional<std::string> item;  // just this item
};
int run_exercises(LearnContext& ctx, const ExercisesRequest& req);

struct ReviewRequest {
  int limit = 50;      // at most this many items in the session
  int new_limit = 10;  // new items a day
  bool pass_fail = false;
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
