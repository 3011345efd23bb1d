// Exporting a journal's synced rows (see journal_export.hpp).
#include "journal/journal_export.hpp"

#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <functional>
#include <utility>

#include "journal/schema.hpp"
#include "journal/sqlite_statement.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

nlohmann::json column_value(const sql::Statement& s, int col) {
  switch (s.type(col)) {
    case SQLITE_NULL: return nullptr;
    case SQLITE_INTEGER: return s.integer(col);
    case SQLITE_FLOAT: {
      const double v = s.real(col);
      if (std::isfinite(v)) return v;
      return v > 0 ? "inf" : "-inf";
    }
    default: return s.learner_text(col);  // an old journal may hold bytes that are not UTF-8
  }
}

// Calls `each` with every row of one table, oldest first; the parent's uid replaces the
// local parent id.
void visit_table(sqlite3* db, const SyncedTable& t, const std::function<void(nlohmann::json&&)>& each) {
  const std::string query =
      t.parent_table.empty()
          ? fmt::format("SELECT t.* FROM {} t ORDER BY t.rowid", t.name)
          : fmt::format("SELECT t.*, p.uid FROM {} t LEFT JOIN {} p ON p.id = t.{} ORDER BY t.rowid", t.name,
                        t.parent_table, t.parent_column);
  sql::Statement s(db, query.c_str());
  while (s.next()) {
    nlohmann::json row = nlohmann::json::object();
    const int own = t.parent_table.empty() ? s.columns() : s.columns() - 1;
    for (int c = 0; c < own; ++c) {
      const std::string name = s.column_name(c);
      if (name == "id" || name == t.parent_column) continue;
      row[name] = column_value(s, c);
    }
    if (!t.parent_table.empty()) {
      if (s.null(own)) {
        throw Error(Exit::io_error,
                    fmt::format("the journal's {} row {} points at a {} row that does not exist", t.name,
                                row.value("uid", std::string()), t.parent_table),
                    "the journal is damaged; restore it from a backup");
      }
      row[t.parent_uid_key()] = s.learner_text(own);
    }
    each(std::move(row));
  }
}

// Visits every synced table in one read transaction (every table from the same moment,
// even while a run writes): `table` before each table's rows, `row` for each of them.
// Returns the schema version read in it.
int visit_journal(Journal& journal, const std::function<void(const SyncedTable&)>& table,
                  const std::function<void(nlohmann::json&&)>& row) {
  sqlite3* db = journal.store_connection();
  sql::exec(db, "BEGIN;");
  int version = 0;
  try {
    version = stored_schema_version(db);
    for (const auto& t : synced_tables()) {
      table(t);
      visit_table(db, t, row);
    }
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK;", nullptr, nullptr, nullptr);
    throw;
  }
  sql::exec(db, "COMMIT;");
  return version;
}

}  // namespace

std::string machine_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

ExportSummary write_export(Journal& journal, const std::string& machine,
                           const std::function<void(const std::string&)>& write) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;  // written a megabyte at a time
  ExportSummary summary;
  summary.machine = machine;
  summary.exported_at = utc_now();
  std::string buffer = "{\n \"format\": " + nlohmann::json(kJournalExportFormat).dump() + ",\n \"tables\": {";
  long long* count = nullptr;
  summary.schema_version = visit_journal(
      journal,
      [&](const SyncedTable& t) {
        buffer += fmt::format("{}\n  {}: [", count == nullptr ? "" : "\n  ],", nlohmann::json(t.name).dump());
        count = &summary.rows[t.name];
      },
      [&](nlohmann::json&& row) {
        buffer += (*count)++ == 0 ? "\n   " : ",\n   ";
        buffer += row.dump();
        if (buffer.size() >= kChunk) write(std::exchange(buffer, std::string()));
      });
  buffer += count == nullptr ? "" : "\n  ]";
  // The head's other fields last: the schema version is read inside the transaction.
  buffer += fmt::format("\n }},\n \"schema_version\": {},\n \"exported_at\": {},\n \"machine\": {}\n}}\n",
                        summary.schema_version, nlohmann::json(summary.exported_at).dump(),
                        nlohmann::json(machine).dump());
  write(buffer);
  return summary;
}

}  // namespace workbook
