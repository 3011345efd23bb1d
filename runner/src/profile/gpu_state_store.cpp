// GPU state rows in the journal (see gpu_state_store.hpp).
#include "profile/gpu_state_store.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "journal/sqlite_statement.hpp"

namespace workbook {
void record_gpu_state(Journal& journal, long long run_id, const ProfileReport& report) {
  sqlite3* db = journal.store_connection();
  if (const MachineState& m = report.machine; !m.empty()) {
    sql::Statement(db, "INSERT OR REPLACE INTO run_machine(run_id, driver, cuda_driver, toolkit, power_source) "
                       "VALUES(?,?,?,?,?)")
        .bind(run_id).bind(m.driver).bind(m.cuda_driver).bind(m.toolkit).bind(m.power_source).run();
  }
  for (const auto& [phase, clocks] : {std::pair{"before", &report.clocks_before}, std::pair{"after", &report.clocks_after}}) {
    if (!*clocks) continue;
    const GpuClocks& c = **clocks;
    const std::string names = c.reasons ? fmt::format("{}", fmt::join(clock_reason_names(*c.reasons), ",")) : "";
    std::optional<long long> mask;
    if (c.reasons) mask = static_cast<long long>(*c.reasons);
    sql::Statement(db, "INSERT OR REPLACE INTO run_gpu_state(run_id, phase, sm_mhz, mem_mhz, max_sm_mhz, reasons, "
                       "reason_names, throttled, temp_c, power_w, pstate, tool, power_limit_w) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)")
        .bind(run_id).bind(phase).bind(c.sm_mhz).bind(c.mem_mhz).bind(c.max_sm_mhz).bind(mask).bind(names)
        .bind(c.reasons && (*c.reasons & kThrottleReasons) != 0).bind(c.temp_c).bind(c.power_w).bind(c.pstate)
        .bind(to_string(report.tool)).bind(c.power_limit_w).run();
  }
}

std::filesystem::path profile_output_file(const std::filesystem::path& runs_dir, long long run_id, const ProfilePlan& plan) {
  switch (plan.request.tool) {
    case ProfileTool::none: return {};
    case ProfileTool::trace: return runs_dir / fmt::format("run-{}.trace.jsonl", run_id);
    case ProfileTool::ncu: return runs_dir / fmt::format("run-{}.ncu.csv", run_id);
    case ProfileTool::sanitize: return runs_dir / fmt::format("run-{}.sanitizer.txt", run_id);
  }
  return {};
}

}  // namespace workbook
