// Journals and exports written to misbehave (issue 26): text that is not UTF-8 or holds a
// NUL, an import that adds a prediction to a run already here, files too deep, too large
// or not files at all, and SQLite failures that are the disk's state (a damaged journal,
// a full disk, a read-only journal), which must say so and exit 74.
#include <catch2/catch.hpp>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "journal/journal.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "journal/journal_queries.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"

#include "../support/export_document.hpp"
#include "../support/files.hpp"
#include "../support/temp_dir.hpp"
#include "../support/text_checks.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using nlohmann::json;
using wbtest::contains;
using wbtest::TempDir;
using wbtest::write_json;

namespace {

long long add_run(Journal& j, const std::string& prediction_text) {
  const long long run = j.begin_run({"module01/pass_lab", "starter", "/ws/pass_lab.cpp", "{}", 1, "Tesla T4", "sm_75"});
  j.record_prediction(run, "module01/pass_lab", {"count_guess", prediction_text, 900.0});
  j.finish_run(run, Verdict::pass, 0, "");
  return run;
}

void raw_sql(Journal& j, const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(j.store_connection(), sql.c_str(), nullptr, nullptr, &err);
  INFO(sql << ": " << (err ? err : ""));
  sqlite3_free(err);
  REQUIRE(rc == SQLITE_OK);
}

std::string single(Journal& j, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(j.store_connection(), sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  std::string out = "(no row)";
  if (sqlite3_step(s) == SQLITE_ROW) {
    const auto* p = sqlite3_column_text(s, 0);
    out = p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s, 0)))
            : "NULL";
  }
  sqlite3_finalize(s);
  return out;
}

// The Error an import throws (a failed REQUIRE when it throws none).
Error import_error(Journal& j, const fs::path& file) {
  try {
    import_journal_files(j, {file});
  } catch (const Error& e) {
    return e;
  }
  FAIL("the import of " << file << " was not refused");
  return Error(Exit::ok, "");
}

}  // namespace

TEST_CASE("text that is not UTF-8 is stored repaired, and an old journal that holds it still exports",
          "[journal][hostile][utf8]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  const long long run = add_run(j, "ab\xff" "c");
  j.record_explanation(run, "because \xc3 of the cache");
  CHECK(single(j, "SELECT answer FROM predictions") == "ab\xEF\xBF\xBD" "c");
  CHECK(single(j, "SELECT text FROM explanations") == "because \xEF\xBF\xBD of the cache");

  // An old journal: the raw byte went in before the door was checked.
  raw_sql(j, "INSERT INTO explanations(run_id, text, recorded_at) VALUES(" + std::to_string(run) +
                 ", CAST(X'6869FF21' AS TEXT), '2026-11-30T10:00:00.000Z')");
  json doc;
  REQUIRE_NOTHROW(doc = wbtest::export_document(j, "laptop"));
  std::string text;
  REQUIRE_NOTHROW(text = doc.dump(1));  // nlohmann refuses to print invalid UTF-8
  CHECK(contains(text, "hi\xEF\xBF\xBD!"));
  for (const auto& e : explanations_of_run(j, run)) CHECK(is_valid_utf8(e.text));  // what report.md prints
  for (const auto& r : run_details(j, "", 20)) CHECK(is_valid_utf8(r.explanation.value_or("")));  // what history prints
}

TEST_CASE("a NUL inside an imported explanation survives the export whole", "[journal][hostile][utf8]") {
  TempDir dir;
  Journal a(dir.path / "a.db");
  const long long run = add_run(a, "900");
  a.record_explanation(run, "placeholder");
  json doc = wbtest::export_document(a, "a");
  doc["tables"]["explanations"][0]["text"] = std::string("before\0after", 12);
  Journal b(dir.path / "b.db");
  import_journal_files(b, {write_json(dir.path / "a.json", doc)});
  const json back = wbtest::export_document(b, "b");
  CHECK(back["tables"]["explanations"][0]["text"].get<std::string>() == std::string("before\0after", 12));
}

TEST_CASE("an import that adds a prediction to a run already here is refused, all of it", "[journal][hostile]") {
  TempDir dir;
  Journal a(dir.path / "a.db");
  add_run(a, "900");
  json doc = wbtest::export_document(a, "a");
  Journal b(dir.path / "b.db");
  import_journal_files(b, {write_json(dir.path / "a.json", doc)});
  REQUIRE(single(b, "SELECT COUNT(*) FROM predictions") == "1");

  // The same export with a second, back-dated prediction for that run, and a new run.
  json late = doc["tables"]["predictions"][0];
  late["uid"] = std::string(32, 'e');
  late["answer"] = "1000";
  late["recorded_at"] = "2026-01-01T00:00:00.000Z";
  doc["tables"]["predictions"].push_back(late);
  json other = doc["tables"]["runs"][0];
  other["uid"] = std::string(32, 'd');
  doc["tables"]["runs"].push_back(other);
  const Error e = import_error(b, write_json(dir.path / "late.json", doc));
  CHECK(e.code() == Exit::usage);
  const std::string run_uid = doc["tables"]["runs"][0]["uid"];
  INFO(e.what());
  CHECK(contains(e.what(), "predictions row 2"));
  CHECK(contains(e.what(), run_uid));
  CHECK(contains(e.what(), "imported whole with its rows or not at all"));
  CHECK(single(b, "SELECT COUNT(*) FROM predictions") == "1");
  CHECK(single(b, "SELECT COUNT(*) FROM runs") == "1");  // the new run was not kept either

  // Into a journal without that run, the same file imports: the run and both predictions are new.
  Journal c(dir.path / "c.db");
  REQUIRE_NOTHROW(import_journal_files(c, {dir.path / "late.json"}));
  CHECK(single(c, "SELECT COUNT(*) FROM predictions") == "2");
}

TEST_CASE("an import refuses a too-deep file, a device, a FIFO and a too-large file before parsing",
          "[journal][hostile][limits]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");

  const fs::path deep = dir.write("deep.json", std::string(200000, '[') + std::string(200000, ']'));
  Error e = import_error(j, deep);
  CHECK(e.code() == Exit::usage);
  CHECK(contains(e.what(), "levels deep"));

  // Nesting inside strings does not count; an ordinary export is far from the limit.
  const fs::path ok_strings = write_json(dir.path / "strings.json", json{{"format", "x"}, {"s", std::string(500, '[')}});
  e = import_error(j, ok_strings);
  CHECK(contains(e.what(), "not a workbook journal export"));

  e = import_error(j, "/dev/zero");
  CHECK(e.code() == Exit::usage);
  CHECK(contains(e.what(), "not a regular file"));

  const fs::path fifo = dir.path / "pipe.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  e = import_error(j, fifo);  // would block for ever if it were opened
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  CHECK(contains(e.what(), "not a regular file"));

  const fs::path big = dir.path / "big.json";
  std::ofstream(big).put('{');
  fs::resize_file(big, kMaxImportBytes + 1);  // sparse: costs no disk
  e = import_error(j, big);
  CHECK(e.code() == Exit::usage);
  CHECK(contains(e.what(), "256 MB"));
}

TEST_CASE("a damaged journal says so, with exit 74 and what to do", "[journal][hostile][io]") {
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  std::ofstream(file, std::ios::binary) << std::string(8192, 'x');  // not a database
  try {
    Journal j(file);
    FAIL("a file of junk opened as a journal");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::io_error);
    CHECK(contains(e.what(), "is damaged"));
    CHECK(contains(e.what(), file.string()));
    CHECK(contains(e.hint(), "journal import"));
    CHECK_FALSE(contains(e.hint(), "another workbook command"));
  }

  // A real journal whose pages were overwritten in the middle.
  const fs::path good = dir.path / "good.db";
  {
    Journal j(good);
    for (int i = 0; i < 200; ++i) add_run(j, std::string(300, 'a'));
  }
  {
    std::fstream f(good, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096 * 3);
    const std::string junk(4096 * 4, '\x5a');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  try {
    Journal j(good);
    (void)latest_runs(j, "", 1000);
    (void)wbtest::export_document(j, "x");
    FAIL("a journal with overwritten pages read back without an error");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::io_error);
    CHECK(contains(e.what(), "damaged"));
  }
}

TEST_CASE("a full disk and a read-only journal say so, with exit 74", "[journal][hostile][io]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  add_run(j, "900");
  // SQLite answers SQLITE_FULL when a journal may not grow: as a full disk does.
  raw_sql(j, "PRAGMA max_page_count = " + single(j, "PRAGMA page_count") + ";");
  try {
    const long long run = j.begin_run({"module01/pass_lab", "starter", "/ws/x.cpp", "{}", 1, "", ""});
    for (int i = 0; i < 100; ++i) j.record_explanation(run, std::string(100000, 'z'));
    FAIL("the journal grew past its page limit");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::io_error);
    CHECK(contains(e.what(), "is full"));
  }
  raw_sql(j, "PRAGMA max_page_count = 1073741823;");

  // Read-only. As root, permissions do not stop a write, so SQLite's own read-only switch
  // stands in for the folder (the same SQLITE_READONLY the driver reports).
  raw_sql(j, "PRAGMA query_only = 1;");
  try {
    j.begin_run({"module01/pass_lab", "starter", "/ws/x.cpp", "{}", 1, "", ""});
    FAIL("a read-only journal was written");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::io_error);
    CHECK(contains(e.what(), "read-only"));
  }
}

TEST_CASE("a journal in a folder the user may not write is a read-only workspace, exit 74", "[journal][hostile][io]") {
  if (::geteuid() == 0) {
    WARN("running as root: folder permissions do not stop root's writes, so this case cannot be made here");
    return;
  }
  TempDir dir;
  const fs::path ws = dir.path / "ws";
  fs::create_directories(ws);
  ::chmod(ws.c_str(), 0555);
  try {
    Journal j(ws / "journal.db");
    FAIL("a journal was created in a read-only folder");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::io_error);
    CHECK(contains(e.what(), "read-only"));
  }
  ::chmod(ws.c_str(), 0755);
}

TEST_CASE("a dropped table and a journal locked by another writer exit 74 and say what to do",
          "[journal][hostile][io]") {
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  Journal j(file);
  add_run(j, "900");
  // Another writer holds the journal: after the busy wait, "locked", not "the lab crashed".
  sqlite3* other = nullptr;
  REQUIRE(sqlite3_open(file.c_str(), &other) == SQLITE_OK);
  REQUIRE(sqlite3_exec(other, "BEGIN EXCLUSIVE; INSERT INTO meta(key, value) VALUES('held', '1');", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  raw_sql(j, "PRAGMA busy_timeout = 100;");  // the runner waits 10 s; the test need not
  try {
    add_run(j, "901");
    FAIL("a locked journal was written");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::io_error);
    CHECK(contains(e.what(), "is locked by another workbook command"));
    CHECK(contains(e.hint(), "let the other command finish"));
  }
  sqlite3_exec(other, "ROLLBACK;", nullptr, nullptr, nullptr);
  sqlite3_close(other);

  // A table dropped by hand (or by a tool): the journal is damaged; rebuild it from an export.
  raw_sql(j, "PRAGMA foreign_keys = OFF; DROP TABLE predictions;");
  try {
    add_run(j, "902");
    FAIL("a journal without its predictions table was written");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::io_error);
    CHECK(contains(e.what(), "is damaged: no such table: predictions"));
    CHECK(contains(e.hint(), "journal import"));
  }
}
