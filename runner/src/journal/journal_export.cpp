// Exporting a journal's synced rows (see journal_export.hpp).
#include "journal/journal_export.hpp"

#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <climits>
#include <cmath>

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

// The rows of one table, oldest first; the parent's uid replaces the local parent id.
nlohmann::json table_rows(sqlite3* db, const SyncedTable& t) {
  const std::string query =
      t.parent_table.empty()
          ? fmt::format("SELECT t.* FROM {} t ORDER BY t.rowid", t.name)
          : fmt::format("SELECT t.*, p.uid FROM {} t LEFT JOIN {} p ON p.id = t.{} ORDER BY t.rowid", t.name,
                        t.parent_table, t.parent_column);
  sql::Statement s(db, query.c_str());
  nlohmann::json rows = nlohmann::json::array();
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
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::string machine_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

nlohmann::json export_journal(Journal& journal, const std::string& machine) {
  sqlite3* db = journal.store_connection();
  // One read transaction: every table from the same moment, even while a run writes.
  sql::exec(db, "BEGIN;");
  nlohmann::json tables = nlohmann::json::object();
  try {
    for (const auto& t : synced_tables()) tables[t.name] = table_rows(db, t);
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK;", nullptr, nullptr, nullptr);
    throw;
  }
  sql::exec(db, "COMMIT;");
  return {{"format", kJournalExportFormat},
          {"schema_version", stored_schema_version(db)},
          {"exported_at", utc_now()},
          {"machine", machine},
          {"tables", std::move(tables)}};
}

}  // namespace workbook
