// The project topics the learner's experiments measure: an experiment file may name one
// (`topic: BF16`, one of data/course.yaml's project topics); each run of it that finished
// ("done") measured that topic, and one with an explanation explained it. `progress`
// counts them in its Topics line, `next` points at those measured but not explained.
#pragma once

#include <string>
#include <vector>

#include "journal/journal.hpp"
#include "report/ledger.hpp"

namespace workbook {

struct ExperimentTopicRun {
  std::string experiment, topic;  // topic as the file wrote it (matched without case)
  long long run_id = 0;
  bool measured = false;   // the run finished with its metrics read ("done")
  bool explained = false;  // and has an explanation
};

// Every run of an experiment whose file (as the run kept it) names a topic, oldest first.
std::vector<ExperimentTopicRun> experiment_topic_runs(Journal& journal);

// Each experiment's first numeric prediction of each name, made before any measurement,
// against the measurement of the first finished run that has it: calibration ledger entries
// (lab "experiment NAME", module kLedgerProject), oldest first.
std::vector<LedgerEntry> experiment_ledger_entries(Journal& journal);

// Throws UsageError when `topic` is set and is none of `topics` (compared without case);
// `file` names the experiment file in the message.
void check_experiment_topic(const std::string& topic, const std::vector<std::string>& topics, const std::string& file);

}  // namespace workbook
