// A run report, rendered in one place: a compact verdict table for people, with the GPU's
// clocks and throttling after the run (profile/profile_print.hpp) and a profiler's
// results; one JSON object for scripts. run, watch, sweep rows, compare and both ends of
// a Slurm run show a RunReport through these.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

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

// The report's facts as JSON; run_report_json adds "profile" (profile_json), as run,
// watch and the Slurm node print it.
nlohmann::json report_json(const RunReport& report);
nlohmann::json run_report_json(const RunReport& report);

// "0.532 ms", "1.23e+04 GB/s": a figure with 3 significant digits and its unit.
std::string format_figure(double value, const std::string& unit);

}  // namespace workbook
