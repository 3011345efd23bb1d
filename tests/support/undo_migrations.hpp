// Tests that make an older journal from a current one undo the later migrations by hand:
// this SQL undoes the ones after version 13 (journal/schema.cpp: "ended runs are kept",
// 14, "lab references", 15, and "summaries kept", 16). Put it first in such a test's undo script; a test of a
// version before 13 undoes 13 and older after it, as before.
#pragma once

#include <string>

namespace wbtest {

// Version 16, "summaries kept": its derived tables and the triggers that keep them.
inline std::string undo_summaries() {
  return "DROP TRIGGER first_prediction_kept; DROP TABLE first_predictions; DROP TRIGGER lab_summary_run; "
         "DROP TRIGGER lab_summary_verdict; DROP TRIGGER lab_summary_measured; DROP TRIGGER lab_summary_explained; "
         "DROP TRIGGER lab_summary_unexplained; DROP TABLE lab_summary; ";
}

inline std::string undo_migrations_after_13() {
  std::string sql = undo_summaries() +
                    "DROP TABLE lab_references; DROP TRIGGER runs_ended_are_kept; DROP TRIGGER runs_are_kept_d; "
                    "DROP TRIGGER experiment_runs_ended_are_kept; DROP TRIGGER experiment_runs_are_kept_d; ";
  for (const char* t : {"predictions", "checks", "metrics", "prediction_grades", "run_gpu_state", "run_machine",
                        "slurm_jobs", "experiment_predictions", "experiment_results"})
    sql += std::string("DROP TRIGGER ") + t + "_of_ended_run; ";
  for (const char* t : {"checks", "metrics", "prediction_grades", "experiment_results"})
    sql += std::string("DROP TRIGGER ") + t + "_are_kept_u; DROP TRIGGER " + t + "_are_kept_d; ";
  return sql + "ALTER TABLE predictions DROP COLUMN entered; ALTER TABLE experiment_predictions DROP COLUMN entered; ";
}

}  // namespace wbtest
