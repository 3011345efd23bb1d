// Read-only queries for reports (see report_queries.hpp).
#include "journal/report_queries.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

using Stmt = sql::Statement;

std::vector<RunRow> runs_in_scope(Journal& journal, const std::string& scope) {
  Stmt s(journal.store_connection(),
         "SELECT id, lab, variant, params, seed, device, arch, started_at, COALESCE(finished_at, ''), "
         "COALESCE(verdict, 'unfinished') FROM runs "
         "WHERE ?1 = '' OR lab = ?1 OR substr(lab, 1, length(?1) + 1) = ?1 || '/' ORDER BY id");
  s.bind(scope);
  std::vector<RunRow> out;
  while (s.next()) {
    out.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), static_cast<unsigned long long>(s.integer(4)),
                   s.text(5), s.text(6), s.text(7), s.text(8), s.text(9)});
  }
  return out;
}

std::vector<MetricRow> metrics_of_run(Journal& journal, long long run_id) {
  Stmt s(journal.store_connection(), "SELECT name, unit, derived, value, lo, hi, status FROM metrics WHERE run_id=? ORDER BY rowid");
  s.bind(run_id);
  std::vector<MetricRow> out;
  while (s.next()) {
    out.push_back({s.text(0), s.text(1), s.integer(2) != 0, s.real_or_null(3), s.real_or_null(4), s.real_or_null(5), s.text(6)});
  }
  return out;
}

std::vector<PredictionRow> predictions_of_run(Journal& journal, long long run_id) {
  Stmt s(journal.store_connection(),
         "SELECT p.prediction, p.answer, p.number, g.run_id IS NOT NULL, g.measured, g.factor, COALESCE(g.band, ''), "
         "COALESCE(g.right_answer, ''), COALESCE(g.score, 0), COALESCE(g.max_score, 0), g.correct "
         "FROM predictions p LEFT JOIN prediction_grades g ON g.run_id = p.run_id AND g.prediction = p.prediction "
         "WHERE p.run_id=? ORDER BY p.id");
  s.bind(run_id);
  std::vector<PredictionRow> out;
  while (s.next()) {
    PredictionRow p;
    p.id = s.text(0);
    p.answer = s.text(1);
    p.number = s.real_or_null(2);
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
  while (s.next()) out.push_back({s.text(0), s.text(1)});
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

}  // namespace workbook
