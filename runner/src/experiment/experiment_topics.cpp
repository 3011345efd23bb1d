// The project topics the experiments measure (see experiment_topics.hpp).
#include "experiment/experiment_topics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "experiment/experiment_spec.hpp"
#include "experiment/experiment_store.hpp"
#include "experiment/experiment_summary.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace workbook {

std::vector<ExperimentTopicRun> experiment_topic_runs(Journal& journal) {
  std::vector<ExperimentTopicRun> out;
  for (const auto& row : experiment_runs(journal, "", 100000)) {
    std::string topic;
    try {
      topic = parse_experiment(row.file_text, row.experiment, row.experiment).topic;
    } catch (const Error&) {
      continue;  // a file that no longer parses names no topic
    }
    if (topic.empty()) continue;
    const bool done = experiment_status_named(row.status) == ExperimentStatus::done;
    const auto full = done ? load_experiment_run(journal, row.id) : std::nullopt;
    out.push_back({row.experiment, topic, row.id, done, full && !full->explanations.empty()});
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<LedgerEntry> experiment_ledger_entries(Journal& journal) {
  std::vector<ExperimentRunRow> runs = experiment_runs(journal, "", 100000);
  std::reverse(runs.begin(), runs.end());  // oldest first: the first measurement of each
  std::set<std::pair<std::string, std::string>> seen;  // (experiment, prediction)
  std::vector<LedgerEntry> out;
  for (const auto& r : runs) {
    if (experiment_status_named(r.status) != ExperimentStatus::done) continue;
    const auto full = load_experiment_run(journal, r.id);
    if (!full) continue;
    ExperimentSummary s;
    try {
      s = summarize_experiment(*full);
    } catch (const Error&) {
      continue;  // a file that no longer parses
    }
    for (const auto& p : s.predictions) {
      if (!p.answer || p.answer->after_measurement || !p.measured || !p.answer->answer.number) continue;
      const double predicted = *p.answer->answer.number, measured = *p.measured;
      if (predicted <= 0 || measured <= 0 || !seen.insert({r.experiment, p.spec.spec.id}).second) continue;
      LedgerEntry e;
      e.lab = "experiment " + r.experiment;
      e.prediction = p.spec.spec.id;
      e.recorded_at = p.answer->recorded_at;
      e.module = kLedgerProject;
      e.kind = ledger_kind(p.spec.spec);
      e.run_id = r.id;
      e.predicted = predicted;
      e.measured = measured;
      e.log2_ratio = std::log2(predicted / measured);
      out.push_back(e);
    }
  }
  return out;
}

void check_experiment_topic(const std::string& topic, const std::vector<std::string>& topics, const std::string& file) {
  if (topic.empty() || topics.empty()) return;
  for (const auto& t : topics)
    if (lower(t) == lower(topic)) return;
  std::string list;
  for (const auto& t : topics) list += (list.empty() ? "" : ", ") + t;
  throw UsageError(fmt::format("{}: topic: '{}' is not one of the project's topics ({})", file, topic, list),
                   "write one of them as data/course.yaml spells it, or leave topic: out");
}

}  // namespace workbook
