// Tests for journal/journal: the SQLite journal in WAL mode, immutable predictions,
// grades stored row by row, and two writers on one file.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "journal/journal.hpp"
#include "journal/journal_queries.hpp"
#include "journal/schema.hpp"
#include "util/error.hpp"

#include "../support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace workbook;

namespace {

using wbtest::TempDir;

// The first column of the first row of a query, as text ("" when there is no row).
std::string query_text(sqlite3* db, const std::string& sql) {
  std::string out;
  char* err = nullptr;
  int rc = sqlite3_exec(
      db, sql.c_str(),
      [](void* p, int, char** values, char**) {
        auto* s = static_cast<std::string*>(p);
        if (s->empty() && values[0]) *s = values[0];
        return 0;
      },
      &out, &err);
  std::string msg = err ? err : "";
  sqlite3_free(err);
  INFO(sql << ": " << msg);
  REQUIRE(rc == SQLITE_OK);
  return out;
}

long long count(sqlite3* db, const std::string& table, long long run_id) {
  return std::stoll(query_text(db, "SELECT COUNT(*) FROM " + table + " WHERE run_id=" + std::to_string(run_id)));
}

// Runs a statement that must be refused; returns SQLite's message.
std::string refused(sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  std::string msg = err ? err : "";
  sqlite3_free(err);
  INFO(sql);
  CHECK(rc != SQLITE_OK);
  return msg;
}

RunRecord run_record(const std::string& lab = "module01/pass_lab") {
  return {lab, "starter", "/ws/labs/module01/pass_lab.cpp", R"({"N":1000})", 42, "Tesla T4", "sm_75"};
}

Grade sample_grade() {
  Grade g;
  g.verdict = Verdict::fail;
  g.checks = {{"sum_ok", true, true, true, 0.0, 0.0, "ok"}, {"size_ok", false, false, true, std::nullopt, std::nullopt, ""}};
  MetricGrade m1;
  m1.name = "count";
  m1.unit = "count";
  m1.value = 1000;
  m1.lo = 1000;
  m1.hi = 1000;
  m1.status = RangeStatus::in_range;
  MetricGrade m2;
  m2.name = "sum_ms";
  m2.unit = "ms";
  m2.value = 2.5;
  m2.status = RangeStatus::unknown;
  m2.stats = ReportedMetric{"sum_ms", "ms", 2.5, 2.0, 3.0, 0.4, 5};
  MetricGrade m3;
  m3.name = "double_count";
  m3.derived = true;
  m3.status = RangeStatus::missing;
  g.metrics = {m1, m2, m3};
  PredictionGrade p1;
  p1.id = "count_guess";
  p1.measured = 1000;
  p1.factor = 1.11;
  p1.band = "within 1.25x";
  p1.score = 3;
  p1.max_score = 3;
  PredictionGrade p2;
  p2.id = "kind";
  p2.kind = PredictionKind::choice;
  p2.correct = false;
  p2.right_answer = "a sum";
  p2.max_score = 1;
  g.predictions = {p1, p2};
  return g;
}

}  // namespace

TEST_CASE("a new journal is created in WAL mode", "[journal]") {
  TempDir dir;
  fs::path file = dir.path / "journal.db";
  Journal j(file);
  CHECK(fs::is_regular_file(file));
  CHECK(query_text(j.store_connection(), "PRAGMA journal_mode") == "wal");
  CHECK(query_text(j.store_connection(), "SELECT value FROM meta WHERE key='schema_version'") == std::to_string(kSchemaVersion));
  CHECK(query_text(j.store_connection(), "PRAGMA foreign_keys") == "1");
}

TEST_CASE("a journal in a folder that does not exist cannot be opened: a usage error", "[journal]") {
  TempDir dir;
  try {
    Journal j(dir.path / "missing" / "journal.db");
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(std::string(e.what()).find("cannot open the journal") != std::string::npos);
  }
}

TEST_CASE("begin_run, record_prediction and predictions_of_run round trip", "[journal]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  long long run = j.begin_run(run_record());
  CHECK(run > 0);
  j.record_prediction(run, "module01/pass_lab", {"count_guess", "900", 900.0});
  j.record_prediction(run, "module01/pass_lab", {"kind", "a sum", std::nullopt});
  long long other = j.begin_run(run_record());
  CHECK(other != run);
  j.record_prediction(other, "module01/pass_lab", {"big", "yes", std::nullopt});

  auto preds = predictions_of_run(j, run);
  REQUIRE(preds.size() == 2);
  CHECK(preds[0].id == "count_guess");
  CHECK(preds[0].answer == "900");
  CHECK(preds[0].predicted == std::optional<double>(900));
  CHECK(preds[1].id == "kind");
  CHECK(preds[1].answer == "a sum");
  CHECK_FALSE(preds[1].predicted);
  // The later run also shows the lab's first predictions, carried from `run`; one was given with it.
  auto later = predictions_of_run(j, other);
  REQUIRE(std::count_if(later.begin(), later.end(), [&](const PredictionRow& p) { return p.run_id == other; }) == 1);
  CHECK(predictions_of_run(j, 12345).empty());
  // Each is timestamped as ISO 8601 UTC with milliseconds.
  std::string at = query_text(j.store_connection(), "SELECT recorded_at FROM predictions ORDER BY id LIMIT 1");
  CHECK(at.size() == 24);
  CHECK(at.back() == 'Z');
  CHECK(at[10] == 'T');
}

TEST_CASE("predictions are immutable: UPDATE and DELETE are refused", "[journal]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  long long run = j.begin_run(run_record());
  j.record_prediction(run, "module01/pass_lab", {"count_guess", "900", 900.0});
  sqlite3* db = j.store_connection();
  CHECK(refused(db, "UPDATE predictions SET answer='1000', number=1000").find("immutable") != std::string::npos);
  CHECK(refused(db, "DELETE FROM predictions").find("immutable") != std::string::npos);
  CHECK(refused(db, "DELETE FROM predictions WHERE run_id=" + std::to_string(run)).find("immutable") != std::string::npos);
  // INSERT OR REPLACE deletes the old row first: refused too (the trigger fires on the delete).
  std::string id = query_text(db, "SELECT id FROM predictions");
  CHECK(refused(db, "INSERT OR REPLACE INTO predictions(id, run_id, lab, prediction, answer, number, recorded_at) "
              "VALUES(" + id + ", " + std::to_string(run) + ", 'x', 'count_guess', '1000', 1000, 'now')")
            .find("immutable") != std::string::npos);
  auto preds = predictions_of_run(j, run);
  REQUIRE(preds.size() == 1);
  CHECK(preds[0].answer == "900");
  CHECK(preds[0].predicted == std::optional<double>(900));
}

TEST_CASE("record_grade stores one row per check, metric and prediction grade", "[journal]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  long long run = j.begin_run(run_record());
  long long other = j.begin_run(run_record());
  j.record_build(run, "0123456789abcdef0123456789abcdef", false, true);
  j.record_grade(run, sample_grade());
  j.finish_run(run, Verdict::fail, 1, "check 'size_ok' failed");
  sqlite3* db = j.store_connection();
  CHECK(count(db, "checks", run) == 2);
  CHECK(count(db, "metrics", run) == 3);
  CHECK(count(db, "prediction_grades", run) == 2);
  CHECK(count(db, "checks", other) == 0);
  CHECK(query_text(db, "SELECT pass FROM checks WHERE name='size_ok'") == "0");
  CHECK(query_text(db, "SELECT status FROM metrics WHERE name='count'") == "in range");
  CHECK(query_text(db, "SELECT samples FROM metrics WHERE name='sum_ms'") == "5");
  CHECK(query_text(db, "SELECT spread FROM metrics WHERE name='sum_ms'") == "0.4");
  CHECK(query_text(db, "SELECT derived FROM metrics WHERE name='double_count'") == "1");
  CHECK(query_text(db, "SELECT COUNT(*) FROM metrics WHERE name='double_count' AND value IS NULL") == "1");
  CHECK(query_text(db, "SELECT band FROM prediction_grades WHERE prediction='count_guess'") == "within 1.25x");
  CHECK(query_text(db, "SELECT correct FROM prediction_grades WHERE prediction='kind'") == "0");
  CHECK(query_text(db, "SELECT COUNT(*) FROM prediction_grades WHERE prediction='count_guess' AND correct IS NULL") == "1");
  CHECK(query_text(db, "SELECT build_cached || '/' || build_ok || '/' || build_key FROM runs WHERE id=" + std::to_string(run)) ==
        "0/1/0123456789abcdef0123456789abcdef");

  auto runs = latest_runs(j, "", 20);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].id == other);  // newest first
  CHECK(runs[0].verdict == "unfinished");
  CHECK(runs[1].id == run);
  CHECK(runs[1].verdict == "fail");
  CHECK(runs[1].device == "Tesla T4");
  CHECK(latest_runs(j, "module09/other", 20).empty());
  CHECK(latest_runs(j, "module01/pass_lab", 1).size() == 1);
}

TEST_CASE("explanations are kept per run, the latest wins", "[journal]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  long long run = j.begin_run(run_record());
  CHECK(explanations_of_run(j, run).empty());
  j.record_explanation(run, "memory bound: 2 loads per FMA");
  j.record_explanation(run, "L1 hits make it load-throughput bound");
  auto explanations = explanations_of_run(j, run);
  REQUIRE(explanations.size() == 2);
  CHECK(explanations.back().text == "L1 hits make it load-throughput bound");  // what history shows
}

TEST_CASE("the journal survives closing and reopening", "[journal]") {
  TempDir dir;
  long long run = 0;
  {
    Journal j(dir.path / "journal.db");
    run = j.begin_run(run_record());
    j.record_prediction(run, "module01/pass_lab", {"count_guess", "900", 900.0});
  }
  Journal again(dir.path / "journal.db");
  CHECK(predictions_of_run(again, run).size() == 1);
  CHECK(latest_runs(again, "", 20).size() == 1);
}

TEST_CASE("a journal written by a newer schema is refused", "[journal]") {
  TempDir dir;
  {
    Journal j(dir.path / "journal.db");
    query_text(j.store_connection(), "UPDATE meta SET value='99' WHERE key='schema_version'");
  }
  try {
    Journal j(dir.path / "journal.db");
    FAIL("no exception");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("newer workbook") != std::string::npos);
  }
}

TEST_CASE("two Journal objects on one file both write (two runs at once)", "[journal]") {
  TempDir dir;
  fs::path file = dir.path / "journal.db";
  Journal a(file);
  Journal b(file);
  long long ra = a.begin_run(run_record("module01/pass_lab"));
  long long rb = b.begin_run(run_record("module01/fail_lab"));
  CHECK(ra != rb);
  a.record_prediction(ra, "module01/pass_lab", {"count_guess", "900", 900.0});
  b.record_prediction(rb, "module01/fail_lab", {"count_guess", "10", 10.0});
  a.record_grade(ra, sample_grade());
  b.record_grade(rb, sample_grade());
  a.finish_run(ra, Verdict::pass, 0, "");
  b.finish_run(rb, Verdict::fail, 1, "x");
  // Each sees the other's writes.
  CHECK(predictions_of_run(a, rb).size() == 1);
  CHECK(predictions_of_run(b, ra).size() == 1);
  CHECK(latest_runs(a, "", 20).size() == 2);
  CHECK(count(b.store_connection(), "checks", ra) == 2);
}

TEST_CASE("two threads with their own Journal write concurrently without losing a row", "[journal]") {
  TempDir dir;
  fs::path file = dir.path / "journal.db";
  { Journal init(file); }
  constexpr int kRuns = 25;
  std::atomic<int> failures{0};
  auto writer = [&](const std::string& lab) {
    try {
      Journal j(file);
      for (int i = 0; i < kRuns; ++i) {
        long long run = j.begin_run(run_record(lab));
        j.record_prediction(run, lab, {"count_guess", std::to_string(i), static_cast<double>(i)});
        j.record_grade(run, sample_grade());
        j.finish_run(run, Verdict::pass, 0, "");
      }
    } catch (const std::exception&) {
      ++failures;
    }
  };
  std::thread t1(writer, "module01/pass_lab");
  std::thread t2(writer, "module01/fail_lab");
  t1.join();
  t2.join();
  CHECK(failures.load() == 0);
  Journal j(file);
  CHECK(query_text(j.store_connection(), "SELECT COUNT(*) FROM runs") == std::to_string(2 * kRuns));
  CHECK(query_text(j.store_connection(), "SELECT COUNT(*) FROM predictions") == std::to_string(2 * kRuns));
  CHECK(query_text(j.store_connection(), "SELECT COUNT(*) FROM checks") == std::to_string(2 * 2 * kRuns));
  CHECK(query_text(j.store_connection(), "SELECT COUNT(*) FROM runs WHERE verdict IS NULL") == "0");
}

TEST_CASE("utc_now is ISO 8601 with milliseconds and a Z", "[journal]") {
  std::string t = utc_now();
  REQUIRE(t.size() == 24);
  CHECK(t[4] == '-');
  CHECK(t[10] == 'T');
  CHECK(t[19] == '.');
  CHECK(t[23] == 'Z');
  CHECK(t.substr(0, 2) == "20");
}
