// The GPU's clocks beside every run, in the journal: table run_gpu_state (created on first
// use on Journal::store_connection()), one row per reading:
//   run_gpu_state(run_id, phase 'before'|'after', sm_mhz, mem_mhz, max_sm_mhz, reasons
//                 (the bit mask), reason_names (comma-separated), throttled 0/1, temp_c,
//                 power_w, pstate, tool (none|trace|ncu|sanitize))
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "journal/journal.hpp"
#include "profile/profile_run.hpp"

namespace workbook {

// Writes the report's before/after readings (nothing when there are none).
void record_gpu_state(Journal& journal, long long run_id, const ProfileReport& report);

struct StoredGpuState {
  std::string phase;
  std::optional<double> sm_mhz, mem_mhz;
  std::string reason_names;
  bool throttled = false;
  std::string tool;
};
std::vector<StoredGpuState> gpu_state_of(Journal& journal, long long run_id);

// The file the tool writes for run `run_id` in the workspace's runs folder (empty path
// without a tool): run-N.trace.jsonl, run-N.ncu.csv, run-N.sanitizer.txt.
std::filesystem::path profile_output_file(const std::filesystem::path& runs_dir, long long run_id,
                                          const ProfilePlan& plan);

}  // namespace workbook
