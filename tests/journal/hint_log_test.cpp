// Tests for journal/hint_log: the hints shown are recorded once per lab and hint, never
// changed or deleted, counted before a moment (a run's start), carried by journal
// export/import (a synced table with a uid), and a journal of the version before the
// hint log is upgraded in place with its rows kept.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "journal/hint_log.hpp"
#include "journal/journal.hpp"
#include "journal/journal_queries.hpp"
#include "journal/schema.hpp"
#include "util/file_text.hpp"

#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using wbtest::TempDir;

namespace {

const std::string kLab = "module05/find_the_bugs";

bool exec_ok(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);
  return rc == SQLITE_OK;
}

bool has_table(sqlite3* db, const std::string& name) {
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", -1, &s, nullptr) ==
          SQLITE_OK);
  sqlite3_bind_text(s, 1, name.c_str(), -1, SQLITE_TRANSIENT);
  const bool found = sqlite3_step(s) == SQLITE_ROW;
  sqlite3_finalize(s);
  return found;
}

long long count(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(s) == SQLITE_ROW);
  const long long n = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  return n;
}

// The first schema version that has the hints_shown table (found, not assumed, so the
// order the migrations are merged in does not matter).
int hint_log_version() {
  for (int v = 1; v <= kSchemaVersion; ++v) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
    migrate_schema(db, ":memory:", v);
    const bool found = has_table(db, "hints_shown");
    sqlite3_close(db);
    if (found) return v;
  }
  FAIL("no schema version creates hints_shown");
  return 0;
}

}  // namespace

TEST_CASE("the hint log records each hint of a lab once, in order", "[journal][hint]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  CHECK(record_hint_shown(j, kLab, 1, "2026-12-01T10:00:00.000Z"));
  CHECK_FALSE(record_hint_shown(j, kLab, 1, "2026-12-01T10:05:00.000Z"));  // seen already: no second row
  CHECK(record_hint_shown(j, kLab, 2, "2026-12-01T11:00:00.000Z"));
  CHECK(record_hint_shown(j, "module14/tiled_gemm", 1, "2026-12-01T09:00:00.000Z"));
  CHECK(record_hint_shown(j, kLab, 3));  // now, from the journal's clock

  const auto shown = hints_shown(j, kLab);
  REQUIRE(shown.size() == 3);
  CHECK(shown[0].hint == 1);
  CHECK(shown[0].shown_at == "2026-12-01T10:00:00.000Z");
  CHECK(shown[1].hint == 2);
  CHECK(shown[2].hint == 3);
  CHECK(shown[2].shown_at.size() == 24);  // "YYYY-MM-DDTHH:MM:SS.mmmZ", as runs' started_at
  CHECK(hints_shown(j, "module06/thread_mapping").empty());
  CHECK(count(j.store_connection(), "SELECT COUNT(*) FROM hints_shown") == 4);
  CHECK(count(j.store_connection(), "SELECT COUNT(*) FROM hints_shown WHERE length(uid) = 32") == 4);
}

TEST_CASE("the hint log counts the different hints seen before a moment", "[journal][hint]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  record_hint_shown(j, kLab, 1, "2026-12-01T10:00:00.000Z");
  record_hint_shown(j, kLab, 2, "2026-12-01T11:00:00.000Z");
  // An imported row can repeat a hint seen here: it is counted once.
  REQUIRE(exec_ok(j.store_connection(),
                  "INSERT INTO hints_shown(lab, hint, shown_at) VALUES('" + kLab + "', 1, '2026-12-01T12:00:00.000Z')"));
  CHECK(hints_used_before(j, kLab, "2026-12-01T09:59:59.999Z") == 0);
  CHECK(hints_used_before(j, kLab, "2026-12-01T10:00:00.000Z") == 1);  // at that very moment: counted
  CHECK(hints_used_before(j, kLab, "2026-12-01T10:30:00.000Z") == 1);
  CHECK(hints_used_before(j, kLab, "2026-12-02T00:00:00.000Z") == 2);
  CHECK(hints_used_before(j, "module14/tiled_gemm", "2026-12-02T00:00:00.000Z") == 0);
  CHECK(hints_shown(j, kLab).size() == 2);

  // A run's record carries the hints used before it began.
  const long long run = j.begin_run({kLab, "starter", "x.cu", "{}", 1, "", ""});
  const auto runs = run_details(j, kLab, 10);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].id == run);
  CHECK(runs[0].hints_used == 2);
}

TEST_CASE("hints shown cannot be changed or deleted", "[journal][hint]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  record_hint_shown(j, kLab, 1, "2026-12-01T10:00:00.000Z");
  sqlite3* db = j.store_connection();
  CHECK_FALSE(exec_ok(db, "UPDATE hints_shown SET hint = 2"));
  CHECK_FALSE(exec_ok(db, "DELETE FROM hints_shown"));
  CHECK_FALSE(exec_ok(db, "INSERT INTO hints_shown(lab, hint, shown_at) VALUES('x', 0, 'now')"));  // hints count from 1
  CHECK(count(db, "SELECT COUNT(*) FROM hints_shown") == 1);
  CHECK(hints_shown(j, kLab).at(0).hint == 1);
}

TEST_CASE("the hint log travels with journal export and import", "[journal][hint]") {
  const auto& tables = synced_tables();
  const auto it = std::find_if(tables.begin(), tables.end(), [](const SyncedTable& t) { return t.name == "hints_shown"; });
  REQUIRE(it != tables.end());
  CHECK(it->parent_table.empty());  // a hint belongs to a lab, not to a run
}

TEST_CASE("a journal of the version before the hint log is upgraded and keeps its rows", "[journal][hint][schema]") {
  const int version = hint_log_version();
  REQUIRE(version >= 2);
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  {
    const auto script = read_file_text(fs::path(WORKBOOK_FIXTURE_DIR) / "journal_v1.sql");
    REQUIRE(script);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    REQUIRE(exec_ok(db, *script));
    migrate_schema(db, file, version - 1);  // as the runner before the hint log left it
    CHECK(stored_schema_version(db) == version - 1);
    CHECK_FALSE(has_table(db, "hints_shown"));
    CHECK(count(db, "SELECT COUNT(*) FROM runs") == 2);
    sqlite3_close(db);
  }
  Journal j(file);
  sqlite3* db = j.store_connection();
  CHECK(stored_schema_version(db) == kSchemaVersion);
  CHECK(has_table(db, "hints_shown"));
  CHECK(count(db, "SELECT COUNT(*) FROM runs") == 2);
  CHECK(count(db, "SELECT COUNT(*) FROM hints_shown") == 0);
  // The old runs count the hints shown before them; a hint shown now is after both.
  CHECK(record_hint_shown(j, "module01/pass_lab", 1, "2000-01-01T00:00:00.000Z"));
  CHECK(record_hint_shown(j, "module01/pass_lab", 2));
  for (const auto& r : run_details(j, "module01/pass_lab", 10)) CHECK(r.hints_used == 1);
  CHECK(hints_shown(j, "module01/pass_lab").size() == 2);
}
