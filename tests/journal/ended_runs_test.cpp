// An ended run is a fact (journal/schema.cpp, migration "ended runs are kept"; the importer,
// journal/journal_import.cpp): no writer adds a row to it or changes it, an import adds
// whole runs only, and a prediction that arrives by import dated earlier than the lab's
// scored one does not take its place (journal/lab_predictions.hpp).
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "experiment/experiment_store.hpp"
#include "journal/journal.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "journal/lab_predictions.hpp"
#include "journal/journal_queries.hpp"
#include "util/error.hpp"

#include "../support/export_document.hpp"
#include "../support/files.hpp"
#include "../support/temp_dir.hpp"
#include "../support/text_checks.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using wbtest::contains;
using wbtest::TempDir;
using wbtest::write_json;
using workbook::Error;
using workbook::Exit;
using workbook::Journal;
using workbook::Verdict;

namespace {

constexpr const char* kEndedLab = "module01/pass_lab";

// SQLite's answer to `sql` on the journal: "" when it ran, else its error message.
std::string sql_error(Journal& j, const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(j.store_connection(), sql.c_str(), nullptr, nullptr, &err);
  std::string out = rc == SQLITE_OK ? "" : (err ? err : "error");
  sqlite3_free(err);
  return out;
}

std::string one_value(Journal& j, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(j.store_connection(), sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  std::string out = "(no row)";
  if (sqlite3_step(s) == SQLITE_ROW) {
    const auto* p = sqlite3_column_text(s, 0);
    out = p ? reinterpret_cast<const char*>(p) : "NULL";
  }
  sqlite3_finalize(s);
  return out;
}

// A run with a row in every table that hangs off a run, ended.
long long full_run(Journal& j) {
  const long long run = j.begin_run({kEndedLab, "starter", "/ws/pass_lab.cpp", "{}", 1, "Tesla T4", "sm_75"});
  j.record_prediction(run, kEndedLab, {"count_guess", "900", 900.0});
  workbook::Grade g;
  g.checks = {{"sum_ok", true, true, true, 1.0, std::nullopt, ""}};
  workbook::MetricGrade m;
  m.name = "sum_ms";
  m.unit = "ms";
  m.value = 0.5;
  m.status = workbook::RangeStatus::in_range;
  g.metrics = {m};
  workbook::PredictionGrade p;
  p.id = "count_guess";
  p.measured = 1000;
  p.factor = 1.11;
  p.band = "within 1.25x";
  p.score = 3;
  p.max_score = 3;
  g.predictions = {p};
  j.record_grade(run, g);
  const std::string id = std::to_string(run);
  REQUIRE(sql_error(j, "INSERT INTO run_gpu_state(run_id, phase, reason_names, throttled, pstate, tool) VALUES(" + id +
                           ", 'before', '', 0, 'P0', 'nvidia-smi')") == "");
  REQUIRE(sql_error(j, "INSERT INTO run_machine(run_id, driver, cuda_driver, toolkit, power_source) VALUES(" + id +
                           ", '580', '13.0', '13.0', 'ac')") == "");
  REQUIRE(sql_error(j, "INSERT INTO slurm_jobs(run_id, job_id, partition, gres, time_limit, account, script, "
                       "submitted_at) VALUES(" + id + ", '7', 'gpu', 'gpu:1', '10', '', '#!/bin/sh', 'now')") == "");
  j.finish_run(run, Verdict::pass, 0, "");
  j.record_explanation(run, "one addition after another");
  return run;
}

long long full_experiment_run(Journal& j) {
  workbook::Experiment e;
  e.name = "llm_bf16";
  e.text = "name: llm_bf16\n";
  const long long run = workbook::begin_experiment_run(j, e, false);
  workbook::record_experiment_prediction(j, run, e.name, {"speedup", "4", 4.0}, false);
  workbook::RepeatResult r;
  r.variant = "fp32";
  r.readings = {{"step_ms", {10.0}}};
  workbook::record_repeat(j, run, r);
  workbook::finish_experiment_run(j, run, workbook::ExperimentStatus::done, "");
  workbook::record_experiment_explanation(j, run, "half the bytes");
  return run;
}

workbook::Error import_refusal(Journal& j, const fs::path& file) {
  try {
    workbook::import_journal_files(j, {file});
  } catch (const Error& e) {
    return e;
  }
  FAIL("the import of " << file << " was not refused");
  return Error(Exit::ok, "");
}

}  // namespace

TEST_CASE("an import adds a row to a run this journal holds in no table that hangs off a run", "[journal][ended]") {
  TempDir dir;
  Journal a(dir.path / "a.db");
  full_run(a);
  full_experiment_run(a);
  const json doc = wbtest::export_document(a, "a");
  Journal b(dir.path / "b.db");
  workbook::import_journal_files(b, {write_json(dir.path / "a.json", doc)});
  // The import brought the whole run, ended as it ended on A.
  CHECK(one_value(b, "SELECT finished_at FROM runs") == one_value(a, "SELECT finished_at FROM runs"));
  CHECK(one_value(b, "SELECT finished_at FROM experiment_runs") == one_value(a, "SELECT finished_at FROM experiment_runs"));
  CHECK(one_value(b, "SELECT COUNT(*) FROM metrics") == "1");

  for (const char* table : {"predictions", "checks", "metrics", "prediction_grades", "run_gpu_state", "run_machine",
                            "slurm_jobs", "experiment_predictions", "experiment_results"}) {
    DYNAMIC_SECTION(table) {
      json crafted = doc;
      json& rows = crafted["tables"][table];
      REQUIRE(rows.size() == 1);
      json extra = rows[0];
      extra["uid"] = std::string(32, 'f');
      if (extra.contains("phase")) extra["phase"] = "after";  // not the same key as the row it copies
      rows.push_back(extra);
      const std::string before = one_value(b, std::string("SELECT COUNT(*) FROM ") + table);
      const Error e = import_refusal(b, write_json(dir.path / (std::string(table) + ".json"), crafted));
      INFO(e.what());
      CHECK(e.code() == Exit::usage);
      CHECK(one_value(b, std::string("SELECT COUNT(*) FROM ") + table) == before);
    }
  }
  SECTION("an explanation is a record of its own: one for a held run is added, the run unchanged") {
    json crafted = doc;
    json extra = crafted["tables"]["explanations"][0];
    extra["uid"] = std::string(32, 'e');
    extra["text"] = "written later, on the other machine";
    crafted["tables"]["explanations"].push_back(extra);
    workbook::import_journal_files(b, {write_json(dir.path / "explained.json", crafted)});
    CHECK(one_value(b, "SELECT COUNT(*) FROM explanations") == "2");
    CHECK(one_value(b, "SELECT COUNT(*) FROM metrics") == "1");
  }
}

TEST_CASE("the schema keeps an ended run: nothing joins it, nothing of it changes or goes", "[journal][ended]") {
  TempDir dir;
  Journal j(dir.path / "j.db");
  const std::string run = std::to_string(full_run(j));
  const std::string xrun = std::to_string(full_experiment_run(j));
  CHECK(contains(sql_error(j, "INSERT INTO metrics(run_id, name, unit, derived, value, status) VALUES(" + run +
                                  ", 'extra', 'ms', 0, 1, 'in range')"),
                 "the run has ended"));
  CHECK(contains(sql_error(j, "INSERT INTO checks(run_id, name, reported, pass) VALUES(" + run + ", 'x', 1, 0)"),
                 "the run has ended"));
  CHECK(contains(sql_error(j, "UPDATE runs SET verdict='fail' WHERE id=" + run), "the run has ended"));
  CHECK(contains(sql_error(j, "UPDATE metrics SET value=99"), "cannot be changed"));
  CHECK(contains(sql_error(j, "DELETE FROM checks"), "cannot be deleted"));
  CHECK(contains(sql_error(j, "DELETE FROM runs"), "cannot be deleted"));
  CHECK(contains(sql_error(j, "INSERT INTO experiment_results(experiment_run_id, variant, repeat, outcome, detail, "
                              "readings, recorded_at) VALUES(" + xrun + ", 'bf16', 1, 'ok', '', '{}', 'now')"),
                 "the run has ended"));
  CHECK(contains(sql_error(j, "UPDATE experiment_runs SET status='failed' WHERE id=" + xrun), "the run has ended"));
  CHECK(one_value(j, "SELECT verdict FROM runs WHERE id=" + run) == "pass");
  // An explanation joins an ended run: it is a record of its own.
  CHECK(sql_error(j, "INSERT INTO explanations(run_id, text, recorded_at) VALUES(" + run + ", 'later', 'now')") == "");
}

TEST_CASE("the one verdict written twice: Slurm's state over a node's 'interrupted' once the login node recorded it",
          "[journal][ended]") {
  TempDir dir;
  Journal j(dir.path / "j.db");
  const long long id = j.begin_run({kEndedLab, "starter", "/ws/pass_lab.cpp", "{}", 1, "", "sm_90"});
  const std::string run = std::to_string(id);
  REQUIRE(sql_error(j, "INSERT INTO slurm_jobs(run_id, job_id, partition, gres, time_limit, account, script, "
                       "submitted_at) VALUES(" + run + ", '7', 'gpu', 'gpu:1', '10', '', '#!/bin/sh', 'now')") == "");
  j.finish_run(id, Verdict::interrupted, -1, "SIGTERM");
  CHECK(contains(sql_error(j, "UPDATE runs SET verdict='timeout' WHERE id=" + run), "the run has ended"));
  REQUIRE(sql_error(j, "UPDATE slurm_jobs SET state='TIMEOUT' WHERE run_id=" + run) == "");
  CHECK(sql_error(j, "UPDATE runs SET verdict='timeout' WHERE id=" + run) == "");
  // Settled, it is kept like any other.
  CHECK(contains(sql_error(j, "UPDATE runs SET verdict='pass' WHERE id=" + run), "the run has ended"));
}

TEST_CASE("a prediction an import brings, dated earlier, does not take over the lab's scored one", "[journal][ended]") {
  TempDir dir;
  Journal a(dir.path / "a.db");  // the other machine: a prediction made on Dec 1
  const long long early = a.begin_run({kEndedLab, "starter", "/ws/pass_lab.cpp", "{}", 1, "", "sm_75"});
  a.record_prediction(early, kEndedLab, {"count_guess", "50", 50.0});
  a.finish_run(early, Verdict::not_run, -1, "no GPU");
  json doc = wbtest::export_document(a, "a");
  doc["tables"]["predictions"][0]["recorded_at"] = "2026-12-01T08:00:00.000Z";
  doc["tables"]["runs"][0]["started_at"] = "2026-12-01T08:00:00.000Z";

  Journal b(dir.path / "b.db");  // this machine: its own first prediction, scored by a run
  full_run(b);
  REQUIRE(workbook::first_predictions(b, kEndedLab).at(0).answer.text == "900");
  workbook::import_journal_files(b, {write_json(dir.path / "a.json", doc)});
  const auto first = workbook::first_predictions(b, kEndedLab);
  REQUIRE(first.size() == 1);
  CHECK(first[0].answer.text == "900");  // still the one this journal scored
  // The imported one is kept, and shown as a later answer of its own run, never as the first.
  const auto rows = workbook::predictions_of_run(b, 2);
  bool imported_kept = false;
  for (const auto& r : rows) imported_kept = imported_kept || (r.answer == "50" && !r.first);
  CHECK(imported_kept);
}
