// What the learner was shown (see views.hpp).
#include "journal/views.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

using Stmt = sql::Statement;

bool has_attempt(Journal& journal, const std::string& lab) {
  Stmt s(journal.store_connection(),
         "SELECT 1 FROM runs WHERE lab=? AND variant NOT IN ('solution', 'variant') "
         "AND verdict IN ('pass', 'fail', 'out_of_range', 'runtime_error', 'timeout') LIMIT 1");
  return s.bind(lab).next();
}

void record_solution_view(Journal& journal, const std::string& lab, const std::string& shown, bool before_attempt) {
  Stmt(journal.store_connection(), "INSERT INTO solution_views(lab, shown, before_attempt, viewed_at) VALUES(?,?,?,?)")
      .bind(lab).bind(shown).bind(before_attempt).bind(utc_now()).run();
}

std::vector<SolutionView> solution_views(Journal& journal, const std::string& lab) {
  Stmt s(journal.store_connection(),
         "SELECT lab, shown, before_attempt, viewed_at FROM solution_views WHERE ?='' OR lab=? ORDER BY id");
  s.bind(lab).bind(lab);
  std::vector<SolutionView> out;
  while (s.next()) out.push_back({s.text(0), s.text(1), s.text(3), s.integer(2) != 0});
  return out;
}

void record_reading(Journal& journal, int module) {
  Stmt(journal.store_connection(), "INSERT INTO readings(module, read_at) VALUES(?,?)")
      .bind(module).bind(utc_now()).run();
}

std::set<int> modules_read(Journal& journal) {
  Stmt s(journal.store_connection(), "SELECT DISTINCT module FROM readings");
  std::set<int> out;
  while (s.next()) out.insert(static_cast<int>(s.integer(0)));
  return out;
}

std::set<int> modules_read_before_records(Journal& journal) {
  // The ids each table had reached when the "gate" migration ran (0 for a fresh journal).
  Stmt s(journal.store_connection(), R"sql(
    WITH upto(t, id) AS (SELECT substr(key, 15), CAST(value AS INTEGER) FROM meta WHERE key LIKE 'read_inferred_%')
    SELECT CAST(substr(lab, 7, instr(lab, '/') - 7) AS INTEGER) FROM runs
      WHERE lab LIKE 'module%/%' AND variant NOT IN ('solution', 'variant')
        AND id <= (SELECT id FROM upto WHERE t='runs')
    UNION SELECT module FROM learn_follow WHERE id <= (SELECT id FROM upto WHERE t='learn_follow')
    UNION SELECT module FROM learn_revlog WHERE id <= (SELECT id FROM upto WHERE t='learn_revlog'))sql");
  std::set<int> out;
  while (s.next()) out.insert(static_cast<int>(s.integer(0)));
  return out;
}

}  // namespace workbook
