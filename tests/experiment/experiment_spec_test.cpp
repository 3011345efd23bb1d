// Tests for experiment/experiment_spec: the experiment file's fields, its validation
// (every problem with file:line), the command split, and the shipped template.
#include <catch2/catch.hpp>

#include "experiment/experiment_spec.hpp"
#include "experiment/experiment_template.hpp"
#include "util/error.hpp"

#include "../support/text_checks.hpp"

using namespace workbook;
using wbtest::any_contains;

namespace {

const char* kGood = R"(format_version: 1
title: two programs
repeats: 2
timeout_s: 30
baseline: slow
variants:
  - name: slow
    command: ./train --ms "100 0"
    cwd: bin
    env: {A: "1"}
  - name: fast
    command: [./train, --ms, "50"]
metrics:
  - name: step_ms
    pattern: '\(([0-9.]+) ms'
    unit: ms
    skip: 1
  - name: val_loss
    pattern: 'val loss ([0-9.]+)'
    per: once
predictions:
  - name: speedup
    kind: number
    unit: x
    question: "How much faster?"
    measured: slow.step_ms / fast.step_ms
  - name: bound
    kind: choice
    choices: [memory, compute]
    question: "What limits it?"
)";

std::vector<std::string> problems_of(const std::string& text) {
  try {
    parse_experiment(text, "x", "experiments/x.yaml");
  } catch (const ContentError& e) {
    return e.problems();
  }
  return {};
}
}  // namespace

TEST_CASE("experiment file: every field is read", "[experiment]") {
  const Experiment e = parse_experiment(kGood, "cmp", "experiments/cmp.yaml");
  CHECK(e.name == "cmp");
  CHECK(e.repeats == 2);
  CHECK(e.timeout_s == 30);
  CHECK(e.baseline == "slow");
  REQUIRE(e.variants.size() == 2);
  CHECK(e.variants[0].command == std::vector<std::string>{"./train", "--ms", "100 0"});
  CHECK(e.variants[0].cwd == "bin");
  CHECK(e.variants[0].env == std::vector<std::pair<std::string, std::string>>{{"A", "1"}});
  CHECK(e.variants[1].command == std::vector<std::string>{"./train", "--ms", "50"});
  REQUIRE(e.metrics.size() == 2);
  CHECK(e.metrics[0].per == MetricPer::step);
  CHECK(e.metrics[0].summary == MetricSummary::median);
  CHECK(e.metrics[0].skip == 1);
  CHECK(e.metrics[1].per == MetricPer::once);
  CHECK(e.metrics[1].summary == MetricSummary::last);
  REQUIRE(e.predictions.size() == 2);
  CHECK(e.predictions[1].spec.kind == PredictionKind::choice);
  CHECK(e.predictions[1].spec.choices.size() == 2);
  CHECK(measured_expression(e.predictions[0].measured) == "slow__step_ms / fast__step_ms");
  CHECK(prediction_lab(e).predictions.size() == 2);
}

TEST_CASE("experiment file: problems name the file, the line and the field", "[experiment]") {
  std::string text = kGood;
  text.replace(text.find("pattern: '\\(([0-9.]+) ms'"), std::string("pattern: '\\(([0-9.]+) ms'").size(),
               "pattern: '(step) ([0-9.]+) ms'");
  auto p = problems_of(text);
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("experiments/x.yaml:15: metrics[0].pattern:") == 0);
  CHECK(p[0].find("has 2 groups") != std::string::npos);

  p = problems_of("format_version: 1\nvariants:\n  - name: a\n    command: x\nmetrics:\n  - name: m\n    pattern: '(['\n");
  CHECK(any_contains(p, "variants: an experiment compares two or more variants"));
  CHECK(any_contains(p, "metrics[0].pattern: '([' is not a pattern RE2 reads"));
  // A look-ahead is not RE2's (a linear-time engine): the field and what to write instead.
  p = problems_of("format_version: 1\nvariants:\n  - name: a\n    command: x\nmetrics:\n  - name: m\n"
                  "    pattern: '(?=ms)([0-9]+)'\n");
  CHECK(any_contains(p, "metrics[0].pattern: '(?=ms)([0-9]+)' is not a pattern RE2 reads"));
  CHECK(any_contains(p, "no look-arounds"));

  p = problems_of(R"(format_version: 2
variants:
  - {name: a, command: "x 'y"}
  - {name: a-b, command: y}
metrics:
  - {name: m, pattern: '(\d+)', per: often}
predictions:
  - {name: p, question: q, measured: a.nope * 2}
)");
  CHECK(any_contains(p, "format_version: is 2"));
  CHECK(any_contains(p, "variants[0].command: the command 'x 'y' has an unclosed ' quote"));
  CHECK(any_contains(p, "variants[1].name: 'a-b' must be a plain name"));
  CHECK(any_contains(p, "metrics[0].per: 'often' is not one of step, once"));
  CHECK(any_contains(p, "'a.nope' is not VARIANT.METRIC"));
  CHECK(any_contains(problems_of("format_version: 1\nvariants: []\nmetrics: []\nbogus: 1\n"), ":4: bogus: unknown key"));
  CHECK(any_contains(problems_of(""), "is empty"));
}

TEST_CASE("experiment file: commands split like a shell, without expansion", "[experiment]") {
  CHECK(split_command("./a -b 4  'c d' \"e \\\"f\\\"\" g\\ h $HOME") ==
        std::vector<std::string>{"./a", "-b", "4", "c d", "e \"f\"", "g h", "$HOME"});
  CHECK(split_command("  ").empty());
  CHECK_THROWS_AS(split_command("a \"b"), UsageError);
}

TEST_CASE("experiment new: the template parses and reads llm.c's lines", "[experiment]") {
  const Experiment e = parse_experiment(experiment_template("llm"), "llm", "experiments/llm.yaml");
  CHECK(e.variants.size() == 2);
  CHECK(e.variants[0].name == "fp32");
  CHECK(e.variants[1].name == "bf16");
  CHECK(e.baseline == "fp32");
  CHECK(e.predictions.size() == 3);
  CHECK(e.topic == "BF16");  // the project topic it measures, so `progress` counts it
  CHECK(experiment_template("llm").find("workbook experiment run llm") != std::string::npos);
}
