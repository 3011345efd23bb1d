// Read-only journal queries (see journal_queries.hpp).
#include "journal/journal_queries.hpp"

#include <fmt/format.h>

#include "journal/hint_log.hpp"
#include "journal/lab_predictions.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

using Stmt = sql::Statement;

// Read from lab_summary (schema version 16), which triggers keep as runs, figures and
// explanations are recorded: as many rows as labs. The pass over every run it replaces
// took 0.3 s at 100 k runs.
std::vector<LabRecord> lab_records(Journal& journal) {
  Stmt s(journal.store_connection(),
         "SELECT s.lab, s.runs, s.passes, s.measured, s.explained, COALESCE(l.verdict, 'unfinished'), s.last_at "
         "FROM lab_summary s JOIN runs l ON l.id = s.last_id ORDER BY s.lab");
  std::vector<LabRecord> out;
  while (s.next()) {
    out.push_back({s.text(0), s.int32(1), s.int32(2), s.int32(3), s.int32(4), s.text(5), s.text(6)});
  }
  return out;
}

namespace {

// The columns every run query reads, in RunRow's order.
constexpr const char* kRunColumns =
    "SELECT id, lab, variant, params, seed, device, arch, started_at, COALESCE(finished_at, ''), "
    "COALESCE(verdict, 'unfinished') FROM runs ";

std::vector<RunRow> read_runs(Stmt& s) {
  std::vector<RunRow> out;
  while (s.next()) {
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), static_cast<unsigned long long>(s.integer(4)),
                   s.text(5), s.text(6), s.text(7), s.text(8), s.text(9)});
  }
  return out;
}

}  // namespace

std::vector<RunRow> runs_in_scope(Journal& journal, const std::string& scope) {
  const std::string sql =
      std::string(kRunColumns) + "WHERE ?1 = '' OR lab = ?1 OR substr(lab, 1, length(?1) + 1) = ?1 || '/' ORDER BY id";
  Stmt s(journal.store_connection(), sql.c_str());
  s.bind(scope);
  return read_runs(s);
}

std::vector<RunRow> latest_runs(Journal& journal, const std::string& lab, int limit) {
  const std::string sql = std::string(kRunColumns) + "WHERE (?1 = '' OR lab = ?1) ORDER BY id DESC LIMIT ?2";
  Stmt s(journal.store_connection(), sql.c_str());
  s.bind(lab).bind(limit);
  return read_runs(s);
}

std::vector<MetricRow> metrics_of_run(Journal& journal, long long run_id) {
  Stmt s(journal.store_connection(),
         "SELECT name, unit, derived, value, lo, hi, status FROM metrics WHERE run_id=? ORDER BY rowid");
  s.bind(run_id);
  std::vector<MetricRow> out;
  while (s.next()) {
    out.push_back({s.text(0), s.text(1), s.integer(2) != 0, s.real_or_null(3), s.real_or_null(4), s.real_or_null(5),
                   s.text(6)});
  }
  return out;
}

namespace {

// Whether grade row g is of prediction p: named by its uid, or (older rows) the run's own.
constexpr const char* kGradeOf =
    "(g.prediction_uid = p.uid OR (g.prediction_uid IS NULL AND g.run_id = p.run_id AND g.prediction = p.prediction))";

// p is its lab's scored prediction of its id (journal/lab_predictions.hpp).
const std::string kIsFirst = std::string("p.id = ") + kScoredPredictionId;

}  // namespace

std::vector<PredictionRow> predictions_of_run(Journal& journal, long long run_id, PredictionSet which) {
  // A carried prediction (given with an earlier run): shown when this run graded it, or when
  // this run neither holds nor graded an answer of that id (it stood, e.g. a run not run).
  const std::string sql = fmt::format(
      "SELECT p.prediction, p.answer, p.number, g.run_id IS NOT NULL, g.measured, g.factor, COALESCE(g.band, ''), "
      "COALESCE(g.right_answer, ''), COALESCE(g.score, 0), COALESCE(g.max_score, 0), g.correct, p.run_id, "
      "p.recorded_at, {1}, p.after_measurement, COALESCE(p.entered, '') "
      "FROM runs r JOIN predictions p ON p.lab = r.lab JOIN runs pr ON pr.id = p.run_id "
      "LEFT JOIN prediction_grades g ON g.run_id = r.id AND {0} "
      "WHERE r.id = ?1 AND (p.run_id = r.id OR ({1} AND (pr.started_at < r.started_at OR "
      "(pr.started_at = r.started_at AND pr.id < r.id)) AND (g.run_id IS NOT NULL OR (NOT EXISTS (SELECT 1 FROM "
      "predictions o WHERE o.run_id = r.id AND o.prediction = p.prediction) AND NOT EXISTS (SELECT 1 FROM "
      "prediction_grades h WHERE h.run_id = r.id AND h.prediction = p.prediction))))) "
      "AND (?2 = 0 OR g.run_id IS NOT NULL) ORDER BY p.run_id = r.id, p.recorded_at, p.id",
      kGradeOf, kIsFirst);
  Stmt s(journal.store_connection(), sql.c_str());
  s.bind(run_id).bind(which == PredictionSet::graded ? 1 : 0);
  std::vector<PredictionRow> out;
  while (s.next()) {
    PredictionRow p;
    p.id = s.text(0);
    p.answer = s.learner_text(1);
    p.predicted = s.real_or_null(2);
    p.graded = s.integer(3) != 0;
    p.measured = s.real_or_null(4);
    p.factor = s.real_or_null(5);
    p.band = s.text(6);
    p.right_answer = s.text(7);
    p.score = s.int32(8);
    p.max_score = s.int32(9);
    if (!s.null(10)) p.correct = s.integer(10) != 0;
    p.run_id = s.integer(11);
    p.recorded_at = s.text(12);
    p.first = s.integer(13) != 0;
    p.after_measurement = s.integer(14) != 0;
    p.entered = s.learner_text(15);
    out.push_back(p);
  }
  return out;
}

std::vector<ExplanationRow> explanations_of_run(Journal& journal, long long run_id) {
  Stmt s(journal.store_connection(), "SELECT text, recorded_at, feedback FROM explanations WHERE run_id=? ORDER BY recorded_at, id");
  s.bind(run_id);
  std::vector<ExplanationRow> out;
  while (s.next()) out.push_back({s.learner_text(0), s.text(1), run_id, s.learner_text(2)});
  return out;
}

std::optional<CalibrationRow> latest_calibration_named(Journal& journal, const std::string& gpu_name) {
  Stmt s(journal.store_connection(), "SELECT id, gpu_name, measured_at, driver, arch, sm_clock_mhz FROM calibrations "
                                     "WHERE gpu_name=? ORDER BY id DESC LIMIT 1");
  s.bind(gpu_name);
  if (!s.next()) return std::nullopt;
  CalibrationRow c{s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.real_or_null(5), {}};
  Stmt f(journal.store_connection(), "SELECT name, value FROM calibration_figures WHERE calibration_id=?");
  f.bind(c.id);
  while (f.next()) c.figures[f.text(0)] = f.real(1);
  return c;
}

RunMachine machine_of_run(Journal& journal, long long run_id) {
  sqlite3* db = journal.store_connection();
  RunMachine m;
  Stmt s(db, "SELECT driver, cuda_driver, toolkit, power_source FROM run_machine WHERE run_id=?");
  s.bind(run_id);
  if (s.next()) {
    m.recorded = true;
    m.driver = s.text(0);
    m.cuda_driver = s.text(1);
    m.toolkit = s.text(2);
    m.power_source = s.text(3);
  }
  Stmt c(db, "SELECT sm_mhz, max_sm_mhz, mem_mhz, temp_c, power_w, power_limit_w, pstate, reason_names, throttled "
             "FROM run_gpu_state WHERE run_id=? ORDER BY phase = 'before' DESC LIMIT 1");
  c.bind(run_id);
  if (c.next()) {
    m.clocks = true;
    m.sm_mhz = c.real_or_null(0);
    m.max_sm_mhz = c.real_or_null(1);
    m.mem_mhz = c.real_or_null(2);
    m.temp_c = c.real_or_null(3);
    m.power_w = c.real_or_null(4);
    m.power_limit_w = c.real_or_null(5);
    m.pstate = c.text(6);
    m.reason_names = c.text(7);
    m.throttled = c.integer(8) != 0;
  }
  return m;
}

std::vector<RunDetail> run_details(Journal& journal, const std::string& lab, int limit) {
  std::vector<RunDetail> out;
  for (auto& row : latest_runs(journal, lab, limit)) {
    RunDetail r;
    static_cast<RunRow&>(r) = std::move(row);
    r.figures = metrics_of_run(journal, r.id);
    r.predictions = predictions_of_run(journal, r.id);  // a run not run shows what was predicted for it
    if (auto e = explanations_of_run(journal, r.id); !e.empty()) {
      r.explanation = e.back().text;
      r.explanation_feedback = e.back().feedback;
    }
    r.hints_used = hints_used_before(journal, r.lab, r.started_at);
    r.machine = machine_of_run(journal, r.id);
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

// Each lab's first prediction of each id, made before any measurement (and meeting
// `prediction_is`), with the grade of it from the first run whose grade meets `grade_is`:
// `columns` of p (predictions) and g (prediction_grades), oldest first.
// The first predictions are read from first_predictions (schema version 16, kept by a
// trigger), and their grades by two indexed joins (by the prediction's uid, or for grades
// older than uids by its run and id): the work follows the number of labs and prediction
// ids, not of runs. A window over every prediction took 1.0 s at 100 k runs; the
// correlated form before it (a scan of the grades per first prediction) 568 s.
std::string first_graded_sql(const char* columns, const char* grade_is, const char* prediction_is) {
  return fmt::format(
      "WITH firsts AS (SELECT p.id, p.run_id, p.prediction, p.uid FROM first_predictions fp JOIN predictions p "
      "ON p.id = fp.prediction_id WHERE p.after_measurement = 0 AND {2}), "
      "candidates AS (SELECT f.id AS pid, g.rowid AS grow, gr.started_at AS t, gr.id AS rid FROM firsts f "
      "JOIN prediction_grades g ON g.prediction_uid = f.uid JOIN runs gr ON gr.id = g.run_id WHERE {1} "
      "UNION ALL SELECT f.id, g.rowid, gr.started_at, gr.id FROM firsts f JOIN prediction_grades g "
      "ON g.prediction_uid IS NULL AND g.run_id = f.run_id AND g.prediction = f.prediction "
      "JOIN runs gr ON gr.id = g.run_id WHERE {1}), "
      "best AS (SELECT pid, grow FROM (SELECT pid, grow, ROW_NUMBER() OVER (PARTITION BY pid ORDER BY t, rid, grow) "
      "AS rn FROM candidates) WHERE rn = 1) "
      "SELECT {0} FROM best b JOIN predictions p ON p.id = b.pid JOIN prediction_grades g ON g.rowid = b.grow "
      "ORDER BY p.recorded_at, p.id",
      columns, grade_is, prediction_is);
}

}  // namespace

std::vector<PredictionOutcome> prediction_outcomes(Journal& journal) {
  const std::string sql = first_graded_sql(
      "g.run_id, p.lab, p.prediction, p.recorded_at, COALESCE(g.band, ''), p.number, g.measured, g.factor",
      "g.factor IS NOT NULL AND g.measured IS NOT NULL", "p.number IS NOT NULL");
  Stmt s(journal.store_connection(), sql.c_str());
  std::vector<PredictionOutcome> out;
  while (s.next()) {
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.real(5), s.real(6), s.real(7)});
  }
  return out;
}

std::vector<ChoiceOutcome> choice_outcomes(Journal& journal) {
  const std::string sql =
      first_graded_sql("g.run_id, p.lab, p.prediction, p.recorded_at, g.correct, p.answer, COALESCE(p.entered, '')",
                       "g.correct IS NOT NULL", "1");
  Stmt s(journal.store_connection(), sql.c_str());
  std::vector<ChoiceOutcome> out;
  while (s.next())
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), s.integer(4) != 0, s.learner_text(5), s.learner_text(6)});
  return out;
}

}  // namespace workbook
