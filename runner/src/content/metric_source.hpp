// The `source` of a profiler figure in a manifest (MetricSource, docs/authoring.md,
// "Profiler figures"): reading and validating it, and the names it may use.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "util/yaml_reader.hpp"

namespace workbook {

// What a trace figure may summarise (`of`) and, for each, the statistics (`stat`).
const std::vector<std::string>& trace_groups();
const std::vector<std::string>& trace_stats(const std::string& group);
// The reductions of an ncu figure over the launches it matches.
const std::vector<std::string>& ncu_stats();

// Reads `source:` under a metric (nullopt when absent); problems name the field.
std::optional<MetricSource> read_metric_source(MapReader& metric);

// True when the metric is measured by `tool` ("trace", "ncu").
bool measured_by(const MetricSpec& m, const std::string& tool);

// The profiler ("ncu", "trace") whose figure prediction `p` is graded on, following one
// derived metric; "" when it needs none. Such a prediction is asked only in a run under
// that profiler.
std::string prediction_tool(const LabSpec& lab, const PredictionSpec& p);

}  // namespace workbook
