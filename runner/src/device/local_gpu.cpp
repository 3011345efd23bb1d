// nvidia-smi query (see local_gpu.hpp).
#include "device/local_gpu.hpp"

#include <cstdlib>
#include <sstream>
#include <vector>

#include "exec/nvidia_smi.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace workbook {

std::optional<LocalGpu> parse_nvidia_smi_line(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(trim(f));
  if (fields.size() < 5 || fields[0].empty()) return std::nullopt;
  LocalGpu gpu{fields[0], fields[1], fields[2], fields[3], 0};
  try {
    gpu.memory_mib = std::stod(fields[4]);
  } catch (const std::exception&) {
    gpu.memory_mib = 0;
  }
  return gpu;
}

std::optional<LocalGpu> query_local_gpu() {
  if (const char* fake = std::getenv("WORKBOOK_GPU_NAME"); fake && *fake) {
    return LocalGpu{fake, "", "", "", 0};
  }
  const auto out = nvidia_smi({"--query-gpu=name,compute_cap,uuid,driver_version,memory.total",
                                "--format=csv,noheader,nounits"});
  if (!out) return std::nullopt;  // no nvidia-smi on this machine, or no GPU
  std::stringstream lines(*out);
  std::string first;
  std::getline(lines, first);
  return parse_nvidia_smi_line(first);
}

}  // namespace workbook
