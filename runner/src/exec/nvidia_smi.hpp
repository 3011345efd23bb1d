// The one place the runner asks nvidia-smi anything: the GPU's name and compute
// capability (device, build), its clocks (profile), the SM clock (calibration) and the
// MIG listing on a Slurm node (run) all come through here.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace workbook {

// Runs `nvidia-smi ARGS...` (looked up on PATH, never through a shell) and returns its
// standard output when it exits with status 0; nullopt when there is no nvidia-smi, it
// fails, or it runs past `timeout_s`. A machine without a GPU is no error here: the
// caller says what that means for what it was doing.
std::optional<std::string> nvidia_smi(const std::vector<std::string>& args, double timeout_s = 20);

}  // namespace workbook
