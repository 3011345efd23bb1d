// A profiled run on the terminal: the machine state, the trace summary and timeline, the
// Nsight Compute figures per kernel, the sanitizer's errors (profile/profile_json.hpp has
// all of it as JSON).
#pragma once

#include <string>
#include <vector>

#include "profile/profile_run.hpp"
#include "ui/style.hpp"

namespace workbook {

// The report's lines (no trailing newline on each); empty when there is nothing to show.
std::vector<std::string> profile_lines(const ProfileReport& report, const Style& style);

}  // namespace workbook
