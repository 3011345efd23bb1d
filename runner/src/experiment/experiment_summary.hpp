// What a recorded experiment run shows (pure): per variant and metric the median and
// spread over the repeats that ran, the ratio to the baseline variant, each per-step
// metric's curve (the median over repeats at each step), the per-kernel table where the
// run was traced, and each prediction beside its measurement. `experiment show`, the
// report and `experiment run`'s end all present this one result.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment_spec.hpp"
#include "experiment/experiment_store.hpp"
#include "experiment/metric_reader.hpp"

namespace workbook {

struct KernelTime {
  long long calls = 0;
  double total_us = 0;
};

struct VariantSummary {
  std::string name;
  int repeats = 0, repeats_ok = 0;
  std::map<std::string, Spread> figures;               // metric -> over the repeats that read it
  std::map<std::string, std::vector<double>> curves;   // per-step metric -> median at each step
  std::map<std::string, KernelTime> kernels;           // --trace: the first traced repeat's
  std::vector<std::string> problems;                   // repeats that did not give figures, and why
};

struct PredictionView {
  ExperimentPrediction spec;
  // The scored answer: the experiment's first of this id (ExperimentRunRow::scored), given
  // with this run or an earlier one (answer->run_id says which).
  std::optional<LabPrediction> answer;
  std::optional<LabPrediction> later;  // this run's own answer beside a scored one: not scored
  std::optional<double> measured;  // the `measured:` expression over the medians
  std::optional<double> factor;    // max(p/m, m/p) for numbers
  std::string band;                // "within 1.25x", ...
  std::string note;                // why there is no measurement
};

struct ExperimentSummary {
  Experiment experiment;
  ExperimentRunRow run;
  std::vector<VariantSummary> variants;  // in the file's order
  std::vector<PredictionView> predictions;

  const VariantSummary* variant(const std::string& name) const;
  // variant's median / the baseline's median; nullopt when either is missing or the baseline's is 0.
  std::optional<double> ratio(const std::string& variant, const std::string& metric) const;
};

// Throws ContentError when the run's kept file no longer parses (it did when it ran).
ExperimentSummary summarize_experiment(const ExperimentRunRow& run);

nlohmann::json summary_json(const ExperimentSummary& s);

}  // namespace workbook
