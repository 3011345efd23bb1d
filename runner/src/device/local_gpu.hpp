// What GPU this machine has, asked of nvidia-smi (no CUDA library is linked).
#pragma once

#include <optional>
#include <string>

namespace workbook {

struct LocalGpu {
  std::string name;        // "NVIDIA H200"
  std::string compute_cap; // "9.0"
  std::string uuid;
  std::string driver;
  double memory_mib = 0;
};

// The first GPU nvidia-smi reports; nullopt when there is no nvidia-smi or no GPU.
// $WORKBOOK_GPU_NAME overrides the name (for machines without a GPU: tests, CI).
std::optional<LocalGpu> query_local_gpu();

// Parses one line of `nvidia-smi --query-gpu=name,compute_cap,uuid,driver_version,memory.total
// --format=csv,noheader,nounits`.
std::optional<LocalGpu> parse_nvidia_smi_line(const std::string& line);

}  // namespace workbook
