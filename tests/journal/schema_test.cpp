// Tests for journal/schema: a journal written before schema version 3 (the SQL fixture
// tests/fixtures/journal_v1.sql) opens, is upgraded in place, keeps every row and gains a
// uid on each; an upgraded journal has exactly the schema of a fresh one; a newer
// journal is refused and left as it was.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "device/calibration.hpp"
#include "journal/journal.hpp"
#include "journal/journal_queries.hpp"
#include "journal/schema.hpp"
#include "learn/review_store.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"

#include "../support/temp_dir.hpp"
#include "../support/undo_migrations.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using wbtest::TempDir;

namespace {

// Every row of a query, its columns joined with '|' (NULL as "NULL").
std::vector<std::string> rows(sqlite3* db, const std::string& sql) {
  std::vector<std::string> out;
  char* err = nullptr;
  int rc = sqlite3_exec(
      db, sql.c_str(),
      [](void* p, int n, char** values, char**) {
        std::string line;
        for (int i = 0; i < n; ++i) line += (i ? "|" : "") + std::string(values[i] ? values[i] : "NULL");
        static_cast<std::vector<std::string>*>(p)->push_back(line);
        return 0;
      },
      &out, &err);
  std::string msg = err ? err : "";
  sqlite3_free(err);
  INFO(sql << ": " << msg);
  REQUIRE(rc == SQLITE_OK);
  return out;
}

std::string one(sqlite3* db, const std::string& sql) {
  auto r = rows(db, sql);
  return r.empty() ? "(no row)" : r.front();
}

// A database file made from an SQL script with the plain SQLite API (no workbook code).
void load_sql(const fs::path& db_file, const std::string& script) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(db_file.c_str(), &db) == SQLITE_OK);
  char* err = nullptr;
  int rc = sqlite3_exec(db, script.c_str(), nullptr, nullptr, &err);
  std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  INFO(msg);
  REQUIRE(rc == SQLITE_OK);
}

std::string fixture_v1() {
  auto text = read_file_text(fs::path(WORKBOOK_FIXTURE_DIR) / "journal_v1.sql");
  REQUIRE(text);
  return *text;
}

// The schema as SQLite keeps it: every table, index and trigger with its SQL, sorted.
std::vector<std::string> schema_of(sqlite3* db) {
  return rows(db, "SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master ORDER BY type, name");
}

const char* const kV1Tables[] = {"runs",         "predictions", "checks",       "metrics",     "prediction_grades",
                                 "calibrations", "calibration_figures", "explanations", "learn_revlog",
                                 "learn_follow", "learn_drills"};

}  // namespace

TEST_CASE("a version-1 journal is upgraded and keeps every row, each with a new uid", "[journal][schema]") {
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  load_sql(file, fixture_v1());
  std::vector<std::string> before;
  {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    for (const char* t : kV1Tables) {
      for (auto& r : rows(db, std::string("SELECT * FROM ") + t + " ORDER BY rowid")) before.push_back(t + (": " + r));
    }
    sqlite3_close(db);
  }
  REQUIRE(before.size() == 20);

  Journal j(file);
  sqlite3* db = j.store_connection();
  CHECK(stored_schema_version(db) == kSchemaVersion);
  CHECK(one(db, "PRAGMA foreign_keys") == "1");
  // The same rows, column for column, now followed by a uid; the uids are all different.
  std::vector<std::string> after;
  std::set<std::string> uids;
  for (const char* t : kV1Tables) {
    // The version-1 columns and the uid, without the columns later versions add.
    std::string columns;
    for (const auto& c : rows(db, std::string("SELECT name FROM pragma_table_info('") + t +
                                      "') WHERE name NOT IN ('after_measurement', 'prediction_uid', 'feedback', 'entered')")) {
      columns += (columns.empty() ? "" : ", ") + c;
    }
    for (auto& r : rows(db, "SELECT " + columns + " FROM " + t + " ORDER BY rowid")) {
      const std::string uid = r.substr(r.rfind('|') + 1);
      CHECK(uid.size() == 32);
      CHECK(uid.find_first_not_of("0123456789abcdef") == std::string::npos);
      uids.insert(uid);
      after.push_back(t + (": " + r.substr(0, r.rfind('|'))));
    }
  }
  CHECK(after == before);
  CHECK(uids.size() == before.size());
  // learn_cards is derived state: kept as it was, without a uid.
  CHECK(one(db, "SELECT module, item, reps, due FROM learn_cards") == "3|warp_size|2|2025-11-23");

  // The journal works as before: reads, immutable predictions, children of old runs.
  auto preds = predictions_of_run(j, 1);
  REQUIRE(preds.size() == 2);
  CHECK(preds[0].answer == "900");
  auto explanations = explanations_of_run(j, 1);
  REQUIRE(explanations.size() == 1);
  CHECK(explanations[0].text == "memory bound: two loads per add");
  char* err = nullptr;
  CHECK(sqlite3_exec(db, "UPDATE predictions SET answer='1' WHERE id=1", nullptr, nullptr, &err) != SQLITE_OK);
  sqlite3_free(err);
  CHECK(sqlite3_exec(db, "DELETE FROM predictions", nullptr, nullptr, &err) != SQLITE_OK);
  sqlite3_free(err);
  long long run = j.begin_run({"module01/pass_lab", "starter", "x.cpp", "{}", 1, "", ""});
  CHECK(run == 3);
  j.record_prediction(run, "module01/pass_lab", {"count_guess", "10", 10.0});
  CHECK(one(db, "SELECT length(uid) FROM predictions WHERE run_id=3") == "32");
  CHECK(sqlite3_exec(db, "INSERT INTO checks(run_id, name, reported, pass) VALUES(99, 'x', 1, 1)", nullptr, nullptr,
                     &err) != SQLITE_OK);  // foreign keys are on again
  sqlite3_free(err);
  auto cal = latest_calibration(j, "GPU-1234");
  REQUIRE(cal);
  CHECK(cal->figure("d2d_gbps") == std::optional<double>(240.5));
  learn::ReviewStore store(j);
  CHECK(one(db, "SELECT COUNT(*) FROM learn_revlog") == "2");
  CHECK(store.follow_progress(5, "tiling") == 2);
  CHECK(store.drill_attempts(7, "coalescing").size() == 1);
}

TEST_CASE("an upgraded journal has exactly the schema of a fresh one", "[journal][schema]") {
  TempDir dir;
  load_sql(dir.path / "old.db", fixture_v1());
  Journal old_one(dir.path / "old.db");
  Journal fresh(dir.path / "fresh.db");
  CHECK(schema_of(old_one.store_connection()) == schema_of(fresh.store_connection()));
}

TEST_CASE("a version-1 journal that never held a review gains the learning tables", "[journal][schema]") {
  TempDir dir;
  std::string script = fixture_v1();
  script = script.substr(0, script.find("CREATE TABLE IF NOT EXISTS learn_cards")) + "INSERT INTO meta VALUES('schema_version', 1);";
  load_sql(dir.path / "journal.db", script);
  Journal j(dir.path / "journal.db");
  CHECK(stored_schema_version(j.store_connection()) == kSchemaVersion);
  learn::ReviewStore store(j);
  learn::ReviewInput in;
  in.module = 2;
  in.item = "x";
  store.record(in, fsrs::Scheduler(), 1'790'000'000);
  CHECK(one(j.store_connection(), "SELECT COUNT(*) FROM learn_revlog") == "1");
}

TEST_CASE("opening a current journal again changes nothing", "[journal][schema]") {
  TempDir dir;
  std::string uid;
  {
    Journal j(dir.path / "journal.db");
    j.begin_run({"module01/pass_lab", "starter", "x.cpp", "{}", 1, "", ""});
    uid = one(j.store_connection(), "SELECT uid FROM runs");
  }
  Journal again(dir.path / "journal.db");
  CHECK(one(again.store_connection(), "SELECT uid FROM runs") == uid);
}

TEST_CASE("a journal from a newer schema is refused with what to do, and left as it was", "[journal][schema]") {
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  load_sql(file, fixture_v1() + "UPDATE meta SET value='" + std::to_string(kSchemaVersion + 1) +
                     "' WHERE key='schema_version';");
  try {
    Journal j(file);
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(std::string(e.what()).find("newer workbook") != std::string::npos);
    CHECK(std::string(e.what()).find(file.string()) != std::string::npos);
    CHECK(e.hint().find("update workbook") != std::string::npos);
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
  CHECK(one(db, "SELECT COUNT(*) FROM pragma_table_info('runs') WHERE name='uid'") == "0");
  sqlite3_close(db);
}

TEST_CASE("a journal of the version before add_run_machine is upgraded: old clock rows kept, no machine", "[journal][schema][machine]") {
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  {  // The previous version, made from a current journal by undoing add_run_machine.
    Journal j(file);
    const long long run = j.begin_run({"module04/vector_add", "starter", "x.cu", "{}", 1, "NVIDIA H200", "sm_90"});
    sqlite3* db = j.store_connection();
    // (and every later migration: add_handins, version 9; add_experiments, version 11)
    REQUIRE(sqlite3_exec(db,
                         (wbtest::undo_migrations_after_13() +  // versions 16 to 14
                          "DROP INDEX predictions_first; DROP INDEX prediction_grades_by_run; DROP INDEX prediction_grades_by_uid; "  // version 13
 "DROP TABLE learn_nudges; ALTER TABLE explanations DROP COLUMN feedback; "  // version 12
                          "DROP TABLE experiment_explanations; DROP TABLE experiment_results; "
                          "DROP TABLE experiment_predictions; DROP TABLE experiment_runs; DROP TABLE handins; DROP TABLE run_machine; ALTER TABLE run_gpu_state DROP COLUMN power_limit_w; "
                          "DROP INDEX predictions_by_lab; ALTER TABLE predictions DROP COLUMN after_measurement; "
                          "ALTER TABLE prediction_grades DROP COLUMN prediction_uid; "
                          "INSERT INTO run_gpu_state(run_id, phase, sm_mhz, reason_names, throttled, power_w, pstate, tool) "
                          "VALUES(" + std::to_string(run) + ", 'before', 1980, '', 0, 118.5, 'P0', 'none'); "
                          "UPDATE meta SET value='7' WHERE key='schema_version';")  // add_run_machine is 8
                             .c_str(),
                         nullptr, nullptr, nullptr) == SQLITE_OK);
  }
  Journal j(file);
  sqlite3* db = j.store_connection();
  CHECK(stored_schema_version(db) == kSchemaVersion);
  CHECK(one(db, "SELECT sm_mhz, power_w, pstate, power_limit_w IS NULL FROM run_gpu_state") == "1980.0|118.5|P0|1");
  CHECK(one(db, "SELECT count(*) FROM run_machine") == "0");
  CHECK(one(db, "SELECT count(*) FROM pragma_table_info('run_machine')") == "6");
}
