// Tests for journal/lab_predictions and the prediction queries built on it: a lab's first
// prediction of each id is its scored one, carried into later runs (graded there through
// prediction_grades.prediction_uid); later answers are kept, not scored; older grades
// (no uid) stay with the run's own prediction; calibration takes each lab's first numeric
// prediction once; the migration adds the columns to a version-8 journal; an export
// carries them.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <fstream>

#include "journal/journal_export.hpp"
#include "journal/journal_queries.hpp"
#include "journal/lab_predictions.hpp"
#include "journal/schema.hpp"
#include "learn/journal_merge.hpp"

#include "../support/export_document.hpp"
#include "../support/temp_dir.hpp"
#include "../support/undo_migrations.hpp"

using namespace workbook;
using wbtest::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kPredictedLab = "module05/a";

long long open_run(Journal& j, const std::string& lab = kPredictedLab) {
  return j.begin_run({lab, "starter", "src", "{\"N\": 4}", 7, "Tesla T4", "sm_75"});
}

// A grade of `t_guess` = `guess` against 10 ms, with metric t measured.
Grade grade_of(double guess) {
  Grade g;
  MetricGrade& m = g.metrics.emplace_back();
  m.name = "t";
  m.unit = "ms";
  m.value = 10;
  m.status = RangeStatus::in_range;
  PredictionGrade& p = g.predictions.emplace_back();
  p.id = "t_guess";
  p.predicted = guess;
  p.measured = 10;
  p.factor = std::max(guess / 10, 10 / guess);
  p.band = prediction_band(*p.factor).first;
  p.max_score = 3;
  return g;
}

std::string first_value(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  std::string out = "(no row)";
  if (sqlite3_step(s) == SQLITE_ROW) out = sqlite3_column_text(s, 0) ? reinterpret_cast<const char*>(sqlite3_column_text(s, 0)) : "NULL";
  sqlite3_finalize(s);
  return out;
}

}  // namespace

TEST_CASE("a lab's first prediction stands, is carried into later runs and graded there, later answers are not scored",
          "[journal][predictions]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  CHECK(first_predictions(j, kPredictedLab).empty());
  CHECK_FALSE(measurement_seen(j, kPredictedLab));

  // Run 1 could not run (no GPU): the prediction is recorded, nothing is measured.
  const long long r1 = open_run(j);
  const std::string uid = j.record_prediction(r1, kPredictedLab, {"t_guess", "20", 20.0});
  CHECK(uid.size() == 32);
  j.finish_run(r1, Verdict::not_run, -1, "no GPU");
  CHECK_FALSE(measurement_seen(j, kPredictedLab));
  auto first = first_predictions(j, kPredictedLab);
  REQUIRE(first.size() == 1);
  CHECK(first[0].answer.text == "20");
  CHECK(first[0].run_id == r1);
  CHECK(first[0].uid == uid);
  CHECK_FALSE(first[0].after_measurement);

  // Run 2 ran: it grades the standing prediction; no answer of its own.
  const long long r2 = open_run(j);
  j.record_grade(r2, grade_of(20), {{"t_guess", uid}});
  j.finish_run(r2, Verdict::pass, 0, "");
  CHECK(measurement_seen(j, kPredictedLab));
  auto shown = predictions_of_run(j, r2);
  REQUIRE(shown.size() == 1);
  CHECK(shown[0].answer == "20");
  CHECK(shown[0].run_id == r1);
  CHECK(shown[0].first);
  CHECK(shown[0].graded);
  CHECK(shown[0].factor == Approx(2));
  CHECK(predictions_of_run(j, r2, PredictionSet::graded).size() == 1);

  // Run 1 shows its prediction, not graded (it did not run).
  shown = predictions_of_run(j, r1);
  REQUIRE(shown.size() == 1);
  CHECK_FALSE(shown[0].graded);
  CHECK(predictions_of_run(j, r1, PredictionSet::graded).empty());

  // Run 3: a later answer after the measurement; the grade is still of the first.
  const long long r3 = open_run(j);
  j.record_prediction(r3, kPredictedLab, {"t_guess", "11", 11.0}, true);
  j.record_grade(r3, grade_of(20), {{"t_guess", uid}});
  shown = predictions_of_run(j, r3);
  REQUIRE(shown.size() == 2);
  CHECK(shown[0].answer == "20");  // the carried first, then the run's own
  CHECK(shown[0].graded);
  CHECK(shown[1].answer == "11");
  CHECK_FALSE(shown[1].first);
  CHECK_FALSE(shown[1].graded);
  CHECK(shown[1].after_measurement);
  CHECK(first_predictions(j, kPredictedLab).at(0).answer.text == "20");

  // Calibration: the first prediction once, against the first run that graded it.
  auto outcomes = prediction_outcomes(j);
  REQUIRE(outcomes.size() == 1);
  CHECK(outcomes[0].run_id == r2);
  CHECK(outcomes[0].predicted == Approx(20));
  // Another lab is its own.
  CHECK(first_predictions(j, "module05/b").empty());
}

TEST_CASE("a grade from before prediction_uid stays with the run's own prediction, a first made after a measurement "
          "is not calibrated",
          "[journal][predictions]") {
  TempDir dir;
  Journal j(dir.path / "journal.db");
  // Older journals asked every run again: each run its own prediction and its grade.
  const long long r1 = open_run(j);
  j.record_prediction(r1, kPredictedLab, {"t_guess", "40", 40.0});
  j.record_grade(r1, grade_of(40));
  const long long r2 = open_run(j);
  j.record_prediction(r2, kPredictedLab, {"t_guess", "12", 12.0});
  j.record_grade(r2, grade_of(12));
  auto shown = predictions_of_run(j, r2);
  REQUIRE(shown.size() == 1);  // the first (40) is not shown beside a grade of 12
  CHECK(shown[0].answer == "12");
  CHECK(shown[0].graded);
  CHECK(shown[0].factor == Approx(1.2));
  REQUIRE(prediction_outcomes(j).size() == 1);
  CHECK(prediction_outcomes(j)[0].predicted == Approx(40));

  const std::string lab = "module07/b";
  const long long r3 = open_run(j, lab);
  const std::string uid = j.record_prediction(r3, lab, {"t_guess", "10", 10.0}, true);
  j.record_grade(r3, grade_of(10), {{"t_guess", uid}});
  CHECK(predictions_of_run(j, r3).at(0).graded);
  CHECK(prediction_outcomes(j).size() == 1);  // still only module05/a's
}

TEST_CASE("a version-8 journal gains after_measurement and prediction_uid, an export carries them",
          "[journal][predictions][schema]") {
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  {  // Version 8, made from a current journal by undoing add_prediction_seen.
    Journal j(file);
    const long long run = open_run(j);
    j.record_prediction(run, kPredictedLab, {"t_guess", "20", 20.0});
    j.record_grade(run, grade_of(20));
    REQUIRE(sqlite3_exec(j.store_connection(),
                         (wbtest::undo_migrations_after_13() +  // versions 16 to 14
                         "DROP INDEX predictions_first; DROP INDEX prediction_grades_by_run; DROP INDEX prediction_grades_by_uid; "  // version 13
 "DROP TABLE learn_nudges; ALTER TABLE explanations DROP COLUMN feedback; "  // version 12
                         "DROP TABLE experiment_explanations; DROP TABLE experiment_results; DROP TABLE experiment_predictions; "  // version 11
                         "DROP TABLE experiment_runs; DROP TABLE handins; DROP INDEX predictions_by_lab; ALTER TABLE predictions DROP COLUMN after_measurement; "
                         "ALTER TABLE prediction_grades DROP COLUMN prediction_uid; "
                         "UPDATE meta SET value='8' WHERE key='schema_version';").c_str(),
                         nullptr, nullptr, nullptr) == SQLITE_OK);
  }
  {
    Journal j(file);
    sqlite3* db = j.store_connection();
    CHECK(stored_schema_version(db) == kSchemaVersion);
    CHECK(first_value(db, "SELECT answer || '|' || after_measurement FROM predictions") == "20|0");
    CHECK(first_value(db, "SELECT prediction_uid IS NULL FROM prediction_grades") == "1");
    CHECK(predictions_of_run(j, 1).at(0).graded);  // the old grade is of the run's own prediction
    const long long r2 = open_run(j);
    const std::string uid = j.record_prediction(r2, kPredictedLab, {"t_guess", "30", 30.0}, true);
    j.record_grade(r2, grade_of(20), {{"t_guess", first_predictions(j, kPredictedLab).at(0).uid}});
    const nlohmann::json doc = wbtest::export_document(j, "a");
    bool later_seen = false;
    for (const auto& p : doc["tables"]["predictions"]) {
      if (p["uid"] == uid) later_seen = p["after_measurement"] == 1;
    }
    CHECK(later_seen);
    std::ofstream(dir.path / "a.json") << doc.dump();
  }
  Journal other(dir.path / "b.db");
  learn::merge_journal_files(other, {dir.path / "a.json"});
  CHECK(first_value(other.store_connection(), "SELECT after_measurement FROM predictions WHERE answer = '30'") == "1");
  CHECK(first_value(other.store_connection(), "SELECT p.answer FROM prediction_grades g JOIN predictions p ON p.uid = g.prediction_uid") ==
        "20");
  const auto shown = predictions_of_run(other, 2);
  REQUIRE(shown.size() == 2);
  CHECK(shown[0].answer == "20");
  CHECK(shown[0].graded);
}

TEST_CASE("first_predictions names each lab's first prediction of an id: filled on upgrade, kept as they come",
          "[journal][predictions][schema]") {
  TempDir dir;
  const fs::path file = dir.path / "journal.db";
  auto firsts = [](Journal& j) {
    std::string out;
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(j.store_connection(),
                               "SELECT f.lab || ' ' || f.prediction || ' ' || p.answer FROM first_predictions f JOIN "
                               "predictions p ON p.id = f.prediction_id ORDER BY f.lab, f.prediction",
                               -1, &s, nullptr) == SQLITE_OK);
    while (sqlite3_step(s) == SQLITE_ROW) out += reinterpret_cast<const char*>(sqlite3_column_text(s, 0)) + std::string("; ");
    sqlite3_finalize(s);
    return out;
  };
  {  // Version 15: predictions recorded before the table existed.
    Journal j(file);
    const long long r1 = open_run(j);
    j.record_prediction(r1, kPredictedLab, {"t_guess", "20", 20.0});
    j.record_prediction(r1, kPredictedLab, {"kind", "1", std::nullopt});
    const long long r2 = open_run(j);
    j.record_prediction(r2, kPredictedLab, {"t_guess", "25", 25.0});
    const long long other = open_run(j, "module06/b");
    j.record_prediction(other, "module06/b", {"t_guess", "7", 7.0});
    REQUIRE(sqlite3_exec(j.store_connection(),
                         (wbtest::undo_summaries() + "UPDATE meta SET value='15' WHERE key='schema_version';").c_str(),
                         nullptr, nullptr, nullptr) == SQLITE_OK);
  }
  Journal j(file);
  CHECK(stored_schema_version(j.store_connection()) == kSchemaVersion);
  CHECK(firsts(j) == "module05/a kind 1; module05/a t_guess 20; module06/b t_guess 7; ");
  const std::vector<LabRecord> labs = lab_records(j);  // lab_summary, filled from the runs too
  REQUIRE(labs.size() == 2);
  CHECK(labs[0].lab == kPredictedLab);
  CHECK(labs[0].runs == 2);
  CHECK(labs[0].last_verdict == "unfinished");
  CHECK(labs[1].runs == 1);
  const long long r3 = open_run(j);
  j.record_prediction(r3, kPredictedLab, {"t_guess", "40", 40.0});  // a later answer: not the first
  j.record_prediction(r3, kPredictedLab, {"new_id", "3", 3.0});      // a new id: its first
  CHECK(firsts(j) == "module05/a kind 1; module05/a new_id 3; module05/a t_guess 20; module06/b t_guess 7; ");

  // A merged journal builds its own from the predictions it takes in; none is exported.
  const nlohmann::json doc = wbtest::export_document(j, "a");
  CHECK_FALSE(doc["tables"].contains("first_predictions"));
  std::ofstream(dir.path / "a.json") << doc.dump();
  Journal merged(dir.path / "b.db");
  learn::merge_journal_files(merged, {dir.path / "a.json"});
  CHECK(firsts(merged) == firsts(j));
}
