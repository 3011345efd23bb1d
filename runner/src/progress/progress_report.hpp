// `workbook progress`: the learner's record against the workbook and the course calendar.
// Built from the content, the journal and the calendar by gather_progress; everything
// after that (the A-route, the JSON, the text) is computed from the report alone.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "content/course.hpp"
#include "progress/calendar.hpp"
#include "progress/module_progress.hpp"
#include "ui/style.hpp"

namespace workbook::progress {

// The oral drills of one module.
struct DrillSummary {
  int module = 0;
  int total = 0, due = 0, easy = 0, attempted = 0;
  double readiness = 0;     // mean over the drills attempted, 0..1
  bool offered = true;      // false before the bank's weekly_from date
  std::string weekly_from;  // "" when always offered
};

struct BonusStatus {
  std::string id, title, assignment, due;  // due: the assignment's date
  std::vector<int> modules, open;          // modules that prepare it, those not done
};

struct TopicStatus {
  int module = 0;
  std::string topic;
  // The learner's runs of the module's labs with figures, with an explanation; and the
  // runs of experiments that name the topic (`topic:`), finished, with an explanation.
  int measured = 0, explained = 0;
  std::vector<std::string> unexplained;  // experiments of the topic measured, none of their runs explained
};

// A run of an experiment that names a project topic (experiment/experiment_topics.hpp).
struct TopicRun {
  std::string experiment, topic;
  bool measured = false, explained = false;
};

struct ProgressReport {
  long long today = 0;
  std::vector<ModuleProgress> modules;
  int reviews_due = 0;
  std::vector<DrillSummary> drills;
  std::optional<Course> course;
  std::optional<CalendarPlan> plan;
  std::vector<BonusStatus> bonus;
  std::vector<TopicStatus> topics;
  std::vector<TopicRun> topic_runs;  // the experiments' runs that name a topic (read by gather_progress)
  std::string oral_sign_up_by;  // date of the assignment the sign-up goes with, or ""
  // What the learner marked handed in (`workbook handin`): item ("a1", "module05") -> when.
  std::map<std::string, std::string> handed_in;
  // The calibration ledger's line (report/ledger.hpp ledger_summary): "" without data.
  std::string ledger_line;

  int drills_due() const;
  const ModuleProgress* module(int number) const;
};

// The calendar part and the A-route from the modules already in `report`, its hand-in
// marks and the learner's lab records; sets plan, bonus, topics, oral_sign_up_by and each
// module's handed_in. A module is done for the plan when it is complete or handed in
// (marked itself, or through an assignment that names it).
void plan_report(ProgressReport& report, const std::vector<LabRecord>& labs);

// Everything, read from the content, the journal and the calendar (which may be absent).
ProgressReport gather_progress(const Catalog& catalog, Journal& journal, const std::optional<Course>& course,
                               long long today);

nlohmann::json to_json(const ProgressReport& report);
}  // namespace workbook::progress
