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

std::vector<RunFigure> figures_of(sqlite3* db, long long run_id) {
  Stmt s(db, "SELECT name, unit, status, derived, value, lo, hi FROM metrics WHERE run_id = ? ORDER BY rowid");
  s.bind(run_id);
  std::vector<RunFigure> out;
  while (s.next()) {
    out.push_back({s.text(0), s.text(1), s.text(2), s.int32(3) != 0, s.real_or_null(4), s.real_or_null(5),
                   s.real_or_null(6)});
  }
  return out;
}

std::vector<RunPrediction> predictions_of(sqlite3* db, long long run_id) {
  Stmt s(db,
         "SELECT g.prediction, COALESCE(p.answer, ''), g.band, p.number, g.measured, g.factor, g.score, "
         "g.max_score, g.correct FROM prediction_grades g LEFT JOIN predictions p "
         "ON p.run_id = g.run_id AND p.prediction = g.prediction WHERE g.run_id = ? ORDER BY g.rowid");
  s.bind(run_id);
  std::vector<RunPrediction> out;
  while (s.next()) {
    RunPrediction p{s.text(0), s.text(1), s.text(2), s.real_or_null(3), s.real_or_null(4), s.real_or_null(5),
                    s.int32(6), s.int32(7), std::nullopt};
    if (!s.null(8)) p.correct = s.int32(8) != 0;
    out.push_back(p);
  }
  return out;
}

}  // namespace

std::vector<RunDetail> run_details(Journal& journal, const std::string& lab, int limit) {
  sqlite3* db = journal.store_connection();
  Stmt s(db,
         "SELECT id, lab, variant, started_at, COALESCE(verdict, 'unfinished'), device, arch, params FROM runs "
         "WHERE (?1 = '' OR lab = ?1) ORDER BY id DESC LIMIT ?2");
  s.bind(lab).bind(limit);
  std::vector<RunDetail> out;
  while (s.next()) {
    RunDetail r;
    r.id = s.integer(0);
    r.lab = s.text(1);
    r.variant = s.text(2);
    r.started_at = s.text(3);
    r.verdict = s.text(4);
    r.device = s.text(5);
    r.arch = s.text(6);
    r.params = s.text(7);
    out.push_back(std::move(r));
  }
  for (auto& r : out) {
    r.figures = figures_of(db, r.id);
    r.predictions = predictions_of(db, r.id);
    r.explanation = journal.explanation_of(r.id);
    r.hints_used = hints_used_before(journal, r.lab, r.started_at);
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
