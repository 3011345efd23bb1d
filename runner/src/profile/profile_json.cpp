// A profiled run as JSON (see profile_json.hpp).
#include "profile/profile_json.hpp"

#include "profile/ncu_csv.hpp"

namespace workbook {

namespace {

nlohmann::json clocks_json(const GpuClocks& c) {
  nlohmann::json j;
  auto put = [&](const char* k, const std::optional<double>& v) { j[k] = v ? nlohmann::json(*v) : nlohmann::json(); };
  put("sm_mhz", c.sm_mhz);
  put("mem_mhz", c.mem_mhz);
  put("max_sm_mhz", c.max_sm_mhz);
  put("max_mem_mhz", c.max_mem_mhz);
  put("temp_c", c.temp_c);
  put("power_w", c.power_w);
  put("power_limit_w", c.power_limit_w);
  j["pstate"] = c.pstate;
  j["reasons"] = c.reasons ? nlohmann::json(clock_reason_names(*c.reasons)) : nlohmann::json();
  j["throttled"] = c.reasons && (*c.reasons & kThrottleReasons) != 0;
  return j;
}

nlohmann::json stats_json(const std::vector<TraceStat>& rows) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : rows) {
    a.push_back({{"name", r.name}, {"calls", r.calls}, {"total_us", r.total_us}, {"avg_us", r.avg_us()},
                 {"min_us", r.min_us}, {"max_us", r.max_us}, {"bytes", r.bytes}});
  }
  return a;
}

nlohmann::json trace_json(const ProfileReport& r) {
  const TraceSummary& t = *r.trace;
  nlohmann::json streams = nlohmann::json::array();
  for (const auto& st : t.streams) {
    streams.push_back({{"id", st.id}, {"kernels", st.kernels}, {"copies", st.copies}, {"memsets", st.memsets},
                       {"busy_us", st.busy_us}});
  }
  return {{"kernels", stats_json(t.kernels)}, {"copies", stats_json(t.copies)}, {"memsets", stats_json(t.memsets)},
          {"api", stats_json(t.api)},         {"unified_memory", t.um},        {"streams", streams},
          {"span_us", t.span_us},             {"busy_us", t.busy_us},          {"overlap_us", t.overlap_us},
          {"complete", t.ended},              {"dropped", t.dropped},          {"timeline", r.timeline},
          {"records_written", t.records_written}, {"records_not_written", t.records_not_written},
          {"timeline_truncated", t.records_not_written > 0}};
}

nlohmann::json ncu_json(const NcuTable& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : t.rows) {
    nlohmann::json o;
    for (std::size_t c = 0; c < t.columns.size() && c < row.size(); ++c) o[t.columns[c]] = row[c];
    rows.push_back(o);
  }
  return {{"launches", rows}, {"units", t.units}, {"messages", t.messages}, {"permission_denied", t.permission_denied}};
}

nlohmann::json sanitizer_json(const SanitizerReport& z) {
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& e : z.errors) {
    nlohmann::json frames = nlohmann::json::array();
    for (const auto& f : e.frames)
      frames.push_back({{"function", f.function}, {"file", f.file}, {"where", f.where}, {"toolkit", f.toolkit}});
    errors.push_back({{"what", e.what}, {"function", e.function}, {"where", e.where}, {"thread", e.thread},
                      {"detail", e.detail}, {"frames", frames}});
  }
  return {{"tool", z.tool},
          {"error_count", z.error_count ? nlohmann::json(*z.error_count) : nlohmann::json()},
          {"errors", errors},
          {"errors_printed", z.errors_printed},
          {"messages", z.tool_messages}};
}

}  // namespace

nlohmann::json profile_json(const ProfileReport& r) {
  nlohmann::json j;
  j["tool"] = to_string(r.tool);
  j["option"] = r.option;
  j["output"] = r.output.string();
  j["clocks_before"] = r.clocks_before ? clocks_json(*r.clocks_before) : nlohmann::json();
  j["clocks_after"] = r.clocks_after ? clocks_json(*r.clocks_after) : nlohmann::json();
  j["machine"] = {{"driver", r.machine.driver}, {"cuda_driver", r.machine.cuda_driver},
                  {"toolkit", r.machine.toolkit}, {"power_source", r.machine.power_source}};
  j["warnings"] = r.warnings;
  j["figures"] = r.figures;
  j["not_run_reason"] = r.not_run_reason;
  if (r.trace) j["trace"] = trace_json(r);
  if (r.ncu) j["ncu"] = ncu_json(*r.ncu);
  if (r.sanitizer) j["sanitizer"] = sanitizer_json(*r.sanitizer);
  return j;
}

}  // namespace workbook
