// find_nvcc, detect_gpu_arch and resolve_arch: all through run_process, never a shell.
#include "build/toolchain.hpp"

#include <cctype>
#include <cstdlib>
#include <regex>
#include <vector>

#include <fmt/format.h>

#include "exec/nvidia_smi.hpp"
#include "exec/process.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace workbook {
namespace {

std::vector<std::string> nonblank_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line = trim(text.substr(start, end - start));
    if (!line.empty()) lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

// Runs `<nvcc> --version`; nullopt when it cannot run or fails.
std::optional<Toolchain> probe_nvcc(const std::filesystem::path& nvcc) {
  ProcessOptions o;
  o.argv = {nvcc.string(), "--version"};
  o.timeout_s = 30;
  ProcessResult r;
  try {
    r = run_process(o);
  } catch (const Error&) {
    return std::nullopt;
  }
  if (!r.exited_ok()) return std::nullopt;
  auto lines = nonblank_lines(r.out);
  if (lines.empty()) return std::nullopt;
  Toolchain t;
  std::error_code ec;
  auto absolute = std::filesystem::absolute(nvcc, ec);
  t.nvcc = ec ? nvcc : absolute.lexically_normal();
  t.version = lines.back();
  std::smatch m;
  static const std::regex release_re(R"(release ([0-9]+\.[0-9]+))");
  if (std::regex_search(r.out, m, release_re)) t.release = m[1];
  return t;
}

}  // namespace

std::filesystem::path cupti_library(const Toolchain& nvcc) {
  const std::filesystem::path root = nvcc.nvcc.parent_path().parent_path();
  for (const char* rel : {"lib64/libcupti.so", "extras/CUPTI/lib64/libcupti.so", "targets/x86_64-linux/lib/libcupti.so"}) {
    std::error_code ec;
    if (std::filesystem::exists(root / rel, ec)) return root / rel;
  }
  return {};
}

std::optional<Toolchain> find_nvcc() {
  if (const char* forced = std::getenv("WORKBOOK_NVCC"); forced != nullptr && *forced != '\0') {
    auto path = find_in_path(forced);
    auto tc = path ? probe_nvcc(*path) : std::nullopt;
    if (!tc)
      throw UsageError(fmt::format("WORKBOOK_NVCC={} does not name a working nvcc", forced),
                       "point it at the nvcc of a CUDA toolkit (e.g. /usr/local/cuda/bin/nvcc), or unset it");
    return tc;
  }
  std::vector<std::filesystem::path> candidates;
  if (auto on_path = find_in_path("nvcc")) candidates.push_back(*on_path);
  candidates.emplace_back("/usr/local/cuda/bin/nvcc");
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0')
    candidates.push_back(std::filesystem::path(home) / "bin" / "nvcc");
  for (const auto& c : candidates) {
    if (!find_in_path(c.string())) continue;
    if (auto tc = probe_nvcc(c)) return tc;
  }
  return std::nullopt;
}

std::optional<std::string> arch_from_compute_cap(std::string_view compute_cap) {
  static const std::regex cc_re(R"(([0-9]{1,2})\.([0-9]))");
  std::string s = trim(compute_cap);
  std::smatch m;
  if (!std::regex_match(s, m, cc_re)) return std::nullopt;
  return "sm_" + m[1].str() + m[2].str();
}

std::optional<std::string> detect_gpu_arch() {
  const auto out = nvidia_smi({"--query-gpu=compute_cap", "--format=csv,noheader"});
  if (!out) return std::nullopt;
  auto lines = nonblank_lines(*out);
  if (lines.empty()) return std::nullopt;
  return arch_from_compute_cap(lines.front());
}

bool is_valid_arch(std::string_view arch) {
  static const std::regex arch_re(R"((sm|compute)_[0-9]{2,3}[af]?|native)");
  return std::regex_match(arch.begin(), arch.end(), arch_re);
}

std::optional<std::string> release_outside_supported(std::string_view release) {
  static const std::regex release_re(R"(([0-9]{1,3})\.([0-9]{1,3}))");
  const std::string text(release);
  std::smatch m;
  if (!std::regex_match(text, m, release_re)) return std::nullopt;
  const int major = std::stoi(m[1].str()), minor = std::stoi(m[2].str());
  if (major < 12 || (major == 12 && minor < 4))
    return fmt::format("nvcc {} is older than the labs support (CUDA {}): some labs use calls it lacks and will not "
                       "compile (docs/cuda-versions.md); install CUDA 12.4 or newer",
                       text, kSupportedCudaReleases);
  if (major > 13)
    return fmt::format("nvcc {} is newer than the labs were written for (CUDA {}): a call CUDA {} changed may not "
                       "compile (docs/cuda-versions.md lists those that changed from 12 to 13); a 13.x toolkit is the "
                       "one they are checked with",
                       text, kSupportedCudaReleases, major);
  return std::nullopt;
}

namespace {
std::vector<std::string> split_arch_list(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return parts;
    start = comma + 1;
  }
}
}  // namespace

bool is_valid_arch_list(std::string_view arches) {
  const std::vector<std::string> parts = split_arch_list(arches);
  if (parts.size() == 1) return is_valid_arch(parts.front());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!is_valid_arch(parts[i]) || parts[i] == "native") return false;
    for (std::size_t j = 0; j < i; ++j)
      if (parts[j] == parts[i]) return false;
  }
  return true;
}

std::vector<std::string> nvcc_arch_flags(std::string_view arch) {
  if (arch.empty()) return {"-arch=native"};
  const std::vector<std::string> parts = split_arch_list(arch);
  if (parts.size() == 1) return {"-arch=" + parts.front()};
  std::vector<std::string> flags;
  for (const std::string& a : parts) {
    const bool ptx = a.rfind("compute_", 0) == 0;
    const std::string number = a.substr(a.find('_') + 1);
    flags.push_back(fmt::format("-gencode=arch=compute_{},code={}", number, ptx ? "compute_" + number : "sm_" + number));
  }
  return flags;
}

std::string resolve_arch(std::optional<std::string> forced) {
  if (forced) {
    if (!is_valid_arch_list(*forced))
      throw UsageError(fmt::format("`{}` is not a GPU architecture nvcc accepts here", *forced),
                       "use sm_NN for the GPU's compute capability N.N (sm_75 T4, sm_86 RTX 30xx, "
                       "sm_90 H100), compute_NN for PTX only, or native; several, each once and without native, "
                       "joined by commas (sm_75,sm_86,sm_90) build one binary for all of them");
    return *forced;
  }
  if (auto detected = detect_gpu_arch()) return *detected;
  return "native";
}

std::string arch_for_gpu(const std::optional<std::string>& forced, std::string_view compute_cap) {
  if (forced) return resolve_arch(forced);
  if (auto arch = arch_from_compute_cap(compute_cap)) return *arch;
  return resolve_arch(std::nullopt);
}

}  // namespace workbook
