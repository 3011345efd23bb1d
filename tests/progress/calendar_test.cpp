// Tests for progress/calendar: the course calendar against a fixed day (before the first
// assignment, between deadlines, on a due day, after the presentation, overridden dates).
#include <catch2/catch.hpp>

#include "learn/clock.hpp"
#include "progress/calendar.hpp"

#include "../support/day_number.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using wbtest::day_number;
using workbook::progress::AssignmentState;
using workbook::progress::AssignmentStatus;
using workbook::progress::CalendarPlan;
using workbook::progress::deadlines;
using workbook::progress::Phase;
using workbook::progress::plan_for;
using workbook::progress::to_string;

namespace {

Course workbook_course() {
  wbtest::TempDir ws;
  auto c = load_course(WORKBOOK_SOURCE_DIR, ws.path);
  REQUIRE(c);
  return *c;
}

const AssignmentStatus& status(const CalendarPlan& p, const std::string& id) {
  for (const auto& a : p.assignments) {
    if (a.id == id) return a;
  }
  FAIL("no assignment " << id);
  return p.assignments.front();
}

}  // namespace

TEST_CASE("deadlines come in date order with the presentation's two days", "[calendar]") {
  const auto all = deadlines(workbook_course());
  REQUIRE(all.size() == 7);
  CHECK(all[0].id == "a1");
  CHECK(all[1].kind == "proposal");
  CHECK(all[2].id == "a2");
  CHECK(all[5].kind == "report");
  CHECK(all[6].kind == "presentation");
  CHECK(all[6].last_day - all[6].day == 1);
}

TEST_CASE("before the first assignment", "[calendar]") {
  const CalendarPlan p = plan_for(workbook_course(), {5, 6}, day_number("2026-10-20"));
  CHECK(p.phase == Phase::before_first);
  REQUIRE(p.next);
  CHECK(p.next->id == "a1");
  CHECK(p.days_to_next == 17);
  CHECK(p.weeks_to_next == 3);
  CHECK(p.behind.empty());
  REQUIRE(p.focus);
  CHECK(p.focus->id == "a1");
  CHECK(p.focus->open == std::vector<int>{7, 8, 9});
  CHECK(p.modules_per_week == Approx(1.0));
  CHECK(status(p, "a2").state == AssignmentState::open);
}

TEST_CASE("between deadlines: an assignment past due with modules open is behind", "[calendar]") {
  std::set<int> done{5, 6, 7, 8, 9, 12, 13};
  const CalendarPlan p = plan_for(workbook_course(), done, day_number("2026-12-01"));
  CHECK(p.phase == Phase::under_way);
  REQUIRE(p.next);
  CHECK(p.next->id == "a3");
  CHECK(p.days_to_next == 3);
  CHECK(status(p, "a1").state == AssignmentState::done);
  CHECK(status(p, "a2").state == AssignmentState::behind);
  CHECK(status(p, "a2").open == std::vector<int>{14, 15});
  CHECK(status(p, "a2").days_left == -11);
  CHECK(p.behind == std::vector<std::string>{"a2"});
  REQUIRE(p.focus);
  CHECK(p.focus->id == "a3");  // the assignment due next comes first; a2 is listed as behind
  // presentation 2027-01-08 is 39 days on, counted inclusively: 6 weeks
  CHECK(p.weeks_left == 6);
  done.insert({14, 15});
  const CalendarPlan caught_up = plan_for(workbook_course(), done, day_number("2026-12-01"));
  CHECK(caught_up.behind.empty());
  REQUIRE(caught_up.focus);
  CHECK(caught_up.focus->id == "a3");
  CHECK(caught_up.modules_per_week == Approx(4.0));  // four modules, one week
}

TEST_CASE("on a due day", "[calendar]") {
  const CalendarPlan p = plan_for(workbook_course(), {16}, day_number("2026-12-04"));
  CHECK(p.phase == Phase::due_today);
  REQUIRE(p.next);
  CHECK(p.next->id == "a3");
  CHECK(p.days_to_next == 0);
  CHECK(status(p, "a3").state == AssignmentState::due_today);
  CHECK(status(p, "a3").days_left == 0);
  // the presentation's second day is still a deadline day
  const CalendarPlan talk = plan_for(workbook_course(), {}, day_number("2027-01-08"));
  CHECK(talk.phase == Phase::due_today);
  REQUIRE(talk.next);
  CHECK(talk.next->kind == "presentation");
}

TEST_CASE("after the presentation the course is over", "[calendar]") {
  const CalendarPlan p = plan_for(workbook_course(), {}, day_number("2027-01-09"));
  CHECK(p.phase == Phase::over);
  CHECK_FALSE(p.next);
  CHECK(p.weeks_left == 0);
  CHECK(p.behind.size() == 4);  // nothing done: every assignment is behind
}

TEST_CASE("overridden dates move the plan", "[calendar]") {
  wbtest::TempDir ws;
  ws.write("course.yaml", "format_version: 1\nassignments:\n  - {id: a3, due: 2026-12-11}\n");
  auto course = load_course(WORKBOOK_SOURCE_DIR, ws.path);
  REQUIRE(course);
  const CalendarPlan p = plan_for(*course, {}, day_number("2026-12-05"));
  REQUIRE(p.next);
  CHECK(p.next->id == "a3");
  CHECK(p.days_to_next == 6);
  CHECK(status(p, "a3").state == AssignmentState::open);
  const CalendarPlan default_plan = plan_for(workbook_course(), {}, day_number("2026-12-05"));
  CHECK(status(default_plan, "a3").state == AssignmentState::behind);
}

TEST_CASE("the assignment due next is the focus, once none is due, the earliest behind", "[calendar]") {
  // An empty record, the learner's real week: A1 and A2 past due, A3 due in 3 days.
  struct Day {
    const char* date;
    const char* focus;
    std::vector<std::string> behind;
  };
  const Day days[] = {
      {"2026-11-10", "a2", {"a1"}},
      {"2026-12-01", "a3", {"a1", "a2"}},
      {"2026-12-04", "a3", {"a1", "a2"}},  // due today: still the one due next
      {"2026-12-05", "a4", {"a1", "a2", "a3"}},
      {"2026-12-19", "a1", {"a1", "a2", "a3", "a4"}},  // none due any more: the earliest behind
      {"2027-01-06", "a1", {"a1", "a2", "a3", "a4"}},
  };
  for (const auto& d : days) {
    INFO(d.date);
    const CalendarPlan p = plan_for(workbook_course(), {}, day_number(d.date));
    REQUIRE(p.focus);
    CHECK(p.focus->id == d.focus);
    CHECK(p.behind == d.behind);
  }
  const CalendarPlan jan6 = plan_for(workbook_course(), {}, day_number("2027-01-06"));
  REQUIRE(jan6.previous);
  CHECK(jan6.previous->kind == "report");  // the report's day_number is past: said, not hidden
  REQUIRE(jan6.next);
  CHECK(jan6.next->kind == "presentation");
}

TEST_CASE("an assignment marked handed in is done and never behind", "[calendar]") {
  const CalendarPlan p = plan_for(workbook_course(), {}, day_number("2026-12-01"), {"a1", "a2"});
  CHECK(p.behind.empty());
  CHECK(status(p, "a1").state == AssignmentState::handed_in);
  CHECK(status(p, "a1").open.empty());
  CHECK(std::string(to_string(AssignmentState::handed_in)) == "handed in");
  REQUIRE(p.focus);
  CHECK(p.focus->id == "a3");
  // After its due date too, and with no assignment left to do there is no focus.
  const CalendarPlan late = plan_for(workbook_course(), {}, day_number("2027-01-09"), {"a1", "a2", "a3", "a4"});
  CHECK(late.behind.empty());
  CHECK_FALSE(late.focus);
}
