// Tests for grade/grade: the verdict, metrics against expected ranges, derived metrics,
// and predictions against measurements.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <string>

#include "grade/grade.hpp"
#include "util/error.hpp"

#include "../support/grade_lookup.hpp"

using namespace workbook;
using wbtest::grade_run;
using wbtest::graded_metric;

namespace {

// A lab like the fixture pass_lab: param N, var twice_n, checks sum_ok and size_ok,
// metrics count (equals N) and sum_ms (0 .. sm_count * 100), derived double_count.
LabSpec make_lab() {
  LabSpec lab;
  lab.name = "pass_lab";
  lab.id = "module01/pass_lab";
  lab.timeout_s = 20;
  lab.params = {{"N", 1000, 10, "", 0}};
  lab.checks = {"sum_ok", "size_ok"};
  lab.vars = {{"twice_n", "2*N", 0}};
  MetricSpec count;
  count.name = "count";
  count.unit = "count";
  count.expected = ExpectedRange{"", "", "N", 0, "", 0, FailSide::both, ""};
  MetricSpec ms;
  ms.name = "sum_ms";
  ms.unit = "ms";
  ms.expected = ExpectedRange{"0.5", "sm_count * 100", "", 0, "check the loop", 0, FailSide::both, ""};
  ms.reference = Reference{"t4", 0.001, 1, std::nullopt, "fixture", true};
  MetricSpec free_metric;
  free_metric.name = "other";
  lab.metrics = {count, ms, free_metric};
  MetricSpec dbl;
  dbl.name = "double_count";
  dbl.unit = "count";
  dbl.expr = "count * 2";
  dbl.expected = ExpectedRange{"", "", "twice_n", 0, "", 0, FailSide::both, ""};
  lab.derived = {dbl};
  return lab;
}

const Figures kDevice{{"sm_count", 40}, {"dram_gbps", 320}};
const Figures kParams{{"N", 1000}};

LabResults results(double count, double sum_ms, bool sum_ok = true, bool size_ok = true, bool ended = true) {
  LabResults r;
  r.metrics.push_back({"count", "count", count, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  r.metrics.push_back({"sum_ms", "ms", sum_ms, 1.0, 3.0, 0.5, 5});
  r.checks.push_back({"sum_ok", sum_ok, std::nullopt, std::nullopt, "sum detail", false});
  r.checks.push_back({"size_ok", size_ok, std::nullopt, std::nullopt, "", false});
  r.ended = ended;
  r.end_pass = sum_ok && size_ok;
  return r;
}

Grade grade(const LabSpec& lab, const LabResults& r, RunOutcome outcome = {false, 0, 0},
            const Figures& device = kDevice, const std::vector<RecordedPrediction>& preds = {}) {
  return grade_run(lab, r, outcome, device, "no GPU figures here", kParams, preds, "T4");
}

PredictionGrade prediction(const Grade& g, const std::string& id) {
  auto it = std::find_if(g.predictions.begin(), g.predictions.end(), [&](const PredictionGrade& p) { return p.id == id; });
  REQUIRE(it != g.predictions.end());
  return *it;
}

PredictionSpec number_prediction(const std::string& id, const std::string& metric) {
  PredictionSpec p;
  p.id = id;
  p.kind = PredictionKind::number;
  p.metric = metric;
  return p;
}

}  // namespace

// --- verdicts ---------------------------------------------------------------------------

TEST_CASE("verdict pass: every check passed, exit 0, end pass", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2));
  CHECK(g.verdict == Verdict::pass);
  CHECK(g.verdict_reason.empty());
  REQUIRE(g.checks.size() == 2);
  CHECK(g.checks[0].name == "sum_ok");
  CHECK(g.checks[0].pass);
  CHECK(g.checks[0].reported);
  CHECK(g.checks[0].required);
  CHECK(g.checks[0].detail == "sum detail");
}

TEST_CASE("verdict out_of_range: every check passed but a graded figure is outside its range", "[grade]") {
  Grade slow = grade(make_lab(), results(1000, 0.25));  // sum_ms below 0.5
  CHECK(slow.verdict == Verdict::out_of_range);
  CHECK(slow.verdict_reason == "correct, but sum_ms = 0.25 ms is below the 0.5 ms this GPU should give: check the loop");
  Grade two = grade(make_lab(), results(999, 0.25));  // count (equals N) and sum_ms both out
  CHECK(two.verdict == Verdict::out_of_range);
  CHECK(two.verdict_reason.find("(and 2 more figures out of range)") != std::string::npos);  // double_count too
  CHECK(std::string(to_string(Verdict::out_of_range)) == "out_of_range");
}

TEST_CASE("a failing check wins over a figure out of range, an unknown range never makes it out_of_range", "[grade]") {
  CHECK(grade(make_lab(), results(1000, 0.25, false), {false, 1, 0}).verdict == Verdict::fail);
  // Without device figures the sum_ms range cannot be evaluated: unknown, not out of range.
  Grade g = grade_run(make_lab(), results(1000, 0.25), {false, 0, 0}, {}, "no GPU", kParams, {}, "Tesla T4");
  CHECK(g.verdict == Verdict::pass);
}

TEST_CASE("verdict fail: a failing check, named in the reason", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2, true, false), {false, 1, 0});
  CHECK(g.verdict == Verdict::fail);
  CHECK(g.verdict_reason == "check 'size_ok' failed");
  CHECK_FALSE(g.checks[1].pass);
}

TEST_CASE("verdict fail: a required check never reported, though the lab said pass", "[grade]") {
  LabResults r = results(1000, 2);
  r.checks.erase(r.checks.begin());  // sum_ok missing
  Grade g = grade(make_lab(), r);
  CHECK(g.verdict == Verdict::fail);
  CHECK(g.verdict_reason == "check 'sum_ok' was never reported");
  REQUIRE(g.checks.size() == 2);
  CHECK(g.checks[0].name == "sum_ok");
  CHECK_FALSE(g.checks[0].reported);
  CHECK_FALSE(g.checks[0].pass);
  CHECK(g.checks[0].required);
}

TEST_CASE("an extra check the manifest does not list is graded but not required", "[grade]") {
  LabResults r = results(1000, 2);
  r.checks.push_back({"bonus", false, 1.0, 0.5, "extra", false});
  Grade g = grade(make_lab(), r, {false, 1, 0});
  REQUIRE(g.checks.size() == 3);
  CHECK(g.checks[2].name == "bonus");
  CHECK_FALSE(g.checks[2].required);
  CHECK(g.checks[2].value == std::optional<double>(1.0));
  CHECK(g.verdict == Verdict::fail);
  CHECK(g.verdict_reason == "check 'bonus' failed");
}

TEST_CASE("verdict fail: exit code 1 with every check passing", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2), {false, 1, 0});
  CHECK(g.verdict == Verdict::fail);
  CHECK(g.verdict_reason == "the lab reported a failure");
  LabResults r = results(1000, 2);
  r.end_pass = false;  // exit 0 but the end record says fail
  CHECK(grade(make_lab(), r).verdict == Verdict::fail);
}

TEST_CASE("verdict runtime_error: killed by a signal", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2, true, true, false), {false, -1, 11});
  CHECK(g.verdict == Verdict::runtime_error);
  CHECK(g.verdict_reason == "the lab was killed by signal 11");
}

TEST_CASE("verdict runtime_error: exit 4, with the lab's error as the reason when there is one", "[grade]") {
  LabResults r = results(1000, 2, true, true, false);
  Grade plain = grade(make_lab(), r, {false, 4, 0});
  CHECK(plain.verdict == Verdict::runtime_error);
  CHECK(plain.verdict_reason == "the lab exited with code 4");
  r.errors = {"a.cu:1: first", "tiled_gemm.cu:123: an illegal memory access"};
  Grade with_error = grade(make_lab(), r, {false, 4, 0});
  CHECK(with_error.verdict == Verdict::runtime_error);
  CHECK(with_error.verdict_reason == "tiled_gemm.cu:123: an illegal memory access");
  // Exit 2 (bad arguments) is a runtime error too, even with an end record.
  CHECK(grade(make_lab(), results(1000, 2), {false, 2, 0}).verdict == Verdict::runtime_error);
}

TEST_CASE("exit 3 is not_run: a requirement is missing, named by the lab's last line", "[grade]") {
  LabResults r = results(1000, 2, true, true, false);
  Grade g = grade(make_lab(), r, {false, 3, 0, 20.0, "triton is missing: pip install triton"});
  CHECK(g.verdict == Verdict::not_run);
  CHECK(g.verdict_reason == "the lab could not run: triton is missing: pip install triton");
  CHECK(workbook::exit_for(g.verdict) == workbook::Exit::usage);
  // Without a line it still says what exit 3 means; a signal is never "missing".
  CHECK(grade(make_lab(), r, {false, 3, 0}).verdict_reason.find("exit 3") != std::string::npos);
  CHECK(grade(make_lab(), r, {false, -1, 3}).verdict == Verdict::runtime_error);
}

TEST_CASE("verdict runtime_error: exit 0 without an end record", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2, true, true, false), {false, 0, 0});
  CHECK(g.verdict == Verdict::runtime_error);
  CHECK(g.verdict_reason.find("no `end` record") != std::string::npos);
}

TEST_CASE("verdict timeout wins over everything else and names the limit", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2), {true, -1, 9});
  CHECK(g.verdict == Verdict::timeout);
  CHECK(g.verdict_reason == "the lab did not finish within 20 s");
  CHECK(std::string(to_string(Verdict::timeout)) == "timeout");
  CHECK(std::string(to_string(Verdict::runtime_error)) == "runtime_error");
  CHECK(std::string(to_string(Verdict::compile_error)) == "compile_error");
}

TEST_CASE("a time-out names the limit the lab ran under, not the manifest's", "[grade]") {
  // `run LAB --timeout 1` on a lab whose manifest says 20 s.
  Grade g = grade(make_lab(), results(1000, 2), {true, -1, 9, 1.0});
  CHECK(g.verdict == Verdict::timeout);
  CHECK(g.verdict_reason == "the lab did not finish within 1 s");
}

// --- metric ranges ----------------------------------------------------------------------

TEST_CASE("a metric inside its range is in range, the range comes from device figures", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2));
  const auto& m = graded_metric(g, "sum_ms");
  CHECK(m.status == RangeStatus::in_range);
  CHECK(m.lo == std::optional<double>(0.5));
  CHECK(m.hi == std::optional<double>(4000));
  CHECK(m.value == std::optional<double>(2));
  CHECK(m.note.empty());
  CHECK(m.reference == "T4: 0.001 to 1 ms");
  REQUIRE(m.stats);
  CHECK(m.stats->samples == std::optional<int>(5));
  // Exactly on the ends is still in range.
  CHECK(graded_metric(grade(make_lab(), results(1000, 0.5)), "sum_ms").status == RangeStatus::in_range);
  CHECK(graded_metric(grade(make_lab(), results(1000, 4000)), "sum_ms").status == RangeStatus::in_range);
}

TEST_CASE("a metric below or above its range says so and gives the hint", "[grade]") {
  const auto& below = graded_metric(grade(make_lab(), results(1000, 0.4)), "sum_ms");
  CHECK(below.status == RangeStatus::below);
  CHECK(below.note == "check the loop");
  const auto& above = graded_metric(grade(make_lab(), results(1000, 4000.5)), "sum_ms");
  CHECK(above.status == RangeStatus::above);
  CHECK(above.note == "check the loop");
  // A different device gives a different range: 80 SMs allow up to 8000.
  Figures big{{"sm_count", 80}};
  CHECK(graded_metric(grade(make_lab(), results(1000, 4000.5), {false, 0, 0}, big), "sum_ms").status == RangeStatus::in_range);
}

TEST_CASE("equals with a tolerance is a closed range around the value", "[grade]") {
  LabSpec lab = make_lab();
  lab.metrics[0].expected->tolerance = 2;
  CHECK(graded_metric(grade(lab, results(1000, 2)), "count").status == RangeStatus::in_range);
  CHECK(graded_metric(grade(lab, results(1002, 2)), "count").status == RangeStatus::in_range);
  CHECK(graded_metric(grade(lab, results(998, 2)), "count").status == RangeStatus::in_range);
  CHECK(graded_metric(grade(lab, results(1002.5, 2)), "count").status == RangeStatus::above);
  CHECK(graded_metric(grade(lab, results(997, 2)), "count").status == RangeStatus::below);
  const auto& m = graded_metric(grade(lab, results(1000, 2)), "count");
  CHECK(m.lo == std::optional<double>(998));
  CHECK(m.hi == std::optional<double>(1002));
  // Tolerance 0: only the exact value.
  CHECK(graded_metric(grade(make_lab(), results(1000, 2)), "count").status == RangeStatus::in_range);
  CHECK(graded_metric(grade(make_lab(), results(1000.001, 2)), "count").status == RangeStatus::above);
}

TEST_CASE("with no device figures a range is unknown and says why", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2), {false, 0, 0}, Figures{});
  const auto& m = graded_metric(g, "sum_ms");
  CHECK(m.status == RangeStatus::unknown);
  CHECK(m.value == std::optional<double>(2));
  CHECK_FALSE(m.lo);
  CHECK_FALSE(m.hi);
  CHECK(m.note == "no GPU figures here");
  CHECK(g.verdict == Verdict::pass);  // ranges never decide the verdict
}

TEST_CASE("a metric that was not reported is missing, one without a range has no range", "[grade]") {
  LabResults r = results(1000, 2);
  r.metrics.erase(r.metrics.begin() + 1);  // no sum_ms
  r.metrics.push_back({"other", "", 5, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  Grade g = grade(make_lab(), r);
  CHECK(graded_metric(g, "sum_ms").status == RangeStatus::missing);
  CHECK_FALSE(graded_metric(g, "sum_ms").value);
  CHECK(graded_metric(g, "other").status == RangeStatus::no_range);
  LabResults none = results(1000, 2);
  CHECK(graded_metric(grade(make_lab(), none), "other").status == RangeStatus::missing);
}

TEST_CASE("derived metrics are computed from reported ones and graded like them", "[grade]") {
  Grade g = grade(make_lab(), results(1000, 2));
  const auto& d = graded_metric(g, "double_count");
  CHECK(d.derived);
  CHECK(d.value == std::optional<double>(2000));
  CHECK(d.lo == std::optional<double>(2000));  // twice_n = 2*N from the lab's vars
  CHECK(d.status == RangeStatus::in_range);
  CHECK(graded_metric(grade(make_lab(), results(999, 2)), "double_count").status == RangeStatus::below);
  CHECK_FALSE(graded_metric(g, "count").derived);
}

TEST_CASE("a derived metric over a metric that is missing is missing, with the reason", "[grade]") {
  LabResults r = results(1000, 2);
  r.metrics.erase(r.metrics.begin());  // no count
  Grade g = grade(make_lab(), r);
  const auto& d = graded_metric(g, "double_count");
  CHECK_FALSE(d.value);
  CHECK(d.status == RangeStatus::missing);
  CHECK(d.note.find("'count'") != std::string::npos);
}

TEST_CASE("a later derived metric may use an earlier one", "[grade]") {
  LabSpec lab = make_lab();
  MetricSpec quad;
  quad.name = "quad";
  quad.expr = "double_count * 2";
  lab.derived.push_back(quad);
  CHECK(graded_metric(grade(lab, results(1000, 2)), "quad").value == std::optional<double>(4000));
}

TEST_CASE("expression_scope: device figures, then parameters, then vars in order", "[grade]") {
  LabSpec lab = make_lab();
  lab.vars.push_back({"four_n", "twice_n * 2", 0});
  Figures s = expression_scope(lab, {{"sm_count", 40}, {"N", 1}}, kParams);
  CHECK(s.at("N") == 1000);  // the parameter wins over a device figure of the same name
  CHECK(s.at("twice_n") == 2000);
  CHECK(s.at("four_n") == 4000);
  CHECK(s.at("sm_count") == 40);
  lab.vars.push_back({"bad", "nope * 2", 0});
  CHECK_THROWS_AS(expression_scope(lab, kDevice, kParams), Error);
}

TEST_CASE("format_reference writes ranges, values and open ends", "[grade]") {
  CHECK(format_reference({"t4", 8, 15, std::nullopt, ""}, "ms", "T4") == "T4: 8 to 15 ms");
  CHECK(format_reference({"t4", std::nullopt, std::nullopt, 2.5, ""}, "x", "T4") == "T4: 2.5 x");
  CHECK(format_reference({"t4", 3, std::nullopt, std::nullopt, ""}, "GB/s", "") == "t4: >= 3 GB/s");
  CHECK(format_reference({"t4", std::nullopt, 7, std::nullopt, ""}, "", "T4") == "T4: <= 7");
}

// --- predictions ------------------------------------------------------------------------

TEST_CASE("prediction bands: the boundaries 1.25, 2 and 4 belong to the better band", "[grade]") {
  CHECK(prediction_band(1.0) == std::make_pair(std::string("within 1.25x"), 3));
  CHECK(prediction_band(1.25) == std::make_pair(std::string("within 1.25x"), 3));
  CHECK(prediction_band(1.2500001) == std::make_pair(std::string("within 2x"), 2));
  CHECK(prediction_band(2.0) == std::make_pair(std::string("within 2x"), 2));
  CHECK(prediction_band(2.0000001) == std::make_pair(std::string("within 4x"), 1));
  CHECK(prediction_band(4.0) == std::make_pair(std::string("within 4x"), 1));
  CHECK(prediction_band(4.0000001) == std::make_pair(std::string("off by more than 4x"), 0));
  CHECK(prediction_band(1000) == std::make_pair(std::string("off by more than 4x"), 0));
}

TEST_CASE("a number prediction is scored by the factor, over or under", "[grade]") {
  LabSpec lab = make_lab();
  lab.predictions = {number_prediction("guess", "count")};
  struct Case {
    double predicted;
    double factor;
    const char* band;
    int score;
  };
  for (const Case& c : {Case{1000, 1, "within 1.25x", 3}, Case{1250, 1.25, "within 1.25x", 3},
                        Case{800, 1.25, "within 1.25x", 3}, Case{1251, 1.251, "within 2x", 2},
                        Case{2000, 2, "within 2x", 2}, Case{500, 2, "within 2x", 2}, Case{4000, 4, "within 4x", 1},
                        Case{250, 4, "within 4x", 1}, Case{4001, 4.001, "off by more than 4x", 0},
                        Case{249, 1000.0 / 249, "off by more than 4x", 0}}) {
    INFO("predicted " << c.predicted);
    Grade g = grade(lab, results(1000, 2), {false, 0, 0}, kDevice, {{"guess", std::to_string(c.predicted), c.predicted}});
    const auto& p = prediction(g, "guess");
    CHECK(p.measured == std::optional<double>(1000));
    CHECK(p.predicted == std::optional<double>(c.predicted));
    REQUIRE(p.factor);
    CHECK(*p.factor == Approx(c.factor));
    CHECK(p.band == c.band);
    CHECK(p.score == c.score);
    CHECK(p.max_score == 3);
  }
}

TEST_CASE("a number prediction may be scored against a derived metric", "[grade]") {
  LabSpec lab = make_lab();
  lab.predictions = {number_prediction("dbl", "double_count")};
  Grade g = grade(lab, results(1000, 2), {false, 0, 0}, kDevice, {{"dbl", "1000", 1000.0}});
  const auto& p = prediction(g, "dbl");
  CHECK(p.measured == std::optional<double>(2000));
  CHECK(p.band == "within 2x");
}

TEST_CASE("a number prediction whose metric was not measured has no score and says why", "[grade]") {
  LabSpec lab = make_lab();
  lab.predictions = {number_prediction("t", "sum_ms")};
  LabResults r = results(1000, 2);
  r.metrics.pop_back();  // no sum_ms
  Grade g = grade(lab, r, {false, 0, 0}, kDevice, {{"t", "3", 3.0}});
  const auto& p = prediction(g, "t");
  CHECK_FALSE(p.measured);
  CHECK_FALSE(p.factor);
  CHECK(p.score == 0);
  CHECK(p.band.empty());
  CHECK(p.note == "'sum_ms' was not measured");
}

TEST_CASE("a zero or negative number cannot be scored by a factor", "[grade]") {
  LabSpec lab = make_lab();
  lab.predictions = {number_prediction("guess", "count")};
  Grade g = grade(lab, results(1000, 2), {false, 0, 0}, kDevice, {{"guess", "0", 0.0}});
  CHECK_FALSE(prediction(g, "guess").factor);
  CHECK(prediction(g, "guess").note.find("positive") != std::string::npos);
  Grade z = grade(lab, results(0, 2), {false, 0, 0}, kDevice, {{"guess", "5", 5.0}});
  CHECK_FALSE(prediction(z, "guess").factor);
}

TEST_CASE("a prediction that was not made scores nothing and says so", "[grade]") {
  LabSpec lab = make_lab();
  lab.predictions = {number_prediction("guess", "count")};
  const auto& p = prediction(grade(lab, results(1000, 2)), "guess");
  CHECK(p.answer.empty());
  CHECK(p.note == "no prediction was made");
  CHECK(p.measured == std::optional<double>(1000));
  CHECK(p.score == 0);
  CHECK(p.max_score == 3);
}

TEST_CASE("a choice prediction is right or wrong against the fixed answer", "[grade]") {
  LabSpec lab = make_lab();
  PredictionSpec c;
  c.id = "kind";
  c.kind = PredictionKind::choice;
  c.choices = {"a sum", "a product"};
  c.answer = "a sum";
  c.why = "it adds";
  lab.predictions = {c};
  const auto& right = prediction(grade(lab, results(1000, 2), {false, 0, 0}, kDevice, {{"kind", "a sum", {}}}), "kind");
  CHECK(right.correct == std::optional<bool>(true));
  CHECK(right.score == 1);
  CHECK(right.max_score == 1);
  CHECK(right.right_answer == "a sum");
  CHECK(right.why == "it adds");
  Grade wrong_g = grade(lab, results(1000, 2), {false, 0, 0}, kDevice, {{"kind", "a product", {}}});
  const auto& wrong = prediction(wrong_g, "kind");
  CHECK(wrong.correct == std::optional<bool>(false));
  CHECK(wrong.score == 0);
  CHECK(wrong.answer == "a product");
  CHECK(wrong.right_answer == "a sum");
}

TEST_CASE("answer_expr decides yes/no by the run: non-zero is yes", "[grade]") {
  LabSpec lab = make_lab();
  PredictionSpec y;
  y.id = "big";
  y.kind = PredictionKind::yesno;
  y.answer_expr = "count > 500";
  lab.predictions = {y};
  auto graded = [&](double count, const std::string& said) {
    return prediction(grade(lab, results(count, 2), {false, 0, 0}, kDevice, {{"big", said, {}}}), "big");
  };
  CHECK(graded(1000, "yes").correct == std::optional<bool>(true));
  CHECK(graded(1000, "yes").right_answer == "yes");
  CHECK(graded(1000, "no").correct == std::optional<bool>(false));
  CHECK(graded(100, "no").correct == std::optional<bool>(true));
  CHECK(graded(100, "no").right_answer == "no");
  CHECK(graded(100, "yes").correct == std::optional<bool>(false));
}

TEST_CASE("answer_expr for a choice is a 1-based index into the choices", "[grade]") {
  LabSpec lab = make_lab();
  PredictionSpec c;
  c.id = "which";
  c.kind = PredictionKind::choice;
  c.choices = {"small", "large", "huge"};
  c.answer_expr = "count > 5000 ? 3 : (count > 500 ? 2 : 1)";
  lab.predictions = {c};
  auto right_for = [&](double count) {
    return prediction(grade(lab, results(count, 2), {false, 0, 0}, kDevice, {{"which", "large", {}}}), "which");
  };
  CHECK(right_for(100).right_answer == "small");
  CHECK(right_for(100).correct == std::optional<bool>(false));
  CHECK(right_for(1000).right_answer == "large");
  CHECK(right_for(1000).correct == std::optional<bool>(true));
  CHECK(right_for(10000).right_answer == "huge");
  // An index outside 1..n gives no right answer (and no score), never a crash.
  c.answer_expr = "count";
  lab.predictions = {c};
  const auto& out = right_for(1000);
  CHECK_FALSE(out.correct);
  CHECK(out.right_answer.empty());
}

TEST_CASE("answer_expr over a metric that was not measured cannot be decided", "[grade]") {
  LabSpec lab = make_lab();
  PredictionSpec y;
  y.id = "slow";
  y.kind = PredictionKind::yesno;
  y.answer_expr = "sum_ms > 1";
  lab.predictions = {y};
  LabResults r = results(1000, 2);
  r.metrics.pop_back();
  const auto& p = prediction(grade(lab, r, {false, 0, 0}, kDevice, {{"slow", "yes", {}}}), "slow");
  CHECK_FALSE(p.correct);
  CHECK(p.score == 0);
  CHECK(p.note.find("not measured") != std::string::npos);
}

// --- the basis of a range: model, measured, workbook ------------------------------------

TEST_CASE("a measured figure for this GPU replaces the model band with a tight one", "[grade][basis]") {
  MeasuredLab lab;
  lab.figures["sum_ms"] = {2.0, 0.2};
  GradeBasis basis{"t4", &lab, "2026-11-30, driver 1, CUDA 13.0, 1500 MHz", true, "", {}, {}};
  Grade g = grade_run(make_lab(), results(1000, 2.5), {false, 0, 0}, kDevice, "", kParams, {}, "Tesla T4", basis);
  const MetricGrade& ms = g.metrics[1];
  REQUIRE(ms.name == "sum_ms");
  CHECK(ms.basis == RangeBasis::measured);
  CHECK(*ms.lo == Approx(2.0 / 1.2));
  CHECK(*ms.hi == Approx(2.4));
  CHECK(ms.status == RangeStatus::above);  // 2.5 ms is in the model band (0.5 .. 4000) but not here
  CHECK(g.verdict == Verdict::out_of_range);
  CHECK(ms.basis_note.find("measured on this GPU model (2026-11-30") != std::string::npos);
  // An exact figure keeps its model range.
  CHECK(g.metrics[0].basis == RangeBasis::model);
}

TEST_CASE("on the reference GPU at default parameters the workbook's figure, widened, is the range", "[grade][basis]") {
  GradeBasis basis{"t4", nullptr, "", true, "", {}, {}};
  Grade g = grade_run(make_lab(), results(1000, 0.9), {false, 0, 0}, kDevice, "", kParams, {}, "Tesla T4", basis);
  const MetricGrade& ms = g.metrics[1];  // reference t4: 0.001 .. 1 ms
  CHECK(ms.basis == RangeBasis::workbook);
  CHECK(*ms.lo == Approx(0.001 / 1.2));
  CHECK(*ms.hi == Approx(1.2));
  CHECK(ms.status == RangeStatus::in_range);
  CHECK(g.verdict == Verdict::pass);

  basis.default_params = false;  // -p changed a size: the workbook's figure does not apply
  Grade other = grade_run(make_lab(), results(1000, 0.9), {false, 0, 0}, kDevice, "", kParams, {}, "Tesla T4", basis);
  CHECK(other.metrics[1].basis == RangeBasis::model);
  CHECK(other.verdict == Verdict::pass);

  LabSpec shown_only = make_lab();  // a reference not marked graded is only shown
  shown_only.metrics[1].reference->graded = false;
  basis.default_params = true;
  CHECK(grade_run(shown_only, results(1000, 0.9), {false, 0, 0}, kDevice, "", kParams, {}, "Tesla T4", basis)
            .metrics[1].basis == RangeBasis::model);

  GradeBasis elsewhere{"h200-sxm", nullptr, "", true, "", {}, {}};  // another GPU: the model band
  CHECK(grade_run(make_lab(), results(1000, 0.9), {false, 0, 0}, kDevice, "", kParams, {}, "Tesla T4", elsewhere)
            .metrics[1].basis == RangeBasis::model);
}

TEST_CASE("without device figures, ranges and answers that need none are still graded", "[grade]") {
  // count (equals N) and double_count (equals twice_n = 2*N) need no device figure;
  // sum_ms (up to sm_count * 100) does.
  Grade g = grade(make_lab(), results(999, 2), {false, 0, 0}, Figures{});
  const MetricGrade count = graded_metric(g, "count");
  CHECK(count.status == RangeStatus::below);
  CHECK(count.lo == std::optional<double>(1000));
  CHECK(count.hi == std::optional<double>(1000));
  CHECK(graded_metric(g, "double_count").status == RangeStatus::below);
  const MetricGrade ms = graded_metric(g, "sum_ms");
  CHECK(ms.status == RangeStatus::unknown);  // a device figure is really missing
  CHECK(ms.note == "no GPU figures here");
  CHECK(g.verdict == Verdict::out_of_range);
  CHECK(graded_metric(grade(make_lab(), results(1000, 2), {false, 0, 0}, Figures{}), "count").status == RangeStatus::in_range);

  // A yes/no answer over reported metrics is decided without device figures too.
  LabSpec lab = make_lab();
  PredictionSpec big;
  big.id = "big";
  big.kind = PredictionKind::yesno;
  big.answer_expr = "count > 500";
  lab.predictions = {big};
  Grade p = grade(lab, results(1000, 2), {false, 0, 0}, Figures{}, {{"big", "yes", std::nullopt}});
  CHECK(prediction(p, "big").right_answer == "yes");
  CHECK(prediction(p, "big").correct == std::optional<bool>(true));
}

TEST_CASE("a required check the lab skipped (under a profiler) neither fails the run nor hides a failure", "[grade]") {
  const LabSpec lab = make_lab();
  LabResults r = results(1000, 2);
  r.checks[1] = {"size_ok", true, std::nullopt, std::nullopt, "not checkable under ncu", true};
  const Grade g = grade(lab, r);
  CHECK(g.verdict == Verdict::pass);
  auto size = std::find_if(g.checks.begin(), g.checks.end(), [](const CheckGrade& c) { return c.name == "size_ok"; });
  REQUIRE(size != g.checks.end());
  CHECK(size->skipped);
  CHECK(size->reported);
  LabResults bad = results(1000, 2, false);
  bad.checks[1] = r.checks[1];
  CHECK(grade(lab, bad).verdict == Verdict::fail);
}

// --- figures measured away from the parameters their ranges are for (a sweep) -----------

TEST_CASE("ranges_not_graded: figures are shown without a range verdict, checks still decide", "[grade][sweep]") {
  GradeBasis basis;
  basis.ranges_not_graded = "not graded: the ranges are for N=1000";
  // sum_ms 0.25 is below its 0.5 ms floor, count 999 is not the N it should equal: with
  // ranges this run is OUT OF RANGE (see above); here it passes on its checks.
  Grade g = grade_run(make_lab(), results(999, 0.25), {false, 0, 0}, kDevice, "", kParams, {}, "Tesla T4", basis);
  CHECK(g.verdict == Verdict::pass);
  const MetricGrade ms = graded_metric(g, "sum_ms");
  CHECK(ms.status == RangeStatus::not_graded);
  CHECK(std::string(to_string(ms.status)) == "not graded");
  CHECK(ms.note == "not graded: the ranges are for N=1000");
  CHECK_FALSE(ms.lo);
  CHECK_FALSE(ms.hi);
  CHECK(ms.reference.empty());
  CHECK(*ms.value == Approx(0.25));
  CHECK(graded_metric(g, "double_count").status == RangeStatus::not_graded);  // derived figures too
  // A wrong result is still a FAIL at any value.
  Grade wrong = grade_run(make_lab(), results(999, 0.25, false), {false, 1, 0}, kDevice, "", kParams, {}, "Tesla T4", basis);
  CHECK(wrong.verdict == Verdict::fail);
  // A figure the lab never reported stays "not reported".
  LabResults r = results(1000, 2);
  r.metrics.pop_back();
  CHECK(graded_metric(grade_run(make_lab(), r, {false, 0, 0}, kDevice, "", kParams, {}, "Tesla T4", basis), "sum_ms").status ==
        RangeStatus::missing);
}

// --- a graded figure the lab did not report (issue 26) ----------------------------------

TEST_CASE("a graded figure never reported, or reported as NaN, fails the run with its name", "[grade][missing]") {
  LabResults r = results(1000, 2);
  r.metrics.erase(r.metrics.begin() + 1);  // no sum_ms (a NaN through wb::metric reads the same)
  Grade g = grade(make_lab(), r);
  CHECK(g.verdict == Verdict::fail);
  CHECK(exit_for(g.verdict) == Exit::check_failed);
  CHECK(g.verdict_reason == "the lab did not report sum_ms as a finite number");
  auto c = std::find_if(g.checks.begin(), g.checks.end(), [](const CheckGrade& x) { return x.name == "figures_reported"; });
  REQUIRE(c != g.checks.end());
  CHECK_FALSE(c->pass);

  // Every figure missing: all named; the metric without a range ("other") is not one of them.
  LabResults none = results(1000, 2);
  none.metrics.clear();
  Grade all = grade(make_lab(), none);
  CHECK(all.verdict == Verdict::fail);
  CHECK(all.verdict_reason == "the lab did not report count, sum_ms as a finite number");

  // An infinite value (1e999 in the results file parses as inf) is not a figure either.
  LabResults inf = results(1000, std::numeric_limits<double>::infinity());
  CHECK(grade(make_lab(), inf).verdict == Verdict::fail);

  // Without device figures, a reported figure whose range is unknown still passes.
  CHECK(grade(make_lab(), results(1000, 2), {false, 0, 0}, Figures{}).verdict == Verdict::pass);
}

TEST_CASE("a range with when: 0 on this run (a second GPU on a one-GPU machine) is neither graded nor required",
          "[grade][missing][when]") {
  LabSpec lab = make_lab();
  MetricSpec gpus;
  gpus.name = "gpus";
  gpus.unit = "count";
  MetricSpec dev1;
  dev1.name = "share_dev1";
  dev1.unit = "fraction";
  dev1.expected = ExpectedRange{"0.4", "0.6", "", 0, "", 0, FailSide::both, ""};
  dev1.expected->when_expr = "gpus >= 2";
  lab.metrics.push_back(gpus);
  lab.metrics.push_back(dev1);
  // One GPU: no share_dev1, and the run passes; the figure says why it is not graded.
  LabResults one = results(1000, 2);
  one.metrics.push_back({"gpus", "count", 1, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  Grade g1 = grade(lab, one);
  CHECK(g1.verdict == Verdict::pass);
  CHECK(graded_metric(g1, "share_dev1").status == RangeStatus::not_graded);
  CHECK(graded_metric(g1, "share_dev1").note == "graded only where gpus >= 2");
  // Two GPUs: the figure is required again, and graded.
  LabResults two = results(1000, 2);
  two.metrics.push_back({"gpus", "count", 2, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  Grade g2 = grade(lab, two);
  CHECK(g2.verdict == Verdict::fail);
  CHECK(g2.verdict_reason == "the lab did not report share_dev1 as a finite number");
  two.metrics.push_back({"share_dev1", "fraction", 0.9, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  CHECK(graded_metric(grade(lab, two), "share_dev1").status == RangeStatus::above);
  // gpus itself not reported: the condition cannot be evaluated, so the range applies.
  LabResults none = results(1000, 2);
  CHECK(grade(lab, none).verdict == Verdict::fail);
}

TEST_CASE("a results file over the read limit is said to be, not called a crash", "[grade][limits]") {
  LabResults r = results(1000, 2, true, true, /*ended=*/false);
  r.over_limit = true;
  Grade g = grade(make_lab(), r);
  CHECK(g.verdict == Verdict::fail);
  CHECK(g.verdict_reason.find("the results file is over the 16 MB limit") == 0);
  r.over_limit = false;
  CHECK(grade(make_lab(), r).verdict == Verdict::runtime_error);
}
