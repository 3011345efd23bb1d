// Why a probe could not use the GPU (see probe_problem.hpp).
#include "device/probe_problem.hpp"

#include <fmt/format.h>

namespace workbook {

namespace {

struct KnownCause {
  const char* error;  // the CUDA runtime's name, as the harness prints it
  const char* why;    // completes "CUDA cannot use it: ..."
  const char* hint;
};

constexpr KnownCause kCauses[] = {
    {"cudaErrorInsufficientDriver", "the NVIDIA driver is missing or older than this CUDA toolkit needs",
     "install or update the NVIDIA driver (`nvidia-smi` shows its version and the CUDA version it supports), or build "
     "with a toolkit that driver supports (WORKBOOK_NVCC)"},
    {"cudaErrorSystemDriverMismatch", "the driver's library and its kernel module are different versions",
     "reboot after a driver update (or reload the nvidia kernel module), then run `workbook device` again"},
    {"cudaErrorCompatNotSupportedOnDevice", "the CUDA forward-compatibility package does not support this GPU",
     "remove the cuda-compat library from LD_LIBRARY_PATH, or update the driver"},
    {"cudaErrorNoDevice", "the CUDA runtime finds no device (the driver sees none, or CUDA_VISIBLE_DEVICES hides it)",
     "check `nvidia-smi` and CUDA_VISIBLE_DEVICES; in a container, start it with the GPU (--gpus all)"},
    {"cudaErrorDevicesUnavailable", "the GPU is busy or in a compute mode that refuses this process",
     "wait for the other program to finish (`nvidia-smi` lists it), or ask the admin about the compute mode"},
    {"cudaErrorInitializationError", "the driver failed to start CUDA on it",
     "check `nvidia-smi` and the kernel log (`dmesg | grep -i nvrm`); a reboot often helps"},
    {"cudaErrorNotPermitted", "this process may not use it", "check the device files' permissions (/dev/nvidia*)"},
};

}  // namespace

std::optional<ProbeProblem> no_usable_gpu(const std::string& failure, const std::string& found) {
  for (const auto& c : kCauses) {
    if (failure.find(c.error) == std::string::npos) continue;
    const std::string listed = found.empty() ? "A GPU was expected" : fmt::format("nvidia-smi lists {}", found);
    return ProbeProblem{fmt::format("{}, but CUDA cannot use it: {}", listed, c.why), c.hint};
  }
  return std::nullopt;
}

}  // namespace workbook
