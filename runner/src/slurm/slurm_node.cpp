// The compute node (see slurm_node.hpp).
#include "slurm/slurm_node.hpp"

#include <unistd.h>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "device/local_gpu.hpp"
#include "exec/nvidia_smi.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::string host_name() {
  char buf[256] = {};
  return ::gethostname(buf, sizeof buf - 1) == 0 ? std::string(buf) : std::string();
}

std::string nvidia_smi_list() { return nvidia_smi({"-L"}).value_or(""); }

}  // namespace

std::string mig_profile(const std::string& list, const std::string& visible) {
  // "  MIG 1g.10gb     Device  0: (UUID: MIG-c6d4f1ef-...)"
  static const std::regex line_form(R"(^\s*MIG\s+(\S+)\s+Device\s+\d+:\s*\(UUID:\s*(MIG-[^)\s]+)\))");
  std::string first;
  std::istringstream in(list);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, line_form)) continue;
    if (first.empty()) first = m[1];
    if (!visible.empty() && visible.find(m[2].str()) != std::string::npos) return m[1];
  }
  return first;
}

ComputeNode this_compute_node() {
  ComputeNode n;
  n.cluster = env_or("SLURM_CLUSTER_NAME", "");
  n.node = env_or("SLURMD_NODENAME", host_name());
  std::optional<LocalGpu> gpu = query_local_gpu();
  if (gpu) n.gpu = gpu_reference_name(*gpu);
  return n;
}

std::string gpu_reference_name(const LocalGpu& gpu) {
  const char* fake = std::getenv("WORKBOOK_GPU_NAME");
  if (fake && *fake) return gpu.name;
  const std::string profile = mig_profile(nvidia_smi_list(), env_or("CUDA_VISIBLE_DEVICES", ""));
  return profile.empty() ? gpu.name : gpu.name + " MIG " + profile;
}

}  // namespace workbook
