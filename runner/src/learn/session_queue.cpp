// The order of a practice session (see session_queue.hpp).
#include "learn/session_queue.hpp"

#include <algorithm>

#include "learn/clock.hpp"

namespace workbook::learn {

std::vector<int> new_item_module_order(const std::optional<Course>& course, long long today) {
  std::vector<int> order;
  if (course) {
    const CourseAssignment* next = nullptr;
    long long next_day = 0;
    for (const auto& a : course->assignments) {
      const auto day = day_of_date(a.due);
      if (!day || *day < today) continue;
      if (!next || *day < next_day) {
        next = &a;
        next_day = *day;
      }
    }
    if (next) {
      for (int m : next->modules) {
        if (m >= 1 && m <= 24 && std::find(order.begin(), order.end(), m) == order.end()) order.push_back(m);
      }
    }
  }
  for (int m = 1; m <= 24; ++m) {
    if (std::find(order.begin(), order.end(), m) == order.end()) order.push_back(m);
  }
  return order;
}

SessionQueue::SessionQueue(std::vector<QueuedItem> items) : line_(items.begin(), items.end()) {}

std::optional<QueuedItem> SessionQueue::next(long long now) {
  auto take_step = [&] {
    QueuedItem it = steps_.front().second;
    steps_.erase(steps_.begin());
    return it;
  };
  if (!steps_.empty() && steps_.front().first <= now) return take_step();
  if (!line_.empty()) {
    QueuedItem it = line_.front();
    line_.pop_front();
    return it;
  }
  if (!steps_.empty()) return take_step();
  return std::nullopt;
}

void SessionQueue::again_in(const QueuedItem& item, int minutes, long long now) {
  const long long due = now + 60LL * minutes;
  QueuedItem again = item;
  again.fresh = false;
  auto at = std::upper_bound(steps_.begin(), steps_.end(), due,
                             [](long long d, const std::pair<long long, QueuedItem>& p) { return d < p.first; });
  steps_.insert(at, {due, again});
}

}  // namespace workbook::learn
