// The experiments section of `workbook report`: per experiment its latest run with
// results, the variants side by side with ratios, the per-kernel table where traced, the
// predictions beside the measurements, the explanation, the machine line, and an SVG
// per per-step metric: its curve (the median over repeats at each step) for each variant,
// the check that an optimisation did not change what training does.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "experiment/experiment_summary.hpp"
#include "journal/journal.hpp"
#include "plot/chart.hpp"

namespace workbook {

struct ExperimentSvg {
  std::string name;  // file name beside report.md
  std::string svg;
};

struct ExperimentsSection {
  std::string markdown;             // "" when no experiment has results
  std::vector<ExperimentSvg> svgs;
  nlohmann::json json = nlohmann::json::array();
};

// A metric's curves: x the step (1-based match index), y its value, a series per variant.
plot::Chart curve_chart(const ExperimentSummary& s, const ExperimentMetric& metric);

// The section for every experiment in the journal (its latest run with results).
ExperimentsSection experiments_section(Journal& journal);

// The Markdown of one experiment (pure), linking `svgs` by name.
std::string experiment_markdown(const ExperimentSummary& s, const std::vector<ExperimentSvg>& svgs);

}  // namespace workbook
