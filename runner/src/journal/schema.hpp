// The journal's schema, all of it in one place (schema.cpp): every table, index and
// trigger, reached through numbered migrations. The version lives in the `meta` table
// (key 'schema_version'). Opening a journal runs the migrations it lacks, in order, in
// one transaction; a journal whose version is newer than this runner's is refused.
//
//   1  runs, predictions (immutable), checks, metrics, prediction_grades, calibrations,
//      calibration_figures, explanations
//   2  the learning engine's tables join the versioned schema: learn_cards, learn_revlog,
//      learn_follow, learn_drills (before, learn/review_store created them on first use)
//   3  a `uid` (128 random bits, 32 hex digits) on every row that travels between
//      machines (synced_tables()), given on insert by the column's default
//   4  slurm_jobs;  5  run_gpu_state
//   6  (add_hint_log) hints_shown: each hint `workbook hint` showed, append-only
//   7  (add_solution_gate) solution_views and readings: what the learner was shown (journal/views.hpp)
//   8  (add_run_machine) run_machine: driver, CUDA versions, toolkit, power source per
//      run; the power limit on run_gpu_state
//   9  (add_handins) handins: what the learner marked handed in (journal/handins.hpp);
//      indexes on metrics(run_id), explanations(run_id), runs(lab, id)
//   10 (add_prediction_seen) predictions.after_measurement, prediction_grades.prediction_uid
//   11 (add_experiments) experiment_runs, experiment_predictions (immutable),
//      experiment_results, experiment_explanations (experiment/experiment_store.hpp)
//   12 (add_explanation_feedback) explanations.feedback; learn_nudges
//   13 (add_first_prediction_indexes) indexes on predictions(lab, prediction, recorded_at, id),
//      prediction_grades(run_id, prediction) and prediction_grades(prediction_uid)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

struct sqlite3;

namespace workbook {

// The schema version this runner writes and understands.
inline constexpr int kSchemaVersion = 16;
// The first version whose rows carry uids: the oldest an export can have.
inline constexpr int kFirstSyncedVersion = 3;

// The version recorded in the database (0 for a database without the meta table).
int stored_schema_version(sqlite3* db);

// Brings the database to kSchemaVersion (one transaction; foreign keys are checked after
// the migrations). Throws Error when the journal is newer than this runner, naming `file`.
// `target` below kSchemaVersion stops at that version (tests make older journals with it);
// a journal already at or past `target` (but not past kSchemaVersion) is left as it is.
void migrate_schema(sqlite3* db, const std::filesystem::path& file, int target = kSchemaVersion);

// A table whose rows travel between machines (journal export/import), each with a uid.
// A child row points at its parent through `parent_column` (a local id); an export names
// the parent by its uid instead, under the key parent_uid_key() ("run_id" -> "run_uid").
struct SyncedTable {
  std::string name;
  std::string parent_table;   // empty: no parent
  std::string parent_column;  // e.g. "run_id"
  std::string parent_uid_key() const;
};

// Every synced table, parents before their children (the order of export and import).
// A new table that should travel joins this list (and gets a uid column; see schema.cpp).
// learn_cards is not here: it is derived from learn_revlog (learn/review_store.hpp).
const std::vector<SyncedTable>& synced_tables();

}  // namespace workbook
