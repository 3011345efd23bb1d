// The journal's schema and its migrations (see schema.hpp). A fresh journal runs every
// migration from 1, so a fresh journal and an upgraded one end with the same tables.
#include "journal/schema.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <iterator>

#include "journal/sqlite_statement.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

// Version 1: the run tables as journal.cpp created them before version 3.
const char* kVersion1 = R"sql(
CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY,
  lab TEXT NOT NULL, variant TEXT NOT NULL, source TEXT NOT NULL, params TEXT NOT NULL,
  seed INTEGER NOT NULL, device TEXT NOT NULL, arch TEXT NOT NULL,
  started_at TEXT NOT NULL,
  build_key TEXT, build_cached INTEGER, build_ok INTEGER,
  finished_at TEXT, verdict TEXT, exit_code INTEGER, detail TEXT);
CREATE TABLE IF NOT EXISTS predictions(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  lab TEXT NOT NULL, prediction TEXT NOT NULL, answer TEXT NOT NULL, number REAL,
  recorded_at TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS predictions_are_immutable_u BEFORE UPDATE ON predictions
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
CREATE TRIGGER IF NOT EXISTS predictions_are_immutable_d BEFORE DELETE ON predictions
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
CREATE TRIGGER IF NOT EXISTS predictions_are_immutable_r BEFORE INSERT ON predictions
  WHEN EXISTS (SELECT 1 FROM predictions WHERE id = NEW.id)
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
CREATE TABLE IF NOT EXISTS checks(
  run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, reported INTEGER NOT NULL,
  pass INTEGER NOT NULL, value REAL, lim REAL, detail TEXT);
CREATE TABLE IF NOT EXISTS metrics(
  run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, unit TEXT NOT NULL,
  derived INTEGER NOT NULL, value REAL, lo REAL, hi REAL, status TEXT NOT NULL,
  samples INTEGER, min REAL, max REAL, spread REAL);
CREATE TABLE IF NOT EXISTS prediction_grades(
  run_id INTEGER NOT NULL REFERENCES runs(id), prediction TEXT NOT NULL, measured REAL,
  factor REAL, band TEXT, score INTEGER NOT NULL, max_score INTEGER NOT NULL, correct INTEGER,
  right_answer TEXT);
CREATE TABLE IF NOT EXISTS calibrations(
  id INTEGER PRIMARY KEY, gpu_uuid TEXT NOT NULL, gpu_name TEXT NOT NULL, measured_at TEXT NOT NULL,
  driver TEXT NOT NULL, sm_clock_mhz REAL, arch TEXT NOT NULL, seed INTEGER NOT NULL, detail TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS calibrations_by_gpu ON calibrations(gpu_uuid, id);
CREATE TABLE IF NOT EXISTS calibration_figures(
  calibration_id INTEGER NOT NULL REFERENCES calibrations(id), name TEXT NOT NULL, value REAL NOT NULL,
  unit TEXT NOT NULL, PRIMARY KEY(calibration_id, name));
CREATE TABLE IF NOT EXISTS explanations(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), text TEXT NOT NULL,
  recorded_at TEXT NOT NULL);
)sql";

// Version 2: the learning engine's tables. IF NOT EXISTS: a version-1 journal may hold
// them already (learn/review_store created them on first use).
const char* kVersion2 = R"sql(
CREATE TABLE IF NOT EXISTS learn_cards(
  module INTEGER NOT NULL, item TEXT NOT NULL, state TEXT NOT NULL,
  stability REAL NOT NULL, difficulty REAL NOT NULL,
  last_day INTEGER NOT NULL, interval_days INTEGER NOT NULL, due_day INTEGER NOT NULL, due TEXT NOT NULL,
  last_review TEXT NOT NULL, reps INTEGER NOT NULL, lapses INTEGER NOT NULL, introduced_day INTEGER NOT NULL,
  PRIMARY KEY(module, item));
CREATE INDEX IF NOT EXISTS learn_cards_by_due ON learn_cards(due_day);
CREATE TABLE IF NOT EXISTS learn_revlog(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, item TEXT NOT NULL, reviewed_at TEXT NOT NULL,
  day INTEGER NOT NULL, rating INTEGER NOT NULL, mode TEXT NOT NULL, source TEXT NOT NULL,
  duration_s REAL NOT NULL, interval_before INTEGER NOT NULL, interval_after INTEGER NOT NULL,
  elapsed_days INTEGER NOT NULL, retrievability REAL, stability REAL NOT NULL, difficulty REAL NOT NULL,
  answer TEXT NOT NULL, numbers_checked INTEGER NOT NULL, numbers_correct INTEGER NOT NULL, variant TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learn_follow(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, example TEXT NOT NULL, step INTEGER NOT NULL,
  answer TEXT NOT NULL, numbers_checked INTEGER NOT NULL, numbers_correct INTEGER NOT NULL,
  recorded_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learn_drills(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, drill TEXT NOT NULL, attempted_at TEXT NOT NULL,
  day INTEGER NOT NULL, covered INTEGER NOT NULL, total INTEGER NOT NULL, missed TEXT NOT NULL,
  seconds REAL NOT NULL);
)sql";

// The uid column every synced table ends with: 128 random bits as 32 lowercase hex digits,
// given by SQLite on insert when the writer does not supply one (an import does).
#define WORKBOOK_UID_COLUMN "uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16))))"

struct TableDefinition {
  const char* name;
  const char* columns;  // the columns of version 1/2 in their order, then the uid
};

// Version 3: the synced tables as they are now (SQLite cannot add a column with a
// computed default, so each is rebuilt: new table, rows copied with a fresh uid each).
const TableDefinition kVersion3Tables[] = {
    {"runs",
     "id INTEGER PRIMARY KEY, lab TEXT NOT NULL, variant TEXT NOT NULL, source TEXT NOT NULL, params TEXT NOT NULL, "
     "seed INTEGER NOT NULL, device TEXT NOT NULL, arch TEXT NOT NULL, started_at TEXT NOT NULL, "
     "build_key TEXT, build_cached INTEGER, build_ok INTEGER, finished_at TEXT, verdict TEXT, exit_code INTEGER, "
     "detail TEXT, " WORKBOOK_UID_COLUMN},
    {"predictions",
     "id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), lab TEXT NOT NULL, "
     "prediction TEXT NOT NULL, answer TEXT NOT NULL, number REAL, recorded_at TEXT NOT NULL, " WORKBOOK_UID_COLUMN},
    {"checks",
     "run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, reported INTEGER NOT NULL, "
     "pass INTEGER NOT NULL, value REAL, lim REAL, detail TEXT, " WORKBOOK_UID_COLUMN},
    {"metrics",
     "run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, unit TEXT NOT NULL, derived INTEGER NOT NULL, "
     "value REAL, lo REAL, hi REAL, status TEXT NOT NULL, samples INTEGER, min REAL, max REAL, spread REAL, "
     WORKBOOK_UID_COLUMN},
    {"prediction_grades",
     "run_id INTEGER NOT NULL REFERENCES runs(id), prediction TEXT NOT NULL, measured REAL, factor REAL, band TEXT, "
     "score INTEGER NOT NULL, max_score INTEGER NOT NULL, correct INTEGER, right_answer TEXT, " WORKBOOK_UID_COLUMN},
    {"calibrations",
     "id INTEGER PRIMARY KEY, gpu_uuid TEXT NOT NULL, gpu_name TEXT NOT NULL, measured_at TEXT NOT NULL, "
     "driver TEXT NOT NULL, sm_clock_mhz REAL, arch TEXT NOT NULL, seed INTEGER NOT NULL, detail TEXT NOT NULL, "
     WORKBOOK_UID_COLUMN},
    {"calibration_figures",
     "calibration_id INTEGER NOT NULL REFERENCES calibrations(id), name TEXT NOT NULL, value REAL NOT NULL, "
     "unit TEXT NOT NULL, " WORKBOOK_UID_COLUMN ", PRIMARY KEY(calibration_id, name)"},
    {"explanations",
     "id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), text TEXT NOT NULL, "
     "recorded_at TEXT NOT NULL, " WORKBOOK_UID_COLUMN},
    {"learn_revlog",
     "id INTEGER PRIMARY KEY, module INTEGER NOT NULL, item TEXT NOT NULL, reviewed_at TEXT NOT NULL, "
     "day INTEGER NOT NULL, rating INTEGER NOT NULL CHECK(rating BETWEEN 1 AND 4), mode TEXT NOT NULL, "
     "source TEXT NOT NULL, duration_s REAL NOT NULL, interval_before INTEGER NOT NULL, interval_after INTEGER NOT NULL, "
     "elapsed_days INTEGER NOT NULL, retrievability REAL, stability REAL NOT NULL, difficulty REAL NOT NULL, "
     "answer TEXT NOT NULL, numbers_checked INTEGER NOT NULL, numbers_correct INTEGER NOT NULL, "
     "variant TEXT NOT NULL, " WORKBOOK_UID_COLUMN},
    {"learn_follow",
     "id INTEGER PRIMARY KEY, module INTEGER NOT NULL, example TEXT NOT NULL, step INTEGER NOT NULL, "
     "answer TEXT NOT NULL, numbers_checked INTEGER NOT NULL, numbers_correct INTEGER NOT NULL, "
     "recorded_at TEXT NOT NULL, " WORKBOOK_UID_COLUMN},
    {"learn_drills",
     "id INTEGER PRIMARY KEY, module INTEGER NOT NULL, drill TEXT NOT NULL, attempted_at TEXT NOT NULL, "
     "day INTEGER NOT NULL, covered INTEGER NOT NULL, total INTEGER NOT NULL, missed TEXT NOT NULL, "
     "seconds REAL NOT NULL, " WORKBOOK_UID_COLUMN},
};
#undef WORKBOOK_UID_COLUMN

// Indexes and triggers of version 3 (dropping a table dropped its own, so they are made again).
// Predictions are immutable: no UPDATE, no DELETE, no INSERT over an existing id.
const char* kVersion3After = R"sql(
CREATE INDEX calibrations_by_gpu ON calibrations(gpu_uuid, id);
CREATE INDEX predictions_by_run ON predictions(run_id);
CREATE TRIGGER predictions_are_immutable_u BEFORE UPDATE ON predictions
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
CREATE TRIGGER predictions_are_immutable_d BEFORE DELETE ON predictions
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
CREATE TRIGGER predictions_are_immutable_r BEFORE INSERT ON predictions
  WHEN EXISTS (SELECT 1 FROM predictions WHERE id = NEW.id)
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
)sql";

void migrate_to_3(sqlite3* db) {
  for (const auto& t : kVersion3Tables) {
    sql::exec(db, fmt::format("CREATE TABLE {0}__v3({1}); INSERT INTO {0}__v3 SELECT *, lower(hex(randomblob(16))) "
                              "FROM {0}; DROP TABLE {0}; ALTER TABLE {0}__v3 RENAME TO {0};",
                              t.name, t.columns)
                      .c_str());
  }
  sql::exec(db, kVersion3After);
}

// Version 4: Slurm jobs (run/slurm_journal.cpp), one row per run submitted with
// `run --slurm`; it travels with its run.
const char* kVersion4 = R"sql(
CREATE TABLE slurm_jobs(
  run_id INTEGER PRIMARY KEY REFERENCES runs(id), job_id TEXT NOT NULL, partition TEXT NOT NULL,
  gres TEXT NOT NULL, time_limit TEXT NOT NULL, account TEXT NOT NULL, script TEXT NOT NULL,
  submitted_at TEXT NOT NULL, cluster TEXT, node TEXT, gpu TEXT, state TEXT, exit_code TEXT,
  finished_at TEXT, uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
)sql";

// Version 5: the GPU's clocks and throttle reasons before and after each run
// (profile/gpu_state_store.cpp).
const char* kVersion5 = R"sql(
CREATE TABLE run_gpu_state(
  run_id INTEGER NOT NULL REFERENCES runs(id), phase TEXT NOT NULL, sm_mhz REAL, mem_mhz REAL,
  max_sm_mhz REAL, reasons INTEGER, reason_names TEXT NOT NULL, throttled INTEGER NOT NULL,
  temp_c REAL, power_w REAL, pstate TEXT NOT NULL, tool TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))), PRIMARY KEY(run_id, phase));
)sql";

// Hints shown by `workbook hint` (journal/hint_log.cpp): one row each time a lab's hint is
// shown for the first time; append-only (a hint seen stays part of the record).
void add_hint_log(sqlite3* db) {
  sql::exec(db, R"sql(
CREATE TABLE hints_shown(
  id INTEGER PRIMARY KEY, lab TEXT NOT NULL, hint INTEGER NOT NULL CHECK(hint >= 1), shown_at TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE INDEX hints_shown_by_lab ON hints_shown(lab, hint);
CREATE TRIGGER hints_shown_are_kept_u BEFORE UPDATE ON hints_shown
  BEGIN SELECT RAISE(ABORT, 'hints shown are part of the record: they cannot be changed'); END;
CREATE TRIGGER hints_shown_are_kept_d BEFORE DELETE ON hints_shown
  BEGIN SELECT RAISE(ABORT, 'hints shown are part of the record: they cannot be deleted'); END;
)sql");
}

// Migration "gate": what the learner was shown. solution_views: each time a reference
// solution was shown or run through the gate (cmd show/run --solution), and whether that
// came before any run of the learner's own copy. readings: each time a module's reading
// was printed in full to a terminal (`workbook show MODULE`). Journals from before this
// migration never recorded readings: the highest activity ids they held are kept in meta
// (read_inferred_*), and only that older activity still implies a reading (progress).
const char* kGateTables = R"sql(
CREATE TABLE solution_views(
  id INTEGER PRIMARY KEY, lab TEXT NOT NULL, shown TEXT NOT NULL, before_attempt INTEGER NOT NULL,
  viewed_at TEXT NOT NULL, uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE TABLE readings(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, read_at TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
INSERT OR REPLACE INTO meta(key, value) VALUES
  ('read_inferred_runs', (SELECT COALESCE(MAX(id), 0) FROM runs)),
  ('read_inferred_learn_follow', (SELECT COALESCE(MAX(id), 0) FROM learn_follow)),
  ('read_inferred_learn_revlog', (SELECT COALESCE(MAX(id), 0) FROM learn_revlog));
)sql";

void add_solution_gate(sqlite3* db) { sql::exec(db, kGateTables); }

// Migration "queries": what names the machine of a run beyond the GPU (report/machine
// line, `history`): the enforced power limit beside each clock reading, and per run the
// driver, the CUDA version the driver supports, the toolkit that built the lab and the
// power source (profile/gpu_state_store.cpp). Older runs have no row: "not recorded".
void add_run_machine(sqlite3* db) {
  sql::exec(db, R"sql(
ALTER TABLE run_gpu_state ADD COLUMN power_limit_w REAL;
CREATE TABLE run_machine(
  run_id INTEGER PRIMARY KEY REFERENCES runs(id), driver TEXT NOT NULL, cuda_driver TEXT NOT NULL,
  toolkit TEXT NOT NULL, power_source TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
)sql");
}

// Migration "handins" (journal/handins.hpp): what the learner marked handed in outside the
// runner (`workbook handin`), an assignment id or a module ("module05"); each mark and each
// undo is a row (handed_in 1 or 0), never changed, so export/import merge them and the
// latest row of an item decides. Also the indexes that keep `progress` linear in the runs:
// lab_records (journal_queries.cpp) asks, per run, for its metrics and explanation and,
// per lab, for its latest run.
void add_handins(sqlite3* db) {
  sql::exec(db, R"sql(
CREATE TABLE handins(
  id INTEGER PRIMARY KEY, item TEXT NOT NULL, handed_in INTEGER NOT NULL CHECK(handed_in IN (0, 1)),
  recorded_at TEXT NOT NULL, uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE INDEX handins_by_item ON handins(item, recorded_at);
CREATE TRIGGER handins_are_kept_u BEFORE UPDATE ON handins
  BEGIN SELECT RAISE(ABORT, 'hand-in marks are part of the record: undo one with a new mark'); END;
CREATE TRIGGER handins_are_kept_d BEFORE DELETE ON handins
  BEGIN SELECT RAISE(ABORT, 'hand-in marks are part of the record: undo one with a new mark'); END;
CREATE INDEX IF NOT EXISTS metrics_by_run ON metrics(run_id);
CREATE INDEX IF NOT EXISTS explanations_by_run ON explanations(run_id);
CREATE INDEX IF NOT EXISTS runs_by_lab ON runs(lab, id);
)sql");
}

// Migration "predictions of a lab" (version 10). A lab's first prediction of each id is its scored one
// (journal_queries.hpp): later runs grade it instead of asking again. after_measurement:
// a figure of the lab had been measured when the prediction was recorded (older rows say
// 0: not known); such a prediction is never calibrated. prediction_uid: the uid of the
// prediction a grade is of (NULL in older rows: the run's own prediction of that id).
void add_prediction_seen(sqlite3* db) {
  sql::exec(db, R"sql(
ALTER TABLE predictions ADD COLUMN after_measurement INTEGER NOT NULL DEFAULT 0;
ALTER TABLE prediction_grades ADD COLUMN prediction_uid TEXT;
CREATE INDEX predictions_by_lab ON predictions(lab, prediction);
)sql");
}

// Migration "experiments" (version 11, experiment/experiment_store.hpp): `workbook
// experiment run` of a file in <workspace>/experiments/. A run keeps the file as it was,
// its machine (JSON, as report/machine_line reads it) and, on Slurm, the job; its
// predictions are immutable like a lab's; each variant's repeat is a result row with the
// values its metrics' patterns read (JSON: metric -> values in output order) and, under
// --trace, its per-kernel table (JSON).
void add_experiments(sqlite3* db) {
  sql::exec(db, R"sql(
CREATE TABLE experiment_runs(
  id INTEGER PRIMARY KEY, experiment TEXT NOT NULL, file_text TEXT NOT NULL, started_at TEXT NOT NULL,
  finished_at TEXT, status TEXT, detail TEXT, traced INTEGER NOT NULL DEFAULT 0, gpu TEXT NOT NULL DEFAULT '',
  machine TEXT NOT NULL DEFAULT '{}', slurm_job TEXT NOT NULL DEFAULT '',
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE INDEX experiment_runs_by_name ON experiment_runs(experiment, id);
CREATE TABLE experiment_predictions(
  id INTEGER PRIMARY KEY, experiment_run_id INTEGER NOT NULL REFERENCES experiment_runs(id),
  experiment TEXT NOT NULL, prediction TEXT NOT NULL, answer TEXT NOT NULL, number REAL,
  after_measurement INTEGER NOT NULL DEFAULT 0, recorded_at TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE TRIGGER experiment_predictions_are_immutable_u BEFORE UPDATE ON experiment_predictions
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
CREATE TRIGGER experiment_predictions_are_immutable_d BEFORE DELETE ON experiment_predictions
  BEGIN SELECT RAISE(ABORT, 'predictions are immutable'); END;
CREATE TABLE experiment_results(
  id INTEGER PRIMARY KEY, experiment_run_id INTEGER NOT NULL REFERENCES experiment_runs(id),
  variant TEXT NOT NULL, repeat INTEGER NOT NULL, outcome TEXT NOT NULL, exit_code INTEGER, wall_s REAL,
  detail TEXT NOT NULL, readings TEXT NOT NULL, kernels TEXT NOT NULL DEFAULT '[]', recorded_at TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE INDEX experiment_results_by_run ON experiment_results(experiment_run_id);
CREATE TABLE experiment_explanations(
  id INTEGER PRIMARY KEY, experiment_run_id INTEGER NOT NULL REFERENCES experiment_runs(id), text TEXT NOT NULL,
  recorded_at TEXT NOT NULL, uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
)sql");
}

// Migration "explanation feedback and nudges" (version 12). explanations.feedback: what the
// examiner said of the explanation (explain/feedback.hpp), one point a line; '' for older
// rows and labs without an `examiner:` block. learn_nudges: a badly missed first prediction
// of a lab (|log2 predicted/measured| > 1, report/ledger.hpp) that brought the module's
// review cards due sooner; never changed, replayed with the review log when cards are
// rebuilt (learn/review_store.hpp). One row per lab and prediction id on a machine; two
// machines may each have one (no UNIQUE, so import merges them): the oldest counts.
void add_explanation_feedback(sqlite3* db) {
  sql::exec(db, R"sql(
ALTER TABLE explanations ADD COLUMN feedback TEXT NOT NULL DEFAULT '';
CREATE TABLE learn_nudges(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, lab TEXT NOT NULL, prediction TEXT NOT NULL,
  log2_ratio REAL NOT NULL, day INTEGER NOT NULL, recorded_at TEXT NOT NULL,
  uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE INDEX learn_nudges_by_prediction ON learn_nudges(lab, prediction);
CREATE TRIGGER learn_nudges_are_kept_u BEFORE UPDATE ON learn_nudges
  BEGIN SELECT RAISE(ABORT, 'nudges are part of the record'); END;
)sql");
}

// Migration "indexes for the first prediction and its grades" (version 13). Each run's
// predictions (predictions_of_run: history, report) ask for their lab's first prediction of
// an id and for the run's grades; without these indexes each asked a scan: history took
// 216 s on a 100 k-run journal (scripts/bench/journal_scale.sh). Indexes only: no row changes.
void add_first_prediction_indexes(sqlite3* db) {
  sql::exec(db, R"sql(
CREATE INDEX IF NOT EXISTS predictions_first ON predictions(lab, prediction, recorded_at, id);
CREATE INDEX IF NOT EXISTS prediction_grades_by_run ON prediction_grades(run_id, prediction);
CREATE INDEX IF NOT EXISTS prediction_grades_by_uid ON prediction_grades(prediction_uid);
)sql");
}

// A row of `table` (column `run`) may join a run only while the run is open: once a run
// of `parent` has a finished_at, nothing is added to it by any writer, the importer
// included (journal_import.cpp opens the runs it adds and ends them after their rows).
std::string refuse_rows_of_ended_run(const char* table, const char* parent, const char* run) {
  return fmt::format(
      "CREATE TRIGGER {0}_of_ended_run BEFORE INSERT ON {0} "
      "WHEN (SELECT finished_at FROM {1} WHERE id = NEW.{2}) IS NOT NULL "
      "BEGIN SELECT RAISE(ABORT, 'the run has ended: its record cannot change'); END;\n",
      table, parent, run);
}

std::string refuse_changes(const char* table) {
  return fmt::format(
      "CREATE TRIGGER {0}_are_kept_u BEFORE UPDATE ON {0} "
      "BEGIN SELECT RAISE(ABORT, 'a run''s figures are part of the record: they cannot be changed'); END;\n"
      "CREATE TRIGGER {0}_are_kept_d BEFORE DELETE ON {0} "
      "BEGIN SELECT RAISE(ABORT, 'a run''s figures are part of the record: they cannot be deleted'); END;\n",
      table);
}

// Migration "ended runs are kept" (version 14). What was typed for a prediction (entered;
// NULL in rows older workbooks wrote), and triggers that keep an ended run as it ended: no
// row joins it, its checks, figures, grades and results are never changed or deleted, and
// the run itself is not changed once it has a finished_at. The one exception is a Slurm
// job's end (run/slurm_journal.hpp): when Slurm killed the job, the login node's verdict
// replaces the "interrupted" or "runtime_error" the dying node wrote, once Slurm's state
// is recorded for the run.
void add_ended_run_guards(sqlite3* db) {
  std::string sql = R"sql(
ALTER TABLE predictions ADD COLUMN entered TEXT;
ALTER TABLE experiment_predictions ADD COLUMN entered TEXT;
CREATE TRIGGER runs_ended_are_kept BEFORE UPDATE ON runs
  WHEN OLD.finished_at IS NOT NULL AND NOT (OLD.verdict IN ('interrupted', 'runtime_error')
    AND EXISTS (SELECT 1 FROM slurm_jobs j WHERE j.run_id = OLD.id AND j.state IS NOT NULL))
  BEGIN SELECT RAISE(ABORT, 'the run has ended: its record cannot change'); END;
CREATE TRIGGER runs_are_kept_d BEFORE DELETE ON runs
  BEGIN SELECT RAISE(ABORT, 'runs are part of the record: they cannot be deleted'); END;
CREATE TRIGGER experiment_runs_ended_are_kept BEFORE UPDATE ON experiment_runs WHEN OLD.finished_at IS NOT NULL
  BEGIN SELECT RAISE(ABORT, 'the run has ended: its record cannot change'); END;
CREATE TRIGGER experiment_runs_are_kept_d BEFORE DELETE ON experiment_runs
  BEGIN SELECT RAISE(ABORT, 'runs are part of the record: they cannot be deleted'); END;
)sql";
  for (const char* t : {"predictions", "checks", "metrics", "prediction_grades", "run_gpu_state", "run_machine",
                        "slurm_jobs"}) {
    sql += refuse_rows_of_ended_run(t, "runs", "run_id");
  }
  for (const char* t : {"experiment_predictions", "experiment_results"}) {
    sql += refuse_rows_of_ended_run(t, "experiment_runs", "experiment_run_id");
  }
  for (const char* t : {"checks", "metrics", "prediction_grades", "experiment_results"}) sql += refuse_changes(t);
  sql::exec(db, sql.c_str());
}

// Migration "lab references" (version 15, journal/lab_references.hpp): a GPU's own
// measured figures of each lab, made by `workbook device --calibrate --labs`. Never
// changed: a new calibration adds rows.
void add_lab_references(sqlite3* db) {
  sql::exec(db, R"sql(
CREATE TABLE lab_references(
  id INTEGER PRIMARY KEY, gpu_name TEXT NOT NULL, gpu_uuid TEXT NOT NULL, driver TEXT NOT NULL,
  toolkit TEXT NOT NULL, lab TEXT NOT NULL, source_hash TEXT NOT NULL, params TEXT NOT NULL, sm_clock_mhz REAL,
  power_source TEXT NOT NULL, runs INTEGER NOT NULL, figures TEXT NOT NULL, basis TEXT NOT NULL,
  measured_at TEXT NOT NULL, uid TEXT NOT NULL UNIQUE DEFAULT (lower(hex(randomblob(16)))));
CREATE INDEX lab_references_by_gpu ON lab_references(gpu_name, id);
CREATE TRIGGER lab_references_are_kept_u BEFORE UPDATE ON lab_references
  BEGIN SELECT RAISE(ABORT, 'lab references are part of the record: calibrate again to add newer ones'); END;
CREATE TRIGGER lab_references_are_kept_d BEFORE DELETE ON lab_references
  BEGIN SELECT RAISE(ABORT, 'lab references are part of the record: calibrate again to add newer ones'); END;
)sql");
}

// Migration "summaries kept" (version 16): what progress, next and the ledger read on every
// call, kept by triggers as rows are recorded or imported, so that they answer in a time
// that follows the number of labs, not of runs. Derived, like learn_cards: filled here from
// the rows, never exported (an import's rows fill the importing journal's own).
//   first_predictions  each lab's first prediction of an id, its scored one (version 10):
//                      the ledger's window over every prediction took 1.0 s at 100 k runs,
//                      the join through this table 1 ms (scripts/bench/journal_scale.sh)
//   lab_summary        each lab's runs other than the reference solution's: how many,
//                      passed, with a measured figure, explained; the latest (lab_records)
// Runs, predictions and figures are never deleted, nor a run's lab, variant or start
// changed (version 14); a verdict is set when a run ends (once more by a Slurm login node).
void add_summaries(sqlite3* db) {
  sql::exec(db, R"sql(
CREATE TABLE first_predictions(lab TEXT NOT NULL, prediction TEXT NOT NULL, prediction_id INTEGER NOT NULL,
  PRIMARY KEY(lab, prediction)) WITHOUT ROWID;
INSERT INTO first_predictions SELECT lab, prediction, MIN(id) FROM predictions GROUP BY lab, prediction;
CREATE TRIGGER first_prediction_kept AFTER INSERT ON predictions BEGIN
  INSERT INTO first_predictions(lab, prediction, prediction_id) VALUES(NEW.lab, NEW.prediction, NEW.id)
    ON CONFLICT(lab, prediction) DO UPDATE SET prediction_id = MIN(prediction_id, excluded.prediction_id);
END;
CREATE TABLE lab_summary(lab TEXT PRIMARY KEY, runs INTEGER NOT NULL, passes INTEGER NOT NULL,
  measured INTEGER NOT NULL, explained INTEGER NOT NULL, last_id INTEGER NOT NULL, last_at TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO lab_summary
  SELECT r.lab, COUNT(*), TOTAL(r.verdict = 'pass'),
    TOTAL(EXISTS (SELECT 1 FROM metrics m WHERE m.run_id = r.id AND m.value IS NOT NULL)),
    TOTAL(EXISTS (SELECT 1 FROM explanations e WHERE e.run_id = r.id)), MAX(r.id), MAX(r.started_at)
  FROM runs r WHERE r.variant <> 'solution' GROUP BY r.lab;
CREATE TRIGGER lab_summary_run AFTER INSERT ON runs WHEN NEW.variant <> 'solution' BEGIN
  INSERT INTO lab_summary VALUES(NEW.lab, 1, COALESCE(NEW.verdict = 'pass', 0), 0, 0, NEW.id, NEW.started_at)
    ON CONFLICT(lab) DO UPDATE SET runs = runs + 1, passes = passes + excluded.passes,
      last_id = MAX(last_id, excluded.last_id), last_at = MAX(last_at, excluded.last_at);
END;
CREATE TRIGGER lab_summary_verdict AFTER UPDATE OF verdict ON runs
  WHEN NEW.variant <> 'solution' AND NEW.verdict IS NOT OLD.verdict BEGIN
  UPDATE lab_summary SET passes = passes + COALESCE(NEW.verdict = 'pass', 0) - COALESCE(OLD.verdict = 'pass', 0)
    WHERE lab = NEW.lab;
END;
CREATE TRIGGER lab_summary_measured AFTER INSERT ON metrics WHEN NEW.value IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM metrics m WHERE m.run_id = NEW.run_id AND m.value IS NOT NULL AND m.rowid <> NEW.rowid)
BEGIN
  UPDATE lab_summary SET measured = measured + 1
    WHERE lab = (SELECT lab FROM runs WHERE id = NEW.run_id AND variant <> 'solution');
END;
CREATE TRIGGER lab_summary_explained AFTER INSERT ON explanations
  WHEN NOT EXISTS (SELECT 1 FROM explanations e WHERE e.run_id = NEW.run_id AND e.rowid <> NEW.rowid) BEGIN
  UPDATE lab_summary SET explained = explained + 1
    WHERE lab = (SELECT lab FROM runs WHERE id = NEW.run_id AND variant <> 'solution');
END;
CREATE TRIGGER lab_summary_unexplained AFTER DELETE ON explanations
  WHEN NOT EXISTS (SELECT 1 FROM explanations e WHERE e.run_id = OLD.run_id) BEGIN
  UPDATE lab_summary SET explained = explained - 1
    WHERE lab = (SELECT lab FROM runs WHERE id = OLD.run_id AND variant <> 'solution');
END;
)sql");
}

using Migration = void (*)(sqlite3*);

// migrations[i] brings a journal from version i to version i + 1.
const Migration kMigrations[] = {
    [](sqlite3* db) { sql::exec(db, kVersion1); },
    [](sqlite3* db) { sql::exec(db, kVersion2); },
    migrate_to_3,
    [](sqlite3* db) { sql::exec(db, kVersion4); },
    [](sqlite3* db) { sql::exec(db, kVersion5); },
    add_hint_log,
    add_solution_gate,
    add_run_machine,
    add_handins,
    add_prediction_seen,
    add_experiments,
    add_explanation_feedback,
    add_first_prediction_indexes,
    add_ended_run_guards,
    add_lab_references,
    add_summaries,
};
static_assert(static_cast<int>(std::size(kMigrations)) == kSchemaVersion, "one migration per version");

[[noreturn]] void refuse_newer(const std::filesystem::path& file, int version) {
  throw Error(Exit::usage,
              fmt::format("the journal {} was written by a newer workbook (schema version {}; this workbook knows "
                          "versions up to {})",
                          file.string(), version, kSchemaVersion),
              "update workbook on this machine (pull and rebuild the runner) before using this workspace");
}

}  // namespace

std::string SyncedTable::parent_uid_key() const {
  const std::string suffix = "_id";
  if (parent_column.size() > suffix.size() && parent_column.compare(parent_column.size() - 3, 3, suffix) == 0) {
    return parent_column.substr(0, parent_column.size() - 3) + "_uid";
  }
  return parent_column + "_uid";
}

const std::vector<SyncedTable>& synced_tables() {
  static const std::vector<SyncedTable> tables = {
      {"runs", "", ""},
      {"predictions", "runs", "run_id"},
      {"checks", "runs", "run_id"},
      {"metrics", "runs", "run_id"},
      {"prediction_grades", "runs", "run_id"},
      {"explanations", "runs", "run_id"},
      {"calibrations", "", ""},
      {"calibration_figures", "calibrations", "calibration_id"},
      {"learn_revlog", "", ""},
      {"learn_follow", "", ""},
      {"learn_drills", "", ""},
      {"slurm_jobs", "runs", "run_id"},
      {"run_gpu_state", "runs", "run_id"},
      {"hints_shown", "", ""},
      {"solution_views", "", ""},
      {"readings", "", ""},
      {"run_machine", "runs", "run_id"},
      {"handins", "", ""},
      {"experiment_runs", "", ""},
      {"experiment_predictions", "experiment_runs", "experiment_run_id"},
      {"experiment_results", "experiment_runs", "experiment_run_id"},
      {"experiment_explanations", "experiment_runs", "experiment_run_id"},
      {"learn_nudges", "", ""},
      {"lab_references", "", ""},
  };
  return tables;
}

int stored_schema_version(sqlite3* db) {
  sql::Statement has_meta(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'");
  if (!has_meta.next()) return 0;
  sql::Statement v(db, "SELECT value FROM meta WHERE key='schema_version'");
  if (!v.next()) return 0;
  return static_cast<int>(v.integer(0));
}

void migrate_schema(sqlite3* db, const std::filesystem::path& file, int target) {
  int version = stored_schema_version(db);
  if (version > kSchemaVersion) refuse_newer(file, version);
  if (version >= target) return;
  // Rebuilding tables needs foreign keys off (a no-op inside a transaction), checked after.
  sql::exec(db, "PRAGMA foreign_keys=OFF;");
  {
    sql::Transaction transaction(db);
    version = stored_schema_version(db);  // another process may have migrated meanwhile
    if (version > kSchemaVersion) refuse_newer(file, version);
    sql::exec(db, "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);");
    const int goal = std::max(version, std::min(target, kSchemaVersion));  // never a downgrade
    for (int v = version; v < goal; ++v) kMigrations[v](db);
    sql::Statement broken(db, "PRAGMA foreign_key_check");
    if (broken.next()) {
      throw Error(Exit::io_error,
                  fmt::format("upgrading the journal {} left a row of {} pointing at a missing {} row", file.string(),
                              broken.text(0), broken.text(2)),
                  "nothing was changed; keep a copy of the journal and report this as a bug");
    }
    sql::Statement(db, "INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', ?)")
        .bind(std::to_string(goal))
        .run();
    transaction.commit();
  }
  sql::exec(db, "PRAGMA foreign_keys=ON;");
}

}  // namespace workbook
