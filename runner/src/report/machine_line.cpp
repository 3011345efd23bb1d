// The machine of a run in words (see machine_line.hpp).
#include "report/machine_line.hpp"
#include "util/json_or_null.hpp"

#include <fmt/format.h>

namespace workbook {

namespace {

void add_versions(const RunMachine& m, MachineFacts& f) {
  if (!m.driver.empty()) f.recorded.push_back("driver " + m.driver);
  else f.missing.push_back("driver");
  if (!m.cuda_driver.empty()) f.recorded.push_back("CUDA " + m.cuda_driver + " (driver)");
  else f.missing.push_back("the driver's CUDA version");
  if (!m.toolkit.empty()) f.recorded.push_back("CUDA toolkit " + m.toolkit + " (nvcc)");
  else f.missing.push_back("CUDA toolkit");
}

void add_clocks(const RunMachine& m, MachineFacts& f) {
  if (m.sm_mhz) {
    std::string c = fmt::format("SM {:g} MHz", *m.sm_mhz);
    if (m.max_sm_mhz) c += fmt::format(" (max {:g})", *m.max_sm_mhz);
    if (m.mem_mhz) c += fmt::format(", memory {:g} MHz", *m.mem_mhz);
    f.recorded.push_back(c);
  } else {
    f.missing.push_back("clocks");
  }
  if (m.power_w && m.power_limit_w) f.recorded.push_back(fmt::format("{:g} W of a {:g} W limit", *m.power_w, *m.power_limit_w));
  else if (m.power_w) f.recorded.push_back(fmt::format("{:g} W (limit not recorded)", *m.power_w));
  else f.missing.push_back("power draw");
  if (!m.pstate.empty()) f.recorded.push_back("power state " + m.pstate);
  else f.missing.push_back("power state");
  if (m.throttled) f.recorded.push_back("throttled (" + m.reason_names + ")");
}

}  // namespace

MachineFacts machine_facts(const RunMachine& m) {
  MachineFacts f;
  if (!m.recorded && !m.clocks) {
    f.missing.push_back("driver, CUDA version, clocks and power state");
    return f;
  }
  add_versions(m, f);
  add_clocks(m, f);
  if (m.power_source == "mains") f.recorded.push_back("on mains power");
  else if (m.power_source == "battery") f.recorded.push_back("on battery");
  else if (!m.recorded) f.missing.push_back("power source");
  return f;
}

std::string machine_text(const RunMachine& m) {
  const MachineFacts f = machine_facts(m);
  if (f.recorded.empty()) return "not recorded";
  std::string out;
  for (const auto& x : f.recorded) out += (out.empty() ? "" : ", ") + x;
  std::string missing;
  for (const auto& x : f.missing) missing += (missing.empty() ? "" : ", ") + x;
  return missing.empty() ? out : out + "; not recorded: " + missing;
}

nlohmann::json machine_json(const RunMachine& m) {
  auto text = [](const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
  return {{"driver", text(m.driver)},
          {"cuda_driver", text(m.cuda_driver)},
          {"toolkit", text(m.toolkit)},
          {"power_source", text(m.power_source)},
          {"sm_mhz", json_or_null(m.sm_mhz)},
          {"max_sm_mhz", json_or_null(m.max_sm_mhz)},
          {"mem_mhz", json_or_null(m.mem_mhz)},
          {"temp_c", json_or_null(m.temp_c)},
          {"power_w", json_or_null(m.power_w)},
          {"power_limit_w", json_or_null(m.power_limit_w)},
          {"pstate", text(m.pstate)},
          {"throttled", m.throttled},
          {"not_recorded", machine_facts(m).missing}};
}

}  // namespace workbook
