// A profiled run as data for `--json` (key "profile") and the run's report.json: the
// machine state, the trace summary and timeline, the Nsight Compute figures per kernel, the
// sanitizer's errors (present/profile_view.hpp shows them on a terminal).
#pragma once

#include <nlohmann/json.hpp>

#include "profile/profile_run.hpp"

namespace workbook {

nlohmann::json profile_json(const ProfileReport& report);

}  // namespace workbook
