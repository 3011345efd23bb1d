// The course calendar against a day: what is due next, what is behind, how many weeks are
// left. Pure functions of (calendar, the modules the learner has done, today), so they are
// tested with a fixed clock. Days are local calendar days (learn/clock.hpp).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "content/course.hpp"

namespace workbook::progress {

// One dated event of the course.
struct Deadline {
  std::string kind;  // "assignment", "proposal", "report", "presentation"
  std::string id, title;
  long long day = 0, last_day = 0;  // last_day > day only for a presentation over two days
  std::vector<int> modules;         // assignments: the modules that prepare it
};
// Every dated event, by day (then as the calendar lists them).
std::vector<Deadline> deadlines(const Course& course);

// Where an assignment stands on a day.
enum class AssignmentState {
  done,       // every module done (before or after the due date)
  handed_in,  // marked handed in (`workbook handin`): its modules count as done
  open,       // due later, modules still open
  due_today,  // due today, modules still open
  behind,     // past its due date with modules still open
};
const char* to_string(AssignmentState s);

struct AssignmentStatus {
  std::string id, title, due;
  long long days_left = 0;  // negative: past due
  std::vector<int> modules, done, open;
  AssignmentState state = AssignmentState::open;
};

// Where the course stands on a day.
enum class Phase { before_first, under_way, due_today, over };
const char* to_string(Phase p);

struct CalendarPlan {
  long long today = 0;
  Phase phase = Phase::under_way;
  std::optional<Deadline> next;    // the next deadline on or after today
  std::optional<Deadline> previous;  // the latest deadline wholly before today
  long long days_to_next = 0;
  long long weeks_to_next = 0;     // whole weeks, rounded up
  long long weeks_left = 0;        // until the last deadline, rounded up (0 when over)
  std::optional<Deadline> last;    // the last deadline of the course
  std::vector<AssignmentStatus> assignments;  // in due order
  std::vector<std::string> behind;            // ids of assignments past due with modules open
  // The assignment to work on now: the next one due (today or later) with modules open;
  // when none is due any more, the earliest behind; nullopt when none is open.
  std::optional<AssignmentStatus> focus;
  double modules_per_week = 0;  // focus: open modules over the weeks to its due date (min 1)
};

// `done`: the modules the learner has finished (or marked handed in); `handed_in`: the
// assignments marked handed in (they are done whatever their modules say). Dates that do
// not parse are skipped.
CalendarPlan plan_for(const Course& course, const std::set<int>& done, long long today,
                      const std::set<std::string>& handed_in = {});

// A day's distance from today in words: "today", "tomorrow", "in 3 days", "yesterday",
// "4 days ago".
std::string when_text(long long days);

}  // namespace workbook::progress
