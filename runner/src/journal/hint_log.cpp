// Hints shown, in the journal (see hint_log.hpp).
#include "journal/hint_log.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

bool record_hint_shown(Journal& journal, const std::string& lab, int hint, const std::string& shown_at) {
  sqlite3* db = journal.store_connection();
  sql::Statement seen(db, "SELECT 1 FROM hints_shown WHERE lab=? AND hint=?");
  seen.bind(lab).bind(hint);
  if (seen.next()) return false;
  sql::Statement(db, "INSERT INTO hints_shown(lab, hint, shown_at) VALUES(?,?,?)")
      .bind(lab).bind(hint).bind(shown_at.empty() ? utc_now() : shown_at).run();
  return true;
}

std::vector<HintShown> hints_shown(Journal& journal, const std::string& lab) {
  // An import can bring a second row for a hint already seen here: the earliest counts.
  sql::Statement s(journal.store_connection(),
                   "SELECT hint, MIN(shown_at) AS first FROM hints_shown WHERE lab=? GROUP BY hint ORDER BY first, hint");
  s.bind(lab);
  std::vector<HintShown> out;
  while (s.next()) out.push_back({lab, static_cast<int>(s.integer(0)), s.text(1)});
  return out;
}

int hints_used_before(Journal& journal, const std::string& lab, const std::string& moment) {
  sql::Statement s(journal.store_connection(),
                   "SELECT COUNT(DISTINCT hint) FROM hints_shown WHERE lab=? AND shown_at<=?");
  s.bind(lab).bind(moment);
  return s.next() ? static_cast<int>(s.integer(0)) : 0;
}

}  // namespace workbook
