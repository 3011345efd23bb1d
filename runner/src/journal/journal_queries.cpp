// Read-only journal queries (see journal_queries.hpp).
#include "journal/journal_queries.hpp"

#include "journal/hint_log.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

using Stmt = sql::Statement;

std::vector<LabRecord> lab_records(Journal& journal) {
  Stmt s(journal.store_connection(),
         "SELECT r.lab, COUNT(*), SUM(r.verdict = 'pass'), "
         "SUM(EXISTS(SELECT 1 FROM metrics m WHERE m.run_id = r.id AND m.value IS NOT NULL)), "
         "SUM(EXISTS(SELECT 1 FROM explanations e WHERE e.run_id = r.id)), "
         "(SELECT COALESCE(l.verdict, 'unfinished') FROM runs l WHERE l.lab = r.lab AND l.variant <> 'solution' "
         "ORDER BY l.id DESC LIMIT 1), MAX(r.started_at) "
         "FROM runs r WHERE r.variant <> 'solution' GROUP BY r.lab ORDER BY r.lab");
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

std::vector<PredictionRow> predictions_of_run(Journal& journal, long long run_id, PredictionSet which) {
  Stmt s(journal.store_connection(),
         "SELECT p.prediction, p.answer, p.number, g.run_id IS NOT NULL, g.measured, g.factor, COALESCE(g.band, ''), "
         "COALESCE(g.right_answer, ''), COALESCE(g.score, 0), COALESCE(g.max_score, 0), g.correct "
         "FROM predictions p LEFT JOIN prediction_grades g ON g.run_id = p.run_id AND g.prediction = p.prediction "
         "WHERE p.run_id = ?1 AND (?2 = 0 OR g.run_id IS NOT NULL) ORDER BY p.id");
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
    out.push_back(p);
  }
  return out;
}

std::vector<ExplanationRow> explanations_of_run(Journal& journal, long long run_id) {
  Stmt s(journal.store_connection(), "SELECT text, recorded_at FROM explanations WHERE run_id=? ORDER BY id");
  s.bind(run_id);
  std::vector<ExplanationRow> out;
  while (s.next()) out.push_back({s.learner_text(0), s.text(1)});
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
    r.predictions = predictions_of_run(journal, r.id, PredictionSet::graded);
    r.explanation = journal.explanation_of(r.id);
    r.hints_used = hints_used_before(journal, r.lab, r.started_at);
    r.machine = machine_of_run(journal, r.id);
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<PredictionOutcome> prediction_outcomes(Journal& journal) {
  Stmt s(journal.store_connection(),
         "SELECT g.run_id, r.lab, g.prediction, p.recorded_at, COALESCE(g.band, ''), p.number, g.measured, g.factor "
         "FROM prediction_grades g JOIN runs r ON r.id = g.run_id "
         "JOIN predictions p ON p.run_id = g.run_id AND p.prediction = g.prediction "
         "WHERE g.factor IS NOT NULL AND p.number IS NOT NULL AND g.measured IS NOT NULL ORDER BY p.id");
  std::vector<PredictionOutcome> out;
  while (s.next()) {
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), s.text(4), s.real(5), s.real(6), s.real(7)});
  }
  return out;
}

}  // namespace workbook
