// Showing a profiled run: the machine state, the trace summary and timeline, the
// Nsight Compute figures per kernel, the sanitizer's errors; and all of it as JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile/profile_run.hpp"
#include "ui/style.hpp"

namespace workbook {

// The report's lines (no trailing newline on each); empty when there is nothing to show.
std::vector<std::string> profile_lines(const ProfileReport& report, const Style& style);

// Everything in the report, for `--json` (key "profile").
nlohmann::json profile_json(const ProfileReport& report);

}  // namespace workbook
