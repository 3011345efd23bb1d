// Tests for journal/views and the "gate" migration: solution views and readings are
// recorded and travel between machines; an older journal gains the tables and keeps its
// old activity as the only ground for an inferred reading; a fresh one infers nothing.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <fstream>

#include "journal/journal_export.hpp"
#include "journal/schema.hpp"
#include "journal/views.hpp"
#include "learn/journal_merge.hpp"
#include "learn/review_store.hpp"
#include "util/file_text.hpp"

#include "../support/export_document.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using wbtest::TempDir;

namespace {

// A journal file made from the version-1 SQL fixture (a journal from before the gate).
void load_v1(const fs::path& db_file) {
  auto script = read_file_text(fs::path(WORKBOOK_FIXTURE_DIR) / "journal_v1.sql");
  REQUIRE(script);
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(db_file.c_str(), &db) == SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, script->c_str(), nullptr, nullptr, &err);
  sqlite3_free(err);
  sqlite3_close(db);
  REQUIRE(rc == SQLITE_OK);
}

}  // namespace

TEST_CASE("gate migration: an older journal's activity of that time still counts as read, later activity does not",
          "[journal][gate]") {
  TempDir dir;
  load_v1(dir.path / "journal.db");
  Journal j(dir.path / "journal.db");
  CHECK(stored_schema_version(j.store_connection()) == kSchemaVersion);
  // the fixture: a run of module01/pass_lab (starter) and one of fail_lab's solution,
  // reviews of a module 3 item, worked-example steps of module 5
  CHECK(modules_read_before_records(j) == std::set<int>{1, 3, 5});
  CHECK(modules_read(j).empty());
  CHECK(solution_views(j).empty());
  // Activity recorded after the upgrade implies nothing.
  j.begin_run({"module07/lab", "starter", "x.cu", "{}", 1, "", ""});
  learn::ReviewStore(j).record_follow_step({9, "ex", 0, "1", 1, 1}, 1764547200);
  CHECK(modules_read_before_records(j) == std::set<int>{1, 3, 5});
  record_reading(j, 7);
  CHECK(modules_read(j) == std::set<int>{7});
}

TEST_CASE("gate: a fresh journal infers no reading, and views and attempts are recorded", "[journal][gate]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  j.begin_run({"module04/vecadd", "starter", "x.cu", "{}", 1, "", ""});
  CHECK(modules_read_before_records(j).empty());

  CHECK_FALSE(has_attempt(j, "module14/tiled_gemm"));
  j.begin_run({"module14/tiled_gemm", "solution", "s.cu", "{}", 1, "", ""});
  j.begin_run({"module14/tiled_gemm", "variant", "v.cu", "{}", 1, "", ""});
  CHECK_FALSE(has_attempt(j, "module14/tiled_gemm"));  // the reference and authors' variants are not attempts
  record_solution_view(j, "module14/tiled_gemm", "full", true);
  // Runs that never reached the GPU are no attempt: unfinished, a compile error, NOT RUN.
  const long long unfinished = j.begin_run({"module14/tiled_gemm", "starter", "mine.cu", "{}", 1, "", ""});
  CHECK_FALSE(has_attempt(j, "module14/tiled_gemm"));
  j.finish_run(unfinished, Verdict::not_run, 2, "no GPU");
  const long long broken = j.begin_run({"module14/tiled_gemm", "starter", "mine.cu", "{}", 1, "", ""});
  j.finish_run(broken, Verdict::compile_error, 3, "");
  CHECK_FALSE(has_attempt(j, "module14/tiled_gemm"));
  const long long ran = j.begin_run({"module14/tiled_gemm", "starter", "mine.cu", "{}", 1, "", ""});
  j.finish_run(ran, Verdict::fail, 1, "check failed");
  CHECK(has_attempt(j, "module14/tiled_gemm"));
  record_solution_view(j, "module14/tiled_gemm", "diff", false);
  record_solution_view(j, "module04/vecadd", "run", false);
  auto views = solution_views(j, "module14/tiled_gemm");
  REQUIRE(views.size() == 2);
  CHECK(views[0].shown == "full");
  CHECK(views[0].before_attempt);
  CHECK(views[1].shown == "diff");
  CHECK_FALSE(views[1].before_attempt);
  CHECK(views[1].viewed_at.size() == 24);
  CHECK(solution_views(j).size() == 3);
}

TEST_CASE("gate: solution views and readings travel with journal export and import", "[journal][gate]") {
  TempDir dir;
  {
    Journal a(dir.path / "a.db");
    record_solution_view(a, "module14/tiled_gemm", "full", true);
    record_reading(a, 14);
    std::ofstream(dir.path / "a.json") << wbtest::export_document(a, "a").dump();
  }
  Journal b(dir.path / "b.db");
  record_reading(b, 3);
  learn::merge_journal_files(b, {dir.path / "a.json"});
  CHECK(modules_read(b) == std::set<int>{3, 14});
  REQUIRE(solution_views(b).size() == 1);
  CHECK(solution_views(b)[0].before_attempt);
  learn::merge_journal_files(b, {dir.path / "a.json"});  // again: nothing doubles
  CHECK(solution_views(b).size() == 1);
}
