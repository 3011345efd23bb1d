// The machine line of an experiment run: the GPU, the driver and the CUDA version it
// supports, the toolkit, the clocks, the power draw and state, mains or battery. Read
// as a lab run reads them (device/local_gpu, profile/gpu_clocks, build/toolchain_config)
// and kept as report/machine_line's JSON, so one function words both.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "journal/journal_queries.hpp"

namespace workbook {

struct ExperimentMachine {
  std::string gpu;  // "" without a GPU
  RunMachine machine;
};

// Asks this machine now (nvidia-smi, the driver library, the workspace's toolchain).
ExperimentMachine query_experiment_machine(const std::filesystem::path& workspace_root);

nlohmann::json machine_to_json(const RunMachine& m);
RunMachine machine_from_json(const nlohmann::json& j);

// "NVIDIA H200: driver 580.., CUDA 13.0 (driver), ...", or "no GPU found".
std::string experiment_machine_text(const std::string& gpu, const nlohmann::json& machine);

}  // namespace workbook
