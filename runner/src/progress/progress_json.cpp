// `workbook progress --json` (see progress_report.hpp).
#include <fmt/format.h>

#include "learn/clock.hpp"
#include "progress/progress_report.hpp"
#include "content/lab_id.hpp"

namespace workbook::progress {

namespace {

using nlohmann::json;

json tally(const Tally& t) { return {{"done", t.done}, {"total", t.total}}; }

json module_json(const ModuleProgress& m) {
  return {{"module", m.module},         {"id", module_id(m.module)},
          {"title", m.title},           {"read", m.read},
          {"read_inferred", m.read_inferred}, {"follow", tally(m.follow)},
          {"answer", tally(m.answer)},  {"run", tally(m.run)},
          {"labs_open", m.labs_open},   {"labs_tried", m.labs_tried},
          {"complete", m.complete()},   {"handed_in", m.handed_in}};
}

json assignment_json(const AssignmentStatus& a) {
  return {{"id", a.id},     {"title", a.title}, {"due", a.due},   {"days_left", a.days_left},
          {"state", to_string(a.state)}, {"modules", a.modules}, {"done", a.done}, {"open", a.open}};
}

json calendar_json(const ProgressReport& r) {
  if (!r.course || !r.plan) return nullptr;
  const CalendarPlan& p = *r.plan;
  json assignments = json::array();
  for (const auto& a : p.assignments) assignments.push_back(assignment_json(a));
  json next = nullptr;
  if (p.next) {
    next = {{"kind", p.next->kind}, {"id", p.next->id}, {"title", p.next->title},
            {"date", learn::date_of_day(p.next->day)}, {"days_left", p.days_to_next}, {"weeks_left", p.weeks_to_next}};
  }
  json previous = nullptr;
  if (p.previous) {
    previous = {{"kind", p.previous->kind}, {"id", p.previous->id}, {"title", p.previous->title},
                {"date", learn::date_of_day(p.previous->day)}};
  }
  return {{"tentative", r.course->tentative}, {"previous", previous}, {"source", r.course->source}, {"files", r.course->files},
          {"phase", to_string(p.phase)},      {"next", next},                {"weeks_left", p.weeks_left},
          {"assignments", assignments},       {"behind", p.behind},
          {"focus", p.focus ? json(p.focus->id) : json(nullptr)}, {"modules_per_week", p.modules_per_week}};
}

json route_json(const ProgressReport& r) {
  if (!r.course) return nullptr;
  json bonus = json::array(), topics = json::array();
  for (const auto& b : r.bonus) {
    bonus.push_back({{"id", b.id}, {"title", b.title}, {"assignment", b.assignment}, {"due", b.due},
                     {"modules", b.modules}, {"open", b.open}});
  }
  int measured = 0;
  for (const auto& t : r.topics) {
    measured += t.measured > 0 ? 1 : 0;
    topics.push_back({{"module", t.module}, {"topic", t.topic}, {"measured_runs", t.measured},
                      {"explained_runs", t.explained}, {"measured", t.measured > 0}, {"explained", t.explained > 0}});
  }
  const CourseProject& p = r.course->project;
  json presentation = p.presentation_first.empty() ? json(nullptr) : json{p.presentation_first, p.presentation_last};
  return {{"bonus", bonus},
          {"oral_exam", {{"sign_up_with", r.course->oral_exam.sign_up_with}, {"sign_up_by", r.oral_sign_up_by},
                         {"drill_modules", r.course->oral_exam.drill_modules}}},
          {"project", {{"proposal", p.proposal}, {"report", p.report}, {"presentation", presentation},
                       {"topics_needed", p.topics_needed}, {"topics_measured", measured}, {"topics", topics}}}};
}

}  // namespace

json to_json(const ProgressReport& r) {
  json modules = json::array(), drills = json::array();
  for (const auto& m : r.modules) modules.push_back(module_json(m));
  for (const auto& d : r.drills) {
    drills.push_back({{"module", d.module}, {"total", d.total}, {"due", d.offered ? d.due : 0}, {"easy", d.easy},
                      {"attempted", d.attempted}, {"readiness", d.readiness}, {"offered", d.offered},
                      {"weekly_from", d.weekly_from}});
  }
  return {{"date", learn::date_of_day(r.today)},
          {"read_basis", "a module is read once `workbook show N` printed its reading in full to a terminal; in a journal "
                         "from before readings were recorded, its activity from that time counts instead "
                         "(read_inferred)"},
          {"modules", modules},
          {"reviews_due", r.reviews_due},
          {"ledger", r.ledger_line.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.ledger_line)},
          {"drills", drills},
          {"drills_due", r.drills_due()},
          {"handed_in", r.handed_in},
          {"calendar", calendar_json(r)},
          {"route", route_json(r)}};
}

}  // namespace workbook::progress
