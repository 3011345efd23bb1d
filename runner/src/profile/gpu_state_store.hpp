// The GPU's clocks beside every run, in the journal: table run_gpu_state (schema version
// 5, journal/schema.cpp; it travels with its run), one row per reading:
//   run_gpu_state(run_id, phase 'before'|'after', sm_mhz, mem_mhz, max_sm_mhz, reasons
//                 (the bit mask), reason_names (comma-separated), throttled 0/1, temp_c,
//                 power_w, pstate, tool (none|trace|ncu|sanitize), power_limit_w)
// and the machine of the run: run_machine(run_id, driver, cuda_driver, toolkit,
// power_source) (the migration add_run_machine).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "journal/journal.hpp"
#include "profile/profile_run.hpp"

namespace workbook {

// Writes the report's before/after readings (nothing when there are none) and its
// machine state (table run_machine; nothing when it is empty). They are read back with
// the run (journal/journal_queries.hpp, machine_of_run).
void record_gpu_state(Journal& journal, long long run_id, const ProfileReport& report);

// The file the tool writes for run `run_id` in the workspace's runs folder (empty path
// without a tool): run-N.trace.jsonl, run-N.ncu.csv, run-N.sanitizer.txt.
std::filesystem::path profile_output_file(const std::filesystem::path& runs_dir, long long run_id,
                                          const ProfilePlan& plan);

}  // namespace workbook
