// Tests for content/metric_source: which profiler a prediction waits for.
#include <catch2/catch.hpp>

#include <string>

#include "content/manifest.hpp"
#include "content/metric_source.hpp"

using workbook::LabSpec;
using workbook::MetricSource;
using workbook::MetricSpec;
using workbook::prediction_tool;
using workbook::PredictionSpec;

namespace {

MetricSpec figure(const std::string& name, const std::string& tool = "") {
  MetricSpec m;
  m.name = name;
  if (!tool.empty()) {
    m.source = MetricSource{};
    m.source->tool = tool;
  }
  return m;
}

// A timing figure, an ncu figure and a trace figure, and a ratio derived from the ncu one.
LabSpec profiled_lab() {
  LabSpec lab;
  lab.metrics = {figure("tiled_ms"), figure("dram_bytes", "ncu"), figure("copy_us", "trace")};
  MetricSpec ratio;
  ratio.name = "dram_ratio";
  ratio.expr = "dram_bytes / 1e6";
  lab.derived = {ratio};
  return lab;
}

PredictionSpec scored_on(const std::string& metric, const std::string& answer_expr = "") {
  PredictionSpec p;
  p.id = "p";
  p.metric = metric;
  p.answer_expr = answer_expr;
  return p;
}

}  // namespace

TEST_CASE("prediction_tool: the profiler whose figure a prediction is scored on", "[metric_source]") {
  const LabSpec lab = profiled_lab();
  CHECK(prediction_tool(lab, scored_on("tiled_ms")) == "");
  CHECK(prediction_tool(lab, scored_on("dram_bytes")) == "ncu");
  CHECK(prediction_tool(lab, scored_on("copy_us")) == "trace");
  // Through a derived figure, and through a choice's answer expression.
  CHECK(prediction_tool(lab, scored_on("dram_ratio")) == "ncu");
  CHECK(prediction_tool(lab, scored_on("", "copy_us > 10 ? 'yes' : 'no'")) == "trace");
  // A name that only contains a profiled figure's name is not that figure.
  CHECK(prediction_tool(lab, scored_on("", "dram_bytes_total > 1")) == "");
}
