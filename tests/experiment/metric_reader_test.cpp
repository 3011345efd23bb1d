// Tests for experiment/metric_reader: patterns read llm.c's training lines (both of its
// formats), per-step summaries and skips, medians and spreads, and the message for a
// pattern that matched nothing.
#include <catch2/catch.hpp>

#include "experiment/experiment_spec.hpp"
#include "experiment/experiment_template.hpp"
#include "experiment/metric_reader.hpp"

using namespace workbook;

namespace {

const char* kLog = "fake_train: 4 steps\n"
                   "step 1/4: train loss 4.29 (318 ms, 34800 tok/s)\n"
                   "step 2/4: train loss 4.10 (118 ms, 34700 tok/s)\r\n"
                   "step 3/4: train loss 3.90 (120 ms, 34100 tok/s)\n"
                   "step    4/4 | loss 3.800000 (+0.00z)| norm 1.2 | lr 3e-4 | 116.00 ms | 40.1% bf16 MFU | 35310 tok/s\n"
                   "val loss 4.1\n";

}  // namespace

TEST_CASE("metrics: the template's patterns read llm.c's lines", "[experiment]") {
  const Experiment e = parse_experiment(experiment_template("llm"), "llm", "llm.yaml");
  const MetricReadings r = read_metrics(e.metrics, kLog);
  CHECK(r.values.at("train_loss") == std::vector<double>{4.29, 4.10, 3.90, 3.8});
  CHECK(r.values.at("step_ms") == std::vector<double>{318, 118, 120, 116});
  CHECK(r.values.at("tok_per_s") == std::vector<double>{34800, 34700, 34100, 35310});
  CHECK(r.values.at("val_loss") == std::vector<double>{4.1});
  const ExperimentMetric& step_ms = e.metrics[1];
  CHECK(run_figure(step_ms, r.values.at("step_ms")) == Approx(118));  // skip: 1 leaves out the warm-up
  CHECK(run_figure(e.metrics[0], r.values.at("train_loss")) == Approx(3.8));  // summary: last
  CHECK(run_figure(e.metrics[3], r.values.at("val_loss")) == Approx(4.1));
}

TEST_CASE("metrics: summaries, skips and spreads", "[experiment]") {
  ExperimentMetric m;
  m.name = "x";
  m.pattern = "x=(\\S+)";
  const MetricReadings r = read_metrics({m}, "x=1 x=9 x=abc\nx=2\nno\nx=inf x=4");
  CHECK(r.values.at("x") == std::vector<double>{1, 9, 2, 4});
  CHECK(r.not_numbers.at("x") == 2);  // "abc" and "inf"
  CHECK(run_figure(m, r.values.at("x")) == Approx(3));  // median of 1 2 4 9
  m.summary = MetricSummary::mean;
  CHECK(run_figure(m, {1, 2, 6}) == Approx(3));
  m.summary = MetricSummary::min;
  m.skip = 5;  // more than there are: the last value stays
  CHECK(run_figure(m, {1, 2, 6}) == Approx(6));
  CHECK_FALSE(run_figure(m, {}));
  const auto s = spread_of({10, 12, 11});
  REQUIRE(s);
  CHECK(s->median == 11);
  CHECK(s->relative() == Approx(2.0 / 11));
  CHECK(spread_of({5})->relative() == 0);
  CHECK_FALSE(spread_of({}));
}

TEST_CASE("metrics: a pattern that matched nothing names itself and the output's first lines", "[experiment]") {
  ExperimentMetric m;
  m.name = "val_loss";
  m.pattern = "val loss ([0-9.]+)";
  std::string out;
  for (int i = 1; i <= 20; ++i) out += "line " + std::to_string(i) + "\n";
  const std::string msg = no_match_message(m, "bf16 (repeat 1)", out, 3);
  CHECK(msg.find("metric 'val_loss': the pattern 'val loss ([0-9.]+)' matched nothing in the output of bf16 (repeat 1)") == 0);
  CHECK(msg.find("first 3 of 20 lines") != std::string::npos);
  CHECK(msg.find("| line 3") != std::string::npos);
  CHECK(msg.find("line 4") == std::string::npos);
  CHECK(no_match_message(m, "a", "").find("the output was empty") != std::string::npos);
  // A megabyte line of garbage is cut, not fed whole to the regex engine.
  const MetricReadings big = read_metrics({m}, std::string(1 << 20, 'v') + " val loss 3\n");
  CHECK(big.values.at("val_loss").empty());
}
