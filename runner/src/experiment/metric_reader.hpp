// Reading an experiment's metrics from a command's output: each metric's pattern is
// searched line by line (every match of a per-step metric is a point of its curve, the
// last match of a once metric is its value), then each run's figure is summarised and the
// repeats of a variant give a median and a spread. Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment_spec.hpp"

namespace workbook {

// The values each metric's pattern captured, in output order (a capture that is not a
// number is skipped and counted).
struct MetricReadings {
  std::map<std::string, std::vector<double>> values;
  std::map<std::string, int> not_numbers;
};

MetricReadings read_metrics(const std::vector<ExperimentMetric>& metrics, const std::string& output);

// One run's figure of a metric: per step, its summary of the values after `skip`; once,
// the last value. nullopt when there is none.
std::optional<double> run_figure(const ExperimentMetric& metric, const std::vector<double>& values);

// The repeats of a variant, summarised.
struct Spread {
  double median = 0, min = 0, max = 0;
  int samples = 0;
  // (max - min) / |median|; 0 for one sample or a zero median.
  double relative() const;
};
std::optional<Spread> spread_of(std::vector<double> values);

// What to say when a metric's pattern matched nothing: the pattern, the metric, and the
// first lines of the output (at most `lines`, each cut at 160 characters), or that the
// output was empty.
std::string no_match_message(const ExperimentMetric& metric, const std::string& where, const std::string& output,
                             int lines = 8);

}  // namespace workbook
