// Finding the CUDA compiler and choosing the GPU architecture labs are compiled for.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace workbook {

// The compiler nvcc hands the host code to: `ccbin` when one is set, else nvcc's own
// default, the `gcc` on PATH (toolchain_config.hpp).
struct HostCompiler {
  std::filesystem::path path;  // the executable; empty when none was found
  std::string version_line;    // first line of `<path> --version`, e.g. "gcc (GCC) 14.2.1 20240912 (Red Hat 14.2.1-3)"
  std::string version;         // "14.2.1"; empty when the line holds no version
  std::string family;          // "gcc" or "clang" (from the version line), else ""
};

// The nvcc the runner compiles labs with, and how it is told to compile host code.
struct Toolchain {
  std::filesystem::path nvcc;  // absolute path of the nvcc executable
  std::string version;         // last line of `nvcc --version`, e.g. "Build cuda_13.0.r13.0/compiler.36424714_0"
  std::string release;         // "13.0" from "release 13.0, V13.0.88"; empty when not found
  // From <workspace>/toolchain.yaml, WORKBOOK_CCBIN and --ccbin (toolchain_config.hpp);
  // find_nvcc leaves them empty.
  std::filesystem::path ccbin;           // passed as -ccbin; empty: nvcc's default host compiler
  std::string ccbin_from;                // where ccbin was set: "<file>:<line>", "WORKBOOK_CCBIN", "--ccbin"
  bool allow_unsupported = false;        // passed as -allow-unsupported-compiler
  std::string allow_from;                // "<file>:<line>" of allow_unsupported
  std::vector<std::string> extra_flags;  // nvcc_flags, passed before the manifest's flags
  std::filesystem::path config_file;     // the workspace's toolchain.yaml (whether or not it exists)
  HostCompiler host;
};

// The CUDA releases every lab and solution is written for (docs/cuda-versions.md): each
// call that differs between them is guarded on CUDART_VERSION.
inline constexpr const char* kSupportedCudaReleases = "12.4 to 13.x";

// A sentence saying how nvcc's `release` ("12.2", "14.0") lies outside
// kSupportedCudaReleases and what to do; nullopt inside it, and when the release is
// unknown (empty, or not "<major>.<minor>").
std::optional<std::string> release_outside_supported(std::string_view release);

// Finds nvcc: $WORKBOOK_NVCC, then PATH, then /usr/local/cuda/bin/nvcc, then
// $CUDA_HOME/bin/nvcc; its version comes from `nvcc --version`. nullopt when none is
// found. Throws UsageError when WORKBOOK_NVCC is set but does not name a working nvcc.
std::optional<Toolchain> find_nvcc();

// The CUPTI library of the toolkit that holds `nvcc` (<root>/lib64/libcupti.so, or
// <root>/extras/CUPTI/lib64/libcupti.so), or empty. Labs read it from $WB_CUPTI_LIB to
// time kernels by their own GPU durations (labs/common/wb_kernel_clock.hpp).
std::filesystem::path cupti_library(const Toolchain& nvcc);

// Asks nvidia-smi for the first GPU's compute capability ("9.0" -> "sm_90"). nullopt when
// nvidia-smi is missing, fails, or prints something else.
std::optional<std::string> detect_gpu_arch();

// "9.0" -> "sm_90", "12.0" -> "sm_120"; nullopt when `compute_cap` is not "<major>.<minor>".
std::optional<std::string> arch_from_compute_cap(std::string_view compute_cap);

// True for the -arch values the runner accepts: sm_NN, sm_NNa, sm_NNf, compute_NN,
// compute_NNa, compute_NNf (two or three digits) and native.
bool is_valid_arch(std::string_view arch);

// True for several of those joined by commas, each once, native never among them:
// "sm_75,sm_86,sm_90" (one nvcc builds all of them, one -gencode each). A single valid
// arch is a list of one.
bool is_valid_arch_list(std::string_view arches);

// The nvcc flags that compile for `arch` (an is_valid_arch_list value; empty: native):
// one arch gives {"-arch=sm_90"}; several give one "-gencode=arch=compute_NN,code=sm_NN"
// each (code=compute_NN for a compute_NN entry, PTX only), in the order given.
std::vector<std::string> nvcc_arch_flags(std::string_view arch);

// The arch to compile for: `forced` (from --arch; a valid arch or list of them, else
// UsageError), else the detected GPU's, else "native".
std::string resolve_arch(std::optional<std::string> forced);

// The same choice when the GPU's compute capability is already known (e.g. "9.0" from
// the device query): `forced`, else that GPU's arch, else resolve_arch's own detection.
// Saves asking nvidia-smi twice.
std::string arch_for_gpu(const std::optional<std::string>& forced, std::string_view compute_cap);

}  // namespace workbook
