// Gathering the learner's progress and planning it against the calendar (see progress_report.hpp).
#include "progress/progress_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "experiment/experiment_topics.hpp"
#include "journal/handins.hpp"
#include "report/ledger.hpp"
#include "learn/banks.hpp"
#include "learn/clock.hpp"
#include "learn/review_store.hpp"
#include "learn/practice_session.hpp"
#include "content/lab_id.hpp"
#include "util/text.hpp"

namespace workbook::progress {

int ProgressReport::drills_due() const {
  int n = 0;
  for (const auto& d : drills) n += d.offered ? d.due : 0;
  return n;
}

const ModuleProgress* ProgressReport::module(int number) const {
  for (const auto& m : modules) {
    if (m.module == number) return &m;
  }
  return nullptr;
}

namespace {

std::set<int> done_modules(const ProgressReport& r) {
  std::set<int> done;
  for (const auto& m : r.modules) {
    if (m.complete() || m.handed_in) done.insert(m.module);
  }
  return done;
}

// The items marked handed in, as assignment ids and module numbers (an assignment's
// modules included).
void split_handins(const ProgressReport& r, std::set<std::string>& assignments, std::set<int>& modules) {
  for (const auto& [item, when] : r.handed_in) {
    if (item.rfind("module", 0) == 0) {
      modules.insert(std::atoi(item.c_str() + 6));
      continue;
    }
    assignments.insert(item);
    if (!r.course) continue;
    for (const auto& a : r.course->assignments) {
      if (a.id == item) modules.insert(a.modules.begin(), a.modules.end());
    }
  }
}

bool in_module(const std::string& lab, int module) { return lab.rfind(module_id(module) + "/", 0) == 0; }

// The experiments' runs that name the topic `s` (without case) counted into it; the
// experiments measured but never explained listed.
void add_topic_runs(const std::vector<TopicRun>& runs, TopicStatus& s) {
  std::set<std::string> measured, explained;
  for (const auto& run : runs) {
    if (lower(run.topic) != lower(s.topic) || !run.measured) continue;
    ++s.measured;
    s.explained += run.explained ? 1 : 0;
    measured.insert(run.experiment);
    if (run.explained) explained.insert(run.experiment);
  }
  for (const auto& e : measured)
    if (!explained.count(e)) s.unexplained.push_back(e);
}

void plan_route(ProgressReport& r, const Course& course, const std::set<int>& done,
                const std::vector<LabRecord>& labs) {
  auto due_of = [&](const std::string& id) -> std::string {
    for (const auto& a : course.assignments) {
      if (a.id == id) return a.due;
    }
    return "";
  };
  for (const auto& b : course.bonus) {
    BonusStatus s{b.id, b.title.empty() ? b.id : b.title, b.assignment, due_of(b.assignment), b.modules, {}};
    for (int m : b.modules) {
      if (!done.count(m)) s.open.push_back(m);
    }
    r.bonus.push_back(s);
  }
  for (const auto& t : course.project.topics) {
    TopicStatus s{t.module, t.topic, 0, 0, {}};
    for (const auto& lab : labs) {
      if (!in_module(lab.lab, t.module)) continue;
      s.measured += lab.measured;
      s.explained += lab.explained;
    }
    add_topic_runs(r.topic_runs, s);
    r.topics.push_back(s);
  }
  r.oral_sign_up_by = due_of(course.oral_exam.sign_up_with);
}

std::vector<DrillSummary> drill_summaries(const Catalog& catalog, Journal& journal, const std::vector<int>& modules,
                                          long long today) {
  learn::ReviewStore store(journal);
  std::vector<DrillSummary> out;
  for (int module : modules) {
    auto bank = learn::find_bank(catalog, module);
    if (!bank || bank->drills.empty()) continue;
    DrillSummary s;
    s.module = module;
    s.weekly_from = bank->weekly_from;
    const auto from = learn::day_of_date(bank->weekly_from);
    s.offered = !from || today >= *from;
    double readiness = 0;
    for (const auto& d : bank->drills) {
      const learn::DrillStatus st = learn::drill_status(store, module, d, today);
      ++s.total;
      s.due += st.due ? 1 : 0;
      s.easy += st.easy ? 1 : 0;
      if (st.attempts > 0) {
        ++s.attempted;
        readiness += st.readiness;
      }
    }
    s.readiness = s.attempted ? readiness / s.attempted : 0;
    out.push_back(s);
  }
  return out;
}

}  // namespace

void plan_report(ProgressReport& r, const std::vector<LabRecord>& labs) {
  r.plan.reset();
  r.bonus.clear();
  r.topics.clear();
  r.oral_sign_up_by.clear();
  std::set<std::string> assignments;
  std::set<int> modules;
  split_handins(r, assignments, modules);
  for (auto& m : r.modules) m.handed_in = modules.count(m.module) > 0;
  if (!r.course) return;
  const std::set<int> done = done_modules(r);
  r.plan = plan_for(*r.course, done, r.today, assignments);
  plan_route(r, *r.course, done, labs);
}

ProgressReport gather_progress(const Catalog& catalog, Journal& journal, const std::optional<Course>& course,
                               long long today) {
  ProgressReport r;
  r.today = today;
  r.course = course;
  r.handed_in = handed_in_items(journal);
  const std::vector<ModuleContent> content = course_content(catalog);
  const LearnerRecord record = learner_record(journal, content);
  for (const auto& c : content) r.modules.push_back(summarize(c, record));
  learn::ReviewStore store(journal);
  r.reviews_due = static_cast<int>(store.due(today).size());
  r.ledger_line = ledger_summary(gather_ledger(journal, catalog, 0, experiment_ledger_entries(journal)));
  std::vector<int> drill_modules = course ? course->oral_exam.drill_modules : std::vector<int>{};
  if (drill_modules.empty()) drill_modules = {11, 24};
  r.drills = drill_summaries(catalog, journal, drill_modules, today);
  for (const auto& run : experiment_topic_runs(journal))
    r.topic_runs.push_back({run.experiment, run.topic, run.measured, run.explained});
  std::vector<LabRecord> labs;
  for (const auto& [id, lab] : record.labs) labs.push_back(lab);
  plan_report(r, labs);
  return r;
}

}  // namespace workbook::progress
