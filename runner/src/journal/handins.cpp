// Hand-in marks, in the journal (see handins.hpp).
#include "journal/handins.hpp"

#include <fmt/format.h>

#include <chrono>
#include <ctime>

#include "journal/sqlite_statement.hpp"

namespace workbook {

std::string handin_horizon() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() + std::chrono::hours(24));
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}.999Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::map<std::string, HandinMark> handin_marks(Journal& journal) {
  // Oldest first: each later row of an item replaces the one before. A row dated past the
  // horizon (an import from a clock gone wrong, or a crafted 9999-12-31) is not believed:
  // it would stay the latest for good, and no undo could ever follow it.
  sql::Statement s(journal.store_connection(),
                   "SELECT item, handed_in, recorded_at FROM handins WHERE recorded_at <= ? ORDER BY recorded_at, id");
  s.bind(handin_horizon());
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
