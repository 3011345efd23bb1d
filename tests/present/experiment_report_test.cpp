// Tests for experiment/experiment_report: a per-step metric's chart has every variant as a
// line, and says so on the chart when two lines coincide (one would hide the other).
#include <catch2/catch.hpp>

#include "present/experiment_report.hpp"

using namespace workbook;

TEST_CASE("experiment report: a curve chart names variants whose lines coincide", "[experiment]") {
  ExperimentSummary s;
  s.experiment.name = "llm_bf16";
  ExperimentMetric loss;
  loss.name = "loss";
  VariantSummary fp32, bf16, tf32;
  fp32.name = "fp32";
  bf16.name = "bf16";
  tf32.name = "tf32";
  fp32.curves["loss"] = {3.2, 3.0, 2.9};
  bf16.curves["loss"] = {3.2, 3.1, 2.95};
  tf32.curves["loss"] = {3.2, 3.0, 2.9};
  s.variants = {fp32, bf16, tf32};
  const plot::Chart c = curve_chart(s, loss);
  REQUIRE(c.series.size() == 3);  // every variant a line
  CHECK(c.title == "llm_bf16: loss per step (fp32 and tf32 coincide: one line hides the other)");
  s.variants = {fp32, bf16};
  CHECK(curve_chart(s, loss).title == "llm_bf16: loss per step");
}
