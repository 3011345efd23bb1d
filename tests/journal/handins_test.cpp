// Tests for journal/handins (migration add_handins): marks and their undo are rows of
// their own, kept for good; an item's latest row decides; export/import merge them
// idempotently in both directions. Also the indexes the same migration adds, which keep
// `progress` linear in the number of runs.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <fstream>

#include "journal/handins.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "journal/sqlite_statement.hpp"
#include "util/error.hpp"

#include "../support/export_document.hpp"
#include "../support/temp_dir.hpp"
#include "../support/undo_migrations.hpp"

namespace fs = std::filesystem;
using namespace workbook;

namespace {

fs::path exported(Journal& j, const fs::path& file) {
  std::ofstream(file) << wbtest::export_document(j, file.stem().string()).dump();
  return file;
}

std::string plan_of(Journal& j, const std::string& query) {
  std::string plan;
  sql::Statement s(j.store_connection(), ("EXPLAIN QUERY PLAN " + query).c_str());
  while (s.next()) plan += s.text(3) + "\n";
  return plan;
}

}  // namespace

TEST_CASE("handins: a mark, its undo, and the latest row decides", "[journal][handin]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  CHECK(handed_in_items(j).empty());
  CHECK(record_handin(j, "a1", true, "2026-12-01T10:00:00.000Z"));
  CHECK(record_handin(j, "module16", true, "2026-12-01T10:00:01.000Z"));
  CHECK_FALSE(record_handin(j, "a1", true));   // already marked: no row
  CHECK_FALSE(record_handin(j, "a2", false));  // never marked: nothing to undo
  CHECK(handed_in_items(j) == std::map<std::string, std::string>{{"a1", "2026-12-01T10:00:00.000Z"},
                                                                  {"module16", "2026-12-01T10:00:01.000Z"}});
  CHECK(record_handin(j, "a1", false, "2026-12-01T11:00:00.000Z"));
  CHECK(handed_in_items(j).count("a1") == 0);
  CHECK(handin_marks(j).at("a1").recorded_at == "2026-12-01T11:00:00.000Z");
  // Kept for good: an undo is a new row, never an edit.
  CHECK_THROWS_AS(sql::exec(j.store_connection(), "DELETE FROM handins"), Error);
  CHECK_THROWS_AS(sql::exec(j.store_connection(), "UPDATE handins SET handed_in = 1"), Error);
}

TEST_CASE("handins travel with export/import, merge both ways and twice as once", "[journal][handin][sync]") {
  wbtest::TempDir dir;
  Journal a(dir.path / "a.db"), b(dir.path / "b.db");
  record_handin(a, "a1", true, "2026-12-01T10:00:00.000Z");
  record_handin(a, "a2", true, "2026-12-01T10:00:00.500Z");
  const fs::path from_a = exported(a, dir.path / "from_a.json");
  CHECK(import_journal_files(b, {from_a}).added("handins") == 2);
  CHECK(import_journal_files(b, {from_a}).added("handins") == 0);  // twice is once
  CHECK(handed_in_items(b).size() == 2);
  // On B, later: a2 was a mistake.
  record_handin(b, "a2", false, "2026-12-02T09:00:00.000Z");
  CHECK(import_journal_files(a, {exported(b, dir.path / "from_b.json")}).added("handins") == 1);
  CHECK(handed_in_items(a) == handed_in_items(b));
  CHECK(handed_in_items(a).count("a2") == 0);
  CHECK(handed_in_items(a).count("a1") == 1);
}

TEST_CASE("the queries progress makes per run and per lab use an index", "[journal][handin][bench]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  CHECK(plan_of(j, "SELECT 1 FROM metrics WHERE run_id = 1").find("metrics_by_run") != std::string::npos);
  CHECK(plan_of(j, "SELECT 1 FROM explanations WHERE run_id = 1").find("explanations_by_run") != std::string::npos);
  CHECK(plan_of(j, "SELECT verdict FROM runs WHERE lab = 'x' ORDER BY id DESC LIMIT 1").find("runs_by_lab") !=
        std::string::npos);
}

TEST_CASE("a version-8 journal gains the handins table and the indexes", "[journal][handin][schema]") {
  wbtest::TempDir dir;
  const fs::path file = dir.path / "journal.db";
  {
    Journal j(file);
    j.begin_run({"module04/vector_add", "starter", "x.cu", "{}", 1, "NVIDIA H200", "sm_90"});
    sql::exec(j.store_connection(),
              (wbtest::undo_migrations_after_13() +  // versions 16 to 14
              "DROP INDEX predictions_first; DROP INDEX prediction_grades_by_run; DROP INDEX prediction_grades_by_uid; "  // version 13
 "DROP TABLE learn_nudges; ALTER TABLE explanations DROP COLUMN feedback; "  // version 12
              "DROP TABLE experiment_explanations; DROP TABLE experiment_results; DROP TABLE experiment_predictions; "  // version 11
              "DROP TABLE experiment_runs; DROP TABLE handins; DROP INDEX metrics_by_run; DROP INDEX explanations_by_run; DROP INDEX runs_by_lab; "
              "DROP INDEX predictions_by_lab; ALTER TABLE predictions DROP COLUMN after_measurement; "
              "ALTER TABLE prediction_grades DROP COLUMN prediction_uid; "
              "UPDATE meta SET value='8' WHERE key='schema_version';").c_str());  // what version 8 held
  }
  Journal j(file);
  CHECK(record_handin(j, "a1", true));
  CHECK(plan_of(j, "SELECT 1 FROM metrics WHERE run_id = 1").find("metrics_by_run") != std::string::npos);
  sql::Statement runs(j.store_connection(), "SELECT COUNT(*) FROM runs");
  REQUIRE(runs.next());
  CHECK(runs.integer(0) == 1);
}

TEST_CASE("handins: a row dated past a day from now is not believed, so it never outlasts an undo",
          "[journal][handin]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  CHECK(handin_horizon() > utc_now());
  CHECK(record_handin(j, "a2", true, "9999-12-31T00:00:00.000Z"));  // as an import brings it
  CHECK(handed_in_items(j).empty());
  CHECK_FALSE(record_handin(j, "a2", false));  // nothing to undo: it does not count
  CHECK(record_handin(j, "a2", true));         // marked now: counts, and its undo works
  CHECK(handed_in_items(j).count("a2") == 1);
  CHECK(record_handin(j, "a2", false));
  CHECK(handed_in_items(j).empty());
}
