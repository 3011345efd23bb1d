// `workbook experiment show NAME` and `experiment list` as text (the JSON is
// summary_json). The summary is the report's Markdown of the run (experiment_report.hpp)
// laid out for the terminal, so the screen and the report say the same.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/experiment_store.hpp"
#include "experiment/experiment_summary.hpp"
#include "ui/style.hpp"

namespace workbook {

// The summary for a terminal `width` wide (0: not wrapped), ending in a newline.
std::string experiment_text(const ExperimentSummary& s, const Style& style, std::size_t width);

// Where a scored prediction came from: "made 2026-12-02 with run #1, before any measurement".
std::string scored_answer_origin(const ExperimentSummary& s, const LabPrediction& a);

// A figure and its spread: "118 ms ±2.1% (3 runs)".
std::string figure_text(const Spread& s, const std::string& unit);

// The kernels of the variants side by side: the longest total first, at most `limit`
// rows; each cell the total time and calls. Empty when no variant was traced.
struct KernelRow {
  std::string name;
  std::vector<std::optional<KernelTime>> per_variant;  // in the summary's variant order
};
std::vector<KernelRow> kernel_rows(const ExperimentSummary& s, std::size_t limit = 12);

// `experiment list`: the workspace's experiment files and their runs, newest first.
struct ExperimentList {
  std::string dir;                     // <workspace>/experiments
  std::vector<std::string> files;      // experiment names (file stems), sorted
  std::vector<ExperimentRunRow> runs;
};
std::string experiment_list_text(const ExperimentList& list, const Style& style);
nlohmann::json experiment_list_json(const ExperimentList& list);

}  // namespace workbook
