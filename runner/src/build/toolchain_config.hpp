// The learner's toolchain settings: which host compiler nvcc uses, whether an unsupported
// one is accepted anyway, and extra nvcc flags. Set once per workspace:
//
//   # <workspace>/toolchain.yaml
//   ccbin: /usr/bin/g++-14        # nvcc -ccbin: a g++ the CUDA release supports
//   allow_unsupported: false      # true: nvcc -allow-unsupported-compiler (nvcc warns)
//   nvcc_flags: ["-Xcompiler=-Wall"]   # extra nvcc flags for every CUDA build
//
// WORKBOOK_CCBIN overrides the file's ccbin, and the global --ccbin flag overrides both.
// The host compiler (ccbin, or nvcc's default: the `gcc` on PATH) is asked its version,
// which goes into the build cache key with its path and these flags.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "build/toolchain.hpp"

namespace workbook {

struct ToolchainSettings {
  std::optional<std::string> ccbin;
  std::string ccbin_from;  // "<file>:<line>", "WORKBOOK_CCBIN" or "--ccbin"
  bool allow_unsupported = false;
  std::string allow_from;  // "<file>:<line>"
  std::vector<std::string> nvcc_flags;
};

// <workspace>/toolchain.yaml.
std::filesystem::path toolchain_config_path(const std::filesystem::path& workspace_root);

// The file's settings (none when it does not exist). Throws ContentError naming
// file:line for a bad value, an unknown key, or an nvcc flag that belongs in a setting
// of its own (-ccbin, -allow-unsupported-compiler) or that the runner sets itself.
ToolchainSettings read_toolchain_file(const std::filesystem::path& file);

// The global --ccbin flag (main.cpp), for every toolchain this process finds.
void set_ccbin_flag(const std::string& ccbin);

// The file, then WORKBOOK_CCBIN, then --ccbin.
ToolchainSettings resolve_toolchain_settings(const std::filesystem::path& workspace_root);

// Asks `exe --version` (once per process and path); a compiler that cannot run gives a
// HostCompiler with only its path.
HostCompiler probe_host_compiler(const std::filesystem::path& exe);

// Applies settings to a found nvcc: resolves ccbin (a name on PATH, a file or a folder
// holding g++/gcc) and probes the host compiler. Throws UsageError, naming where ccbin
// was set, when it names nothing that runs.
void apply_toolchain_settings(Toolchain& tc, const ToolchainSettings& settings, const std::filesystem::path& config_file);

// find_nvcc() with the workspace's settings applied; nullopt when there is no nvcc.
std::optional<Toolchain> find_toolchain(const std::filesystem::path& workspace_root);

// What the settings add to every nvcc command: -ccbin PATH, -allow-unsupported-compiler,
// then nvcc_flags.
std::vector<std::string> toolchain_flags(const Toolchain& tc);

// One line: "nvcc 13.0 (/usr/local/cuda/bin/nvcc), host compiler gcc 12.2.0 (/usr/bin/gcc,
// nvcc's default)", then the flags the settings add, if any.
std::string describe_toolchain(const Toolchain& tc);

// The warning every build with allow_unsupported shows, in nvcc's own words.
std::string allow_unsupported_warning(const Toolchain& tc);

}  // namespace workbook
