// Tests for experiment/metric_reader: patterns read llm.c's training lines (both of its
// formats), per-step summaries and skips, medians and spreads, and the message for a
// pattern that matched nothing.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

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

// The whole output at once: a MetricStream fed once, as a run's is when the output has ended.
MetricReadings read_whole(const std::vector<ExperimentMetric>& metrics, std::string_view output) {
  MetricStream stream(metrics);
  stream.feed(output);
  stream.finish();
  return stream.readings();
}

}  // namespace

TEST_CASE("metrics: the template's patterns read llm.c's lines", "[experiment]") {
  const Experiment e = parse_experiment(experiment_template("llm"), "llm", "llm.yaml");
  const MetricReadings r = read_whole(e.metrics, kLog);
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
  const MetricReadings r = read_whole({m}, "x=1 x=9 x=abc\nx=2\nno\nx=inf x=4");
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
  const MetricReadings big = read_whole({m}, std::string(1 << 20, 'v') + " val loss 3\n");
  CHECK(big.values.at("val_loss").empty());
}

namespace {

double seconds_to_read(const ExperimentMetric& m, const std::string& output, MetricReadings& r) {
  const auto start = std::chrono::steady_clock::now();
  r = read_whole({m}, output);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("metrics: patterns are matched in linear time (RE2), never backtracking", "[experiment]") {
  ExperimentMetric m;
  m.name = "x";
  m.pattern = "(?:a+)+b([0-9])";  // std::regex never returned on 36 'a's
  MetricReadings r;
  CHECK(seconds_to_read(m, std::string(36, 'a') + "\n" + std::string(36, 'a') + "b7\n", r) < 1);
  CHECK(r.values.at("x") == std::vector<double>{7});
  // The template's own pattern took 39 s on 100 lines of 4096 digits.
  m.pattern = "([0-9.]+) ms";
  std::string digits;
  for (int i = 0; i < 100; ++i) digits += std::string(4096, '7') + "\n";
  CHECK(seconds_to_read(m, digits + "12.5 ms\n", r) < 2);
  CHECK(r.values.at("x") == std::vector<double>{12.5});
}

TEST_CASE("metrics: an output read piece by piece reads as the whole", "[experiment]") {
  const Experiment e = parse_experiment(experiment_template("llm"), "llm", "llm.yaml");
  const std::string log = kLog;
  for (std::size_t size : {1, 2, 7, 64}) {
    MetricStream s(e.metrics);
    for (std::size_t at = 0; at < log.size(); at += size) s.feed(std::string_view(log).substr(at, size));
    s.finish();
    CHECK(s.readings().values == read_whole(e.metrics, log).values);
  }
  // A last line without '\n' is read at finish().
  ExperimentMetric m;
  m.name = "v";
  m.pattern = "val loss ([0-9.]+)";
  CHECK(read_whole({m}, "val loss 1\nval loss 2").values.at("v") == std::vector<double>{1, 2});
  // stdout's values come before stderr's, as when the two were one text.
  const MetricReadings joined = join_readings(read_whole({m}, "val loss 1\n"), read_whole({m}, "val loss 2\n"));
  CHECK(joined.values.at("v") == std::vector<double>{1, 2});
}

TEST_CASE("metrics: past the most values kept, the last match still wins", "[experiment]") {
  ExperimentMetric m;
  m.name = "v";
  m.pattern = "v([0-9]+)";
  m.per = MetricPer::once;
  MetricStream s({m});
  for (std::size_t i = 0; i < kMostValues + 10; ++i) s.feed("v1\n");
  s.feed("v9\n");
  s.finish();
  const auto& values = s.readings().values.at("v");
  CHECK(values.size() == kMostValues);
  CHECK(values.back() == 9);
  CHECK(s.readings().unread.at("v") == 11);
  CHECK(run_figure(m, values) == 9);
}

TEST_CASE("metrics: a pattern RE2 cannot read, or with other than one group, says what to write", "[experiment]") {
  CHECK(pattern_problem("loss ([0-9.]+)").empty());
  CHECK(pattern_problem("(?:a+)+b([0-9])").empty());
  const std::string look = pattern_problem("(?=x)([0-9]+)");
  CHECK(look.find("is not a pattern RE2 reads") != std::string::npos);
  CHECK(look.find("look-arounds") != std::string::npos);
  CHECK(pattern_problem("(a)([0-9]+)").find("has 2 groups") != std::string::npos);
  CHECK(pattern_problem("[0-9]+").find("has 0 groups") != std::string::npos);
  CHECK_FALSE(pattern_problem("([0-9]+").empty());
}
