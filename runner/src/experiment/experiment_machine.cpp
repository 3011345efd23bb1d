// The machine line of an experiment run (see experiment_machine.hpp).
#include "experiment/experiment_machine.hpp"

#include <utility>

#include "build/toolchain_config.hpp"
#include "device/local_gpu.hpp"
#include "profile/gpu_clocks.hpp"
#include "report/machine_line.hpp"

namespace workbook {

ExperimentMachine query_experiment_machine(const std::filesystem::path& workspace_root) {
  ExperimentMachine out;
  const auto gpu = query_local_gpu();
  if (gpu) out.gpu = gpu->name;
  RunMachine& m = out.machine;
  m.power_source = read_power_source();
  if (const auto nvcc = find_toolchain(workspace_root)) m.toolkit = nvcc->release.empty() ? nvcc->version : nvcc->release;
  if (const auto c = gpu ? query_gpu_clocks() : std::nullopt) {
    m.driver = c->driver;
    m.cuda_driver = c->cuda_version;
    m.clocks = true;
    m.sm_mhz = c->sm_mhz;
    m.max_sm_mhz = c->max_sm_mhz;
    m.mem_mhz = c->mem_mhz;
    m.temp_c = c->temp_c;
    m.power_w = c->power_w;
    m.power_limit_w = c->power_limit_w;
    m.pstate = c->pstate;
    if (c->reasons) {
      for (const auto& r : clock_reason_names(*c->reasons & kThrottleReasons))
        m.reason_names += (m.reason_names.empty() ? "" : ", ") + r;
      m.throttled = (*c->reasons & kThrottleReasons) != 0;
    }
  }
  if (gpu && m.driver.empty()) m.driver = gpu->driver;
  m.recorded = !m.driver.empty() || !m.toolkit.empty() || !m.power_source.empty();
  return out;
}

nlohmann::json machine_to_json(const RunMachine& m) {
  nlohmann::json j = machine_json(m);
  j["recorded"] = m.recorded;
  j["clocks"] = m.clocks;
  j["reason_names"] = m.reason_names;
  return j;
}

RunMachine machine_from_json(const nlohmann::json& j) {
  RunMachine m;
  if (!j.is_object()) return m;
  auto text = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
  auto number = [&](const char* k) -> std::optional<double> {
    if (j.contains(k) && j[k].is_number()) return j[k].get<double>();
    return std::nullopt;
  };
  m.recorded = j.value("recorded", false);
  m.clocks = j.value("clocks", false);
  m.throttled = j.value("throttled", false);
  using Text = std::string RunMachine::*;
  for (auto [key, field] : {std::pair<const char*, Text>{"driver", &RunMachine::driver}, {"cuda_driver", &RunMachine::cuda_driver},
                            {"toolkit", &RunMachine::toolkit}, {"power_source", &RunMachine::power_source},
                            {"pstate", &RunMachine::pstate}, {"reason_names", &RunMachine::reason_names}})
    m.*field = text(key);
  using Number = std::optional<double> RunMachine::*;
  for (auto [key, field] : {std::pair<const char*, Number>{"sm_mhz", &RunMachine::sm_mhz}, {"max_sm_mhz", &RunMachine::max_sm_mhz},
                            {"mem_mhz", &RunMachine::mem_mhz}, {"temp_c", &RunMachine::temp_c},
                            {"power_w", &RunMachine::power_w}, {"power_limit_w", &RunMachine::power_limit_w}})
    m.*field = number(key);
  return m;
}

std::string experiment_machine_text(const std::string& gpu, const nlohmann::json& machine) {
  const std::string line = machine_text(machine_from_json(machine));
  return (gpu.empty() ? std::string("no GPU found") : gpu) + ": " + line;
}

}  // namespace workbook
