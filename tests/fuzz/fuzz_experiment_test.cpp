// Fuzz targets for what an experiment reads from the learner: the experiment file
// (experiments/NAME.yaml, seeded with `experiment new`'s template and the shapes the tests
// use), the metric patterns in it (compiled by RE2 and matched against a training log),
// and a command's output read by the template's patterns, whole and piece by piece. The
// harness: tests/support/fuzz.hpp; each target passes when nothing but the runner's own
// Error escapes it.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "../support/fuzz.hpp"
#include "experiment/experiment_spec.hpp"
#include "experiment/experiment_template.hpp"
#include "experiment/metric_reader.hpp"

using namespace workbook;
using wbfuzz::fuzz;

namespace {

const char* const kTrainLog =
    "step 1/4: train loss 4.29 (318 ms, 34800 tok/s)\n"
    "step 2/4: train loss 4.10 (118 ms, 34700 tok/s)\r\n"
    "step    4/4 | loss 3.800000 (+0.00z)| norm 1.2 | lr 3e-4 | 116.00 ms | 40.1% bf16 MFU | 35310 tok/s\n"
    "val loss 4.1\rval loss 3.9\n";

}  // namespace

TEST_CASE("fuzz: the experiment file reader reports problems, never crashes", "[fuzz][experiment]") {
  const std::vector<std::string> corpus = {
      experiment_template("llm"),
      "format_version: 1\nrepeats: 2\ntimeout_s: 30\nbaseline: a\nvariants:\n"
      "  - {name: a, command: \"./train --x 'y z'\", cwd: ~/llm.c, env: {OMP_NUM_THREADS: '1'}}\n"
      "  - {name: b, command: [./train, --bf16]}\nmetrics:\n"
      "  - {name: m, pattern: '\\(([0-9.]+) ms', unit: ms, skip: 1, summary: min}\n"
      "  - {name: v, pattern: 'val loss ([0-9.]+)', per: once}\npredictions:\n"
      "  - {name: s, kind: number, unit: x, question: how fast?, measured: a.m / b.m}\n"
      "  - {name: c, kind: choice, choices: [up, down], question: which way?}\n"};
  fuzz("experiment file", corpus, [](const std::string& text) { parse_experiment(text, "x", "experiments/x.yaml"); });
}

TEST_CASE("fuzz: metric patterns compile or are refused, and match in bounded time", "[fuzz][experiment]") {
  const std::vector<std::string> corpus = {
      "train loss ([0-9.]+)", "\\(([0-9.]+) ms", "(?:a+)+b([0-9])", "([0-9]+)/[0-9]+", "loss\\s+([-+0-9.eE]+)$",
      "(?i)VAL LOSS (\\d+(?:\\.\\d+)?)", "^step\\s+(\\d+)", "(x{2,1000}){0,1000}", "(?=ms)([0-9]+)", "\\1(a)"};
  fuzz("metric pattern", corpus, [](const std::string& pattern) {
    ExperimentMetric m;
    m.name = "m";
    m.pattern = pattern;
    pattern_problem(pattern);  // a message or "", never a throw
    MetricStream stream({m});
    stream.feed(kTrainLog);
    stream.finish();
    for (double v : stream.readings().values.at("m")) CHECK(std::isfinite(v));
    measured_expression(pattern);
  });
}

TEST_CASE("fuzz: an output read by the template's patterns, whole or in pieces, reads the same", "[fuzz][experiment]") {
  const Experiment e = parse_experiment(experiment_template("llm"), "llm", "llm.yaml");
  const std::vector<std::string> corpus = {kTrainLog, std::string(5000, '7') + " ms\n" + kTrainLog};
  fuzz("metric output", corpus, [&](const std::string& output) {
    MetricStream whole(e.metrics);
    whole.feed(output);
    whole.finish();
    MetricStream pieces(e.metrics);
    for (std::size_t at = 0; at < output.size(); at += 7) pieces.feed(std::string_view(output).substr(at, 7));
    pieces.finish();
    CHECK(pieces.readings().values == whole.readings().values);
  });
}
