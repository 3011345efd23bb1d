// Tests for experiment/experiment_topics: an experiment file may name the project topic it
// measures (`topic:`), one of the course's; its runs are read back from the journal.
#include <catch2/catch.hpp>

#include "experiment/experiment_spec.hpp"
#include "experiment/experiment_store.hpp"
#include "experiment/experiment_topics.hpp"
#include "util/error.hpp"

#include "../support/temp_dir.hpp"

using namespace workbook;

namespace {

const char* kTopical = R"~(format_version: 1
title: FP32 against BF16
topic: BF16
variants:
  - {name: fp32, command: "echo ms=10"}
  - {name: bf16, command: "echo ms=5"}
metrics:
  - {name: ms, pattern: "ms=([0-9.]+)", per: once}
)~";

}  // namespace

TEST_CASE("experiment topics: topic: is read, and must be one of the course's", "[experiment][project]") {
  const Experiment e = parse_experiment(kTopical, "llm_bf16", "experiments/llm_bf16.yaml");
  CHECK(e.topic == "BF16");
  const std::vector<std::string> topics{"tiling", "Tensor Cores", "BF16", "cuBLAS"};
  CHECK_NOTHROW(check_experiment_topic("bf16", topics, "experiments/llm_bf16.yaml"));  // without case
  CHECK_NOTHROW(check_experiment_topic("", topics, "experiments/llm_bf16.yaml"));
  try {
    check_experiment_topic("FP8", topics, "experiments/llm_bf16.yaml");
    FAIL("FP8 is no topic of the course");
  } catch (const UsageError& err) {
    CHECK(std::string(err.what()) ==
          "experiments/llm_bf16.yaml: topic: 'FP8' is not one of the project's topics (tiling, Tensor Cores, BF16, cuBLAS)");
  }
}

TEST_CASE("experiment topics: a finished run measures its topic, an explanation explains it", "[experiment][project]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const Experiment e = parse_experiment(kTopical, "llm_bf16", "experiments/llm_bf16.yaml");
  const long long unfinished = begin_experiment_run(j, e, false);
  finish_experiment_run(j, unfinished, ExperimentStatus::failed, "bf16 exited with code 3");
  const long long done = begin_experiment_run(j, e, false);
  finish_experiment_run(j, done, ExperimentStatus::done, "");
  auto runs = experiment_topic_runs(j);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].run_id == unfinished);  // oldest first
  CHECK_FALSE(runs[0].measured);
  CHECK(runs[1].topic == "BF16");
  CHECK(runs[1].measured);
  CHECK_FALSE(runs[1].explained);
  record_experiment_explanation(j, done, "BF16 halves the bytes each step moves");
  CHECK(experiment_topic_runs(j)[1].explained);
}

TEST_CASE("experiment topics: an experiment's first prediction joins the calibration ledger", "[experiment][ledger]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const Experiment e = parse_experiment(std::string(kTopical) + R"~(predictions:
  - {name: speedup, unit: x, question: "How much faster?", measured: fp32.ms / bf16.ms}
)~", "llm_bf16", "experiments/llm_bf16.yaml");
  const long long id = begin_experiment_run(j, e, false);
  record_experiment_prediction(j, id, "llm_bf16", {"speedup", "4", 4.0}, false);
  for (const auto& [variant, ms] : {std::pair{"fp32", 10.0}, std::pair{"bf16", 5.0}}) {
    RepeatResult r;
    r.variant = variant;
    r.repeat = 1;
    r.outcome = RepeatOutcome::ok;
    r.readings = {{"ms", {ms}}};
    record_repeat(j, id, r);
  }
  finish_experiment_run(j, id, ExperimentStatus::done, "");
  const auto entries = experiment_ledger_entries(j);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].lab == "experiment llm_bf16");
  CHECK(entries[0].module == kLedgerProject);
  CHECK(entries[0].kind == LedgerKind::speedup);
  CHECK(*entries[0].log2_ratio == Approx(1.0));  // predicted 4x, measured 2x
  const Ledger l = build_ledger(entries);
  CHECK(ledger_text(l).find("project") != std::string::npos);
}
