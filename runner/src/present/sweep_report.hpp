// A parameter sweep (run/sweep.hpp) shown: a table of the figures per value, the
// compiler's errors of a run that did not build, a terminal chart and the SVG's path;
// one JSON object (each run's report_json with its value and whether it was graded).
#pragma once

#include <nlohmann/json.hpp>

#include "run/sweep.hpp"
#include "ui/style.hpp"

namespace workbook {

void print_sweep(const SweepResult& r, const Style& style);
nlohmann::json sweep_json(const SweepResult& r);

}  // namespace workbook
