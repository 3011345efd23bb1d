// GPU state rows in the journal (see gpu_state_store.hpp).
#include "profile/gpu_state_store.hpp"

#include <fmt/format.h>

#include "journal/sqlite_statement.hpp"

namespace workbook {
namespace {

void ensure_table(sqlite3* db) {
  sql::exec(db,
            "CREATE TABLE IF NOT EXISTS run_gpu_state("
            "run_id INTEGER NOT NULL REFERENCES runs(id), phase TEXT NOT NULL, sm_mhz REAL, mem_mhz REAL, "
            "max_sm_mhz REAL, reasons INTEGER, reason_names TEXT NOT NULL, throttled INTEGER NOT NULL, "
            "temp_c REAL, power_w REAL, pstate TEXT NOT NULL, tool TEXT NOT NULL, PRIMARY KEY(run_id, phase))");
}

}  // namespace

void record_gpu_state(Journal& journal, long long run_id, const ProfileReport& report) {
  if (!report.clocks_before && !report.clocks_after) return;
  sqlite3* db = journal.store_connection();
  ensure_table(db);
  for (const auto& [phase, clocks] : {std::pair{"before", &report.clocks_before}, std::pair{"after", &report.clocks_after}}) {
    if (!*clocks) continue;
    const GpuClocks& c = **clocks;
    std::string names;
    if (c.reasons)
      for (const auto& n : clock_reason_names(*c.reasons)) names += (names.empty() ? "" : ",") + n;
    std::optional<long long> mask;
    if (c.reasons) mask = static_cast<long long>(*c.reasons);
    sql::Statement(db, "INSERT OR REPLACE INTO run_gpu_state(run_id, phase, sm_mhz, mem_mhz, max_sm_mhz, reasons, "
                       "reason_names, throttled, temp_c, power_w, pstate, tool) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)")
        .bind(run_id).bind(phase).bind(c.sm_mhz).bind(c.mem_mhz).bind(c.max_sm_mhz).bind(mask).bind(names)
        .bind(c.reasons && (*c.reasons & kThrottleReasons) != 0).bind(c.temp_c).bind(c.power_w).bind(c.pstate)
        .bind(to_string(report.tool)).run();
  }
}

std::vector<StoredGpuState> gpu_state_of(Journal& journal, long long run_id) {
  sqlite3* db = journal.store_connection();
  ensure_table(db);
  sql::Statement s(db, "SELECT phase, sm_mhz, mem_mhz, reason_names, throttled, tool FROM run_gpu_state "
                       "WHERE run_id=? ORDER BY phase DESC");
  s.bind(run_id);
  std::vector<StoredGpuState> rows;
  while (s.next()) rows.push_back({s.text(0), s.real_or_null(1), s.real_or_null(2), s.text(3), s.integer(4) != 0, s.text(5)});
  return rows;
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
