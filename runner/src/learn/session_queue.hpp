// The order of a practice session (`review`, `exercises`): which new items come first,
// and an item put on a short-term (re)learning step asked again in the same session.
#pragma once

#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "content/course.hpp"
#include "content/exercises.hpp"

namespace workbook::learn {

// The modules in the order their new items are introduced: those of the assignment due
// next (the first, by due date, due today or later), then every other module 1-24 in
// order. Without a calendar, or after the last assignment, 1-24 in order.
std::vector<int> new_item_module_order(const std::optional<Course>& course, long long today);

struct QueuedItem {
  int module = 0;
  const ExerciseItem* item = nullptr;
  bool fresh = false;
};

// The items in the order given; an item on a (re)learning step comes back when its step
// is due (`again_in`), before the next item in line, and when nothing else is left it is
// asked at once rather than waited for (as Anki learns ahead), so a session ends only
// when every item it asked has graduated or the learner stops.
class SessionQueue {
 public:
  explicit SessionQueue(std::vector<QueuedItem> items);
  // The next item to ask at `now` (Unix seconds); nullopt when none is left.
  std::optional<QueuedItem> next(long long now);
  // `item` is due again `minutes` after `now`.
  void again_in(const QueuedItem& item, int minutes, long long now);
  std::size_t pending() const { return steps_.size(); }

 private:
  std::deque<QueuedItem> line_;
  std::vector<std::pair<long long, QueuedItem>> steps_;  // by due time, oldest first
};

}  // namespace workbook::learn
