// Tests for journal/journal_queries: per-lab records of the learner's own runs, runs with
// their figures and graded predictions, and numeric prediction outcomes.
#include <catch2/catch.hpp>

#include "journal/journal_queries.hpp"

#include "../support/temp_dir.hpp"

using namespace workbook;

namespace {

// One run of `lab`: a metric `t` measured at 10 ms, a prediction `t_guess` of `guess`.
long long add_run(Journal& j, const std::string& lab, const std::string& variant, Verdict verdict, double guess) {
  RunRecord rec{lab, variant, "src", "{\"N\": 4}", 7, "Tesla T4", "sm_75"};
  const long long id = j.begin_run(rec);
  j.record_prediction(id, lab, {"t_guess", std::to_string(guess), guess});
  Grade g;
  // Filled in place: a local MetricGrade copied in trips GCC 12's -Wmaybe-uninitialized
  // at -O3 (a false positive inside std::string; the ci preset's -Werror stops on it).
  MetricGrade& m = g.metrics.emplace_back();
  m.name = "t";
  m.unit = "ms";
  m.value = 10;
  m.lo = 5;
  m.hi = 20;
  m.status = RangeStatus::in_range;
  PredictionGrade p;
  p.id = "t_guess";
  p.predicted = guess;
  p.measured = 10;
  p.factor = std::max(guess / 10, 10 / guess);
  p.band = prediction_band(*p.factor).first;
  p.score = prediction_band(*p.factor).second;
  p.max_score = 3;
  g.predictions.push_back(p);
  j.record_grade(id, g);
  j.finish_run(id, verdict, 0, "");
  return id;
}

}  // namespace

TEST_CASE("journal queries read the learner's runs, figures and predictions", "[journal][progress]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const long long first = add_run(j, "module05/a", "starter", Verdict::fail, 40);
  add_run(j, "module05/a", "starter", Verdict::pass, 12);
  add_run(j, "module05/a", "solution", Verdict::pass, 10);  // the reference: not the learner's
  const long long other = add_run(j, "module07/b", "file", Verdict::out_of_range, 5);
  j.record_explanation(other, "memory-bound");

  auto records = lab_records(j);
  REQUIRE(records.size() == 2);
  CHECK(records[0].lab == "module05/a");
  CHECK(records[0].runs == 2);
  CHECK(records[0].passes == 1);
  CHECK(records[0].measured == 2);
  CHECK(records[0].last_verdict == "pass");
  CHECK(records[1].passes == 0);
  CHECK(records[1].explained == 1);

  auto runs = run_details(j, "module05/a", 10);
  REQUIRE(runs.size() == 3);
  CHECK(runs.back().id == first);  // newest first
  CHECK(runs.back().verdict == "fail");
  CHECK(runs.back().device == "Tesla T4");
  REQUIRE(runs.back().figures.size() == 1);
  CHECK(runs.back().figures[0].value == Approx(10));
  REQUIRE(runs.back().predictions.size() == 1);
  CHECK(runs.back().predictions[0].predicted == Approx(40));
  CHECK(runs.back().predictions[0].band == "within 4x");
  CHECK(run_details(j, "", 2).size() == 2);
  CHECK(run_details(j, "module07/b", 5).front().explanation == std::string("memory-bound"));

  auto outcomes = prediction_outcomes(j);
  REQUIRE(outcomes.size() == 4);
  CHECK(outcomes[0].run_id == first);
  CHECK(outcomes[0].predicted == Approx(40));
  CHECK(outcomes[0].measured == Approx(10));
  CHECK(outcomes[0].factor == Approx(4));
  CHECK(outcomes[3].lab == "module07/b");
}
