// The course calendar against a day (see calendar.hpp).
#include "progress/calendar.hpp"

#include <algorithm>

#include "learn/clock.hpp"

namespace workbook::progress {

const char* to_string(AssignmentState s) {
  switch (s) {
    case AssignmentState::done: return "done";
    case AssignmentState::handed_in: return "handed in";
    case AssignmentState::open: return "open";
    case AssignmentState::due_today: return "due today";
    case AssignmentState::behind: return "behind";
  }
  return "?";
}

const char* to_string(Phase p) {
  switch (p) {
    case Phase::before_first: return "before the first deadline";
    case Phase::under_way: return "under way";
    case Phase::due_today: return "a deadline today";
    case Phase::over: return "over";
  }
  return "?";
}

std::string when_text(long long days) {
  if (days == 0) return "today";
  if (days == 1) return "tomorrow";
  if (days > 0) return "in " + std::to_string(days) + " days";
  return days == -1 ? "yesterday" : std::to_string(-days) + " days ago";
}

std::vector<Deadline> deadlines(const Course& course) {
  std::vector<Deadline> out;
  auto add = [&](const std::string& kind, const std::string& id, const std::string& title, const std::string& first,
                 const std::string& last, const std::vector<int>& modules) {
    const auto day = learn::day_of_date(first);
    if (!day) return;
    const auto last_day = learn::day_of_date(last.empty() ? first : last);
    out.push_back({kind, id, title, *day, last_day ? std::max(*day, *last_day) : *day, modules});
  };
  for (const auto& a : course.assignments) add("assignment", a.id, a.title.empty() ? a.id : a.title, a.due, "", a.modules);
  const CourseProject& p = course.project;
  add("proposal", "proposal", "Project proposal", p.proposal, "", {});
  add("report", "report", "Project report", p.report, "", {});
  add("presentation", "presentation", "Project presentation", p.presentation_first, p.presentation_last, {});
  std::stable_sort(out.begin(), out.end(), [](const Deadline& a, const Deadline& b) { return a.day < b.day; });
  return out;
}

namespace {

long long weeks_rounded_up(long long days) { return days <= 0 ? 0 : (days + 6) / 7; }

AssignmentStatus status_of(const Deadline& d, const std::set<int>& done, long long today, bool handed_in) {
  AssignmentStatus s;
  s.id = d.id;
  s.title = d.title;
  s.due = learn::date_of_day(d.day);
  s.days_left = d.day - today;
  s.modules = d.modules;
  for (int m : d.modules) (done.count(m) || handed_in ? s.done : s.open).push_back(m);
  if (handed_in) s.state = AssignmentState::handed_in;
  else if (s.open.empty()) s.state = AssignmentState::done;
  else if (s.days_left < 0) s.state = AssignmentState::behind;
  else if (s.days_left == 0) s.state = AssignmentState::due_today;
  else s.state = AssignmentState::open;
  return s;
}

}  // namespace

CalendarPlan plan_for(const Course& course, const std::set<int>& done, long long today,
                      const std::set<std::string>& handed_in) {
  CalendarPlan plan;
  plan.today = today;
  const std::vector<Deadline> all = deadlines(course);
  for (const auto& d : all) {
    if (d.kind == "assignment") plan.assignments.push_back(status_of(d, done, today, handed_in.count(d.id) > 0));
    if (!plan.next && d.last_day >= today) plan.next = d;
    if (d.last_day < today && (!plan.previous || d.last_day >= plan.previous->last_day)) plan.previous = d;
  }
  if (all.empty() || today < all.front().day) plan.phase = Phase::before_first;
  else if (!plan.next) plan.phase = Phase::over;
  else if (plan.next->day <= today) plan.phase = Phase::due_today;
  if (plan.next) {
    plan.days_to_next = std::max(0LL, plan.next->day - today);
    plan.weeks_to_next = weeks_rounded_up(plan.days_to_next);
  }
  if (!all.empty()) {
    for (const auto& d : all)
      if (!plan.last || d.last_day >= plan.last->last_day) plan.last = d;
    plan.weeks_left = weeks_rounded_up(plan.last->last_day - today + 1);
  }
  // The assignment due next comes first: one already past due cannot be handed in late
  // (and may well have been handed in outside the runner), so it leads only once no
  // assignment is due any more.
  for (const auto& a : plan.assignments) {
    if (a.state == AssignmentState::behind) plan.behind.push_back(a.id);
    if (!plan.focus && (a.state == AssignmentState::open || a.state == AssignmentState::due_today)) plan.focus = a;
  }
  for (const auto& a : plan.assignments) {
    if (!plan.focus && a.state == AssignmentState::behind) plan.focus = a;
  }
  if (plan.focus) {
    const long long weeks = std::max(1LL, weeks_rounded_up(plan.focus->days_left));
    plan.modules_per_week = static_cast<double>(plan.focus->open.size()) / static_cast<double>(weeks);
  }
  return plan;
}

}  // namespace workbook::progress
