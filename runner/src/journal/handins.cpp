// Hand-in marks, in the journal (see handins.hpp).
#include "journal/handins.hpp"

#include "journal/sqlite_statement.hpp"

namespace workbook {

std::map<std::string, HandinMark> handin_marks(Journal& journal) {
  // Oldest first: each later row of an item replaces the one before.
  sql::Statement s(journal.store_connection(), "SELECT item, handed_in, recorded_at FROM handins ORDER BY recorded_at, id");
  std::map<std::string, HandinMark> out;
  while (s.next()) out[s.text(0)] = {s.integer(1) != 0, s.text(2)};
  return out;
}

std::map<std::string, std::string> handed_in_items(Journal& journal) {
  std::map<std::string, std::string> out;
  for (const auto& [item, mark] : handin_marks(journal)) {
    if (mark.handed_in) out[item] = mark.recorded_at;
  }
  return out;
}

bool record_handin(Journal& journal, const std::string& item, bool handed_in, const std::string& recorded_at) {
  const auto marks = handin_marks(journal);
  const auto it = marks.find(item);
  const bool now = it != marks.end() && it->second.handed_in;
  if (now == handed_in) return false;
  sql::Statement(journal.store_connection(), "INSERT INTO handins(item, handed_in, recorded_at) VALUES(?,?,?)")
      .bind(item).bind(handed_in).bind(recorded_at.empty() ? utc_now() : recorded_at).run();
  return true;
}

}  // namespace workbook
