// toolchain.yaml, WORKBOOK_CCBIN and --ccbin; the host compiler's version (see toolchain_config.hpp).
#include "build/toolchain_config.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>

#include <fmt/format.h>

#include "exec/process.hpp"
#include "util/error.hpp"
#include "util/text.hpp"
#include "util/yaml_reader.hpp"

namespace fs = std::filesystem;

namespace workbook {
namespace {

std::optional<std::string>& ccbin_flag() {
  static std::optional<std::string> flag;
  return flag;
}

// Flags with a setting of their own, or that the runner sets on every build.
std::string flag_problem(const std::string& flag) {
  if (flag.empty() || flag[0] != '-') return "is not an nvcc flag (flags start with '-')";
  for (const char* own : {"-ccbin", "--compiler-bindir"})
    if (flag.rfind(own, 0) == 0) return "sets the host compiler: write `ccbin: PATH` instead";
  for (const char* own : {"-allow-unsupported-compiler", "--allow-unsupported-compiler"})
    if (flag == own) return "write `allow_unsupported: true` instead (the runner then shows nvcc's warning)";
  for (const char* own : {"-o", "--output-file", "-arch", "--gpu-architecture"})
    if (flag == own || flag.rfind(std::string(own) + "=", 0) == 0) return "is set by the runner (use --arch for the GPU)";
  return "";
}

std::string at_line(const fs::path& file, int line) {
  return line > 0 ? fmt::format("{}:{}", file.string(), line) : file.string();
}

}  // namespace

fs::path toolchain_config_path(const fs::path& workspace_root) { return workspace_root / "toolchain.yaml"; }

ToolchainSettings read_toolchain_file(const fs::path& file) {
  ToolchainSettings s;
  std::error_code ec;
  if (!fs::exists(file, ec)) return s;
  Problems problems;
  YAML::Node root = load_yaml_file(file, problems);
  if (present(root)) {
    MapReader r(root, file.string(), "", problems);
    if (r.has("ccbin")) {
      s.ccbin = r.str("ccbin", true);
      s.ccbin_from = at_line(file, r.line("ccbin"));
    }
    if (r.has("allow_unsupported")) {
      s.allow_unsupported = r.boolean("allow_unsupported", true).value_or(false);
      s.allow_from = at_line(file, r.line("allow_unsupported"));
    }
    if (r.has("nvcc_flags")) {
      s.nvcc_flags = r.str_list("nvcc_flags", false);
      for (const auto& f : s.nvcc_flags)
        if (auto why = flag_problem(f); !why.empty()) r.problem("nvcc_flags", fmt::format("'{}' {}", f, why));
    }
    r.finish();
  }
  problems.throw_if_any();
  return s;
}

void set_ccbin_flag(const std::string& ccbin) { ccbin_flag() = ccbin; }

ToolchainSettings resolve_toolchain_settings(const fs::path& workspace_root) {
  ToolchainSettings s = read_toolchain_file(toolchain_config_path(workspace_root));
  if (const char* env = std::getenv("WORKBOOK_CCBIN"); env != nullptr && *env != '\0') {
    s.ccbin = env;
    s.ccbin_from = "WORKBOOK_CCBIN";
  }
  if (ccbin_flag() && !ccbin_flag()->empty()) {
    s.ccbin = *ccbin_flag();
    s.ccbin_from = "--ccbin";
  }
  return s;
}

HostCompiler probe_host_compiler(const fs::path& exe) {
  static std::mutex mutex;
  static std::map<fs::path, HostCompiler> known;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(exe); it != known.end()) return it->second;
  }
  HostCompiler h;
  h.path = exe;
  ProcessOptions o;
  o.argv = {exe.string(), "--version"};
  o.timeout_s = 30;
  try {
    ProcessResult r = run_process(o);
    if (r.exited_ok()) h.version_line = first_nonblank_line(r.out);
  } catch (const Error&) {
    // a compiler that cannot run keeps an empty version
  }
  std::smatch m;
  static const std::regex version_re(R"(\b([0-9]+\.[0-9]+(\.[0-9]+)?)\b)");
  if (std::regex_search(h.version_line, m, version_re)) h.version = m[1];
  if (h.version_line.find("clang") != std::string::npos) h.family = "clang";
  else if (h.version_line.find("g++") != std::string::npos || h.version_line.find("gcc") != std::string::npos ||
           h.version_line.find("GCC") != std::string::npos)
    h.family = "gcc";
  std::lock_guard<std::mutex> lock(mutex);
  known.emplace(exe, h);
  return h;
}

void apply_toolchain_settings(Toolchain& tc, const ToolchainSettings& s, const fs::path& config_file) {
  tc.config_file = config_file;
  tc.allow_unsupported = s.allow_unsupported;
  tc.allow_from = s.allow_from;
  tc.extra_flags = s.nvcc_flags;
  fs::path host;
  if (s.ccbin) {
    std::error_code ec;
    const fs::path given(*s.ccbin);
    std::optional<fs::path> found;
    if (fs::is_directory(given, ec)) {  // nvcc takes a folder and picks the compiler in it
      found = find_in_path("g++", given.string());
      if (!found) found = find_in_path("gcc", given.string());
      if (found) tc.ccbin = fs::absolute(given).lexically_normal();
    } else if ((found = find_in_path(*s.ccbin))) {
      tc.ccbin = fs::absolute(*found).lexically_normal();
    }
    if (!found)
      throw UsageError(fmt::format("ccbin `{}` (set by {}) names no compiler that can be run", *s.ccbin, s.ccbin_from),
                       "point it at a g++ your CUDA release supports (e.g. /usr/bin/g++-14), or remove the "
                       "setting to use nvcc's default (the gcc on PATH)");
    tc.ccbin_from = s.ccbin_from;
    host = fs::absolute(*found).lexically_normal();
  } else if (auto gcc = find_in_path("gcc")) {
    host = *gcc;  // nvcc's default on Linux
  }
  if (!host.empty()) tc.host = probe_host_compiler(host);
}

std::optional<Toolchain> find_toolchain(const fs::path& workspace_root) {
  std::optional<Toolchain> tc = find_nvcc();
  if (tc) apply_toolchain_settings(*tc, resolve_toolchain_settings(workspace_root), toolchain_config_path(workspace_root));
  return tc;
}

std::vector<std::string> toolchain_flags(const Toolchain& tc) {
  std::vector<std::string> flags;
  if (!tc.ccbin.empty()) flags.insert(flags.end(), {"-ccbin", tc.ccbin.string()});
  if (tc.allow_unsupported) flags.push_back("-allow-unsupported-compiler");
  flags.insert(flags.end(), tc.extra_flags.begin(), tc.extra_flags.end());
  return flags;
}

std::string describe_toolchain(const Toolchain& tc) {
  const std::string nvcc = fmt::format("nvcc {} ({})", tc.release.empty() ? tc.version : tc.release, tc.nvcc.string());
  std::string host = "no host compiler found (nvcc looks for gcc on PATH)";
  if (!tc.host.path.empty()) {
    const std::string name = tc.host.family.empty() ? tc.host.path.filename().string() : tc.host.family;
    host = fmt::format("host compiler {} {} ({}, {})", name, tc.host.version.empty() ? "(version unknown)" : tc.host.version,
                       tc.host.path.string(), tc.ccbin.empty() ? "nvcc's default" : "ccbin from " + tc.ccbin_from);
  }
  std::string line = nvcc + ", " + host;
  const auto flags = toolchain_flags(tc);
  if (!flags.empty()) {
    std::string joined;
    for (const auto& f : flags) joined += (joined.empty() ? "" : " ") + f;
    line += ", flags: " + joined;
  }
  return line;
}

std::string allow_unsupported_warning(const Toolchain& tc) {
  return fmt::format(
      "warning: built with -allow-unsupported-compiler ({}): nvcc skips its host compiler check, and in its own "
      "words \"using an unsupported host compiler may cause compilation failure or incorrect run time execution. "
      "Use at your own risk.\"\n",
      tc.allow_from.empty() ? "allow_unsupported" : "allow_unsupported, " + tc.allow_from);
}

}  // namespace workbook
