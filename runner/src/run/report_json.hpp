// A run report's facts as one JSON object: what `run --json`, `watch --json`, sweep and
// compare rows print (present/), and the report.json a Slurm compute node leaves for the
// login node (run/slurm_submit.hpp), which reads it back.
#pragma once

#include <nlohmann/json.hpp>

#include "run/lab_run.hpp"

namespace workbook {

nlohmann::json report_json(const RunReport& report);
// report_json with "profile" (profile_json): as run, watch and the Slurm node print it.
nlohmann::json run_report_json(const RunReport& report);

}  // namespace workbook
