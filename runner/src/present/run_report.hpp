// A run report, rendered in one place: a compact verdict table for people, with the GPU's
// clocks and throttling after the run (present/profile_view.hpp) and a profiler's
// results (its JSON: run/report_json.hpp). run, watch, sweep rows, compare and both ends
// of a Slurm run show a RunReport through these.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "run/lab_run.hpp"
#include "run/slurm_submit.hpp"
#include "ui/style.hpp"

namespace workbook {

// The report as text: compiler messages, checks, figures, predictions, the verdict and
// the next step, then the profile's lines (clocks before and after, throttling warnings,
// trace / ncu / sanitizer results).
std::string render_report(const RunReport& report, const Style& style);
void print_report(const RunReport& report, const Style& style);  // render_report to stdout

// The login node's end of a Slurm run: a line when Slurm's state decided the verdict, the
// report unless the node's (in the job's output, shown above) says it all, the job's line.
std::string render_slurm_end(const SlurmRunEnd& outcome, const Style& style);

// What an examiner would say of the learner's explanation (run/explained.hpp), under a
// heading; "" when there is no feedback.
std::string render_feedback(const std::string& feedback, const Style& style);

// One run with the explanation given on the command line (--explain) and its feedback:
// the report, then the feedback; or the report's JSON with "explanation",
// "explanation_feedback" (with --explain) and the "later_predictions" kept unscored.
struct ExplainedRun {
  const RunReport& report;
  std::optional<std::string> explanation;
  std::string feedback;
};
void print_explained_run(const ExplainedRun& run, const Style& style);
nlohmann::json explained_run_json(const ExplainedRun& run);

}  // namespace workbook
