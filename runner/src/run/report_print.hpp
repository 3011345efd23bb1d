// Printing a run report: a compact verdict table for people, one JSON object for scripts.
#pragma once

#include <nlohmann/json.hpp>

#include "run/lab_run.hpp"
#include "ui/style.hpp"

namespace workbook {

void print_report(const RunReport& report, const Style& style);
nlohmann::json report_json(const RunReport& report);

// "0.532 ms", "1.23e+04 GB/s": a figure with 3 significant digits and its unit.
std::string format_figure(double value, const std::string& unit);

}  // namespace workbook
