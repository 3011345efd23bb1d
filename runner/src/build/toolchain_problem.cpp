// Recognising toolchain failures and the one-file probe (see toolchain_problem.hpp).
#include "build/toolchain_problem.hpp"

#include <fstream>
#include <regex>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include <fmt/format.h>

#include "build/toolchain_config.hpp"
#include "exec/process.hpp"
#include "util/error.hpp"
#include "util/hash.hpp"
#include "util/text.hpp"

namespace fs = std::filesystem;

namespace workbook {
namespace {

// The first line of `text` that `re` matches, or "".
std::string matching_line(std::string_view text, const std::regex& re) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string line(text.substr(start, end - start));
    if (std::regex_search(line, re)) return line;
    start = end + 1;
  }
  return "";
}

std::string release_of(const Toolchain& tc) { return tc.release.empty() ? tc.version : tc.release; }

std::string host_text(const Toolchain& tc) {
  if (tc.host.path.empty()) return "its host compiler";
  const std::string name = tc.host.family.empty() ? tc.host.path.filename().string() : tc.host.family;
  return fmt::format("{}{} ({}{})", name, tc.host.version.empty() ? "" : " " + tc.host.version, tc.host.path.string(),
                     tc.ccbin.empty() ? ", nvcc's default" : ", ccbin from " + tc.ccbin_from);
}

constexpr const char* kMeanwhile = "meanwhile, run the labs on Colab or on the cluster (`workbook run LAB --slurm`)";

ToolchainProblem host_compiler_problem(const std::string& evidence, std::string_view raw, const Toolchain& tc) {
  ToolchainProblem p;
  p.kind = "host_compiler_unsupported";
  p.evidence = evidence;
  std::smatch m;
  const std::string text(raw);
  static const std::regex later_re(R"((gcc|clang) versions? later than ([0-9]+))");
  static const std::regex less_re(R"(clang version must be less than ([0-9]+))");
  if (std::regex_search(text, m, later_re)) p.newest_supported = std::stoi(m[2]);
  else if (std::regex_search(text, m, less_re)) p.newest_supported = std::stoi(m[1]) - 1;
  const bool clang = evidence.find("clang") != std::string::npos;
  const std::string family = clang ? "clang" : "gcc";
  const std::string n = p.newest_supported ? std::to_string(*p.newest_supported) : "NN";
  p.reason = fmt::format("the toolchain, not your code: nvcc {} refuses {} as its host compiler", release_of(tc),
                         tc.host.version.empty() ? "the host compiler" : family + " " + tc.host.version);
  p.explanation = fmt::format("nvcc {} ({}) refuses {}: {}", release_of(tc), tc.nvcc.string(), host_text(tc),
                              p.newest_supported ? fmt::format("this CUDA release takes {} {} or older", family, n)
                                                 : std::string("this CUDA release does not support that version"));
  const std::string config = tc.config_file.empty() ? std::string("<workspace>/toolchain.yaml") : tc.config_file.string();
  p.fixes.push_back(fmt::format(
      "install a g++ that CUDA {} supports and point `ccbin` at it: on Fedora `sudo dnf install gcc{}-c++` (a "
      "compatibility compiler, where your Fedora release packages one: `dnf list 'gcc*-c++'` lists them), on Debian "
      "or Ubuntu `sudo apt install g++-{}`; then write `ccbin: /usr/bin/g++-{}` in {} (or try it once with "
      "--ccbin /usr/bin/g++-{})",
      release_of(tc), n, n, n, config, n));
  p.fixes.push_back(fmt::format("or opt in to this pair with `allow_unsupported: true` in {}: nvcc then builds, "
                                "warning that the result may fail to compile or run incorrectly",
                                config));
  p.fixes.push_back(kMeanwhile);
  p.next_step = fmt::format("install a supported g++ and set `ccbin` in {} (see above), or run on Colab or the "
                            "cluster meanwhile",
                            config);
  return p;
}

ToolchainProblem header_conflict_problem(const std::string& evidence, const Toolchain& tc, const std::string& glibc) {
  ToolchainProblem p;
  p.kind = "cuda_header_conflict";
  p.evidence = evidence;
  p.reason = fmt::format("the toolchain, not your code: CUDA {}'s math headers clash with this system's C library",
                         release_of(tc));
  p.explanation = fmt::format(
      "CUDA {}'s own math headers (crt/math_functions.h) declare functions such as cospi, sinpi or rsqrt "
      "differently from this system's C library{}; the clash is between two system headers, so no change to your "
      "lab fixes it, and another host compiler ({} now) does not either",
      release_of(tc), glibc.empty() ? "" : " (glibc " + glibc + ")", host_text(tc));
  p.fixes.push_back("install a newer CUDA toolkit, whose headers agree with this glibc, and point WORKBOOK_NVCC "
                    "(or PATH) at its nvcc");
  p.fixes.push_back(kMeanwhile);
  p.next_step = "install a newer CUDA toolkit (see above), or run on Colab or the cluster meanwhile";
  return p;
}

constexpr const char* kProbe =
    "// workbook's toolchain probe: nvcc with its host compiler and this system's headers.\n"
    "#include <cmath>\n"
    "#include <cstdio>\n"
    "__global__ void wb_probe(float* x) { x[threadIdx.x] = sinpif(x[threadIdx.x]); }\n"
    "int main() { std::printf(\"%f\\n\", std::sin(0.5)); return 0; }\n";

}  // namespace

std::string glibc_version() {
#if defined(__GLIBC__)
  return gnu_get_libc_version();
#else
  return "";
#endif
}

std::optional<ToolchainProblem> diagnose_toolchain(std::string_view raw, const Toolchain& tc, const std::string& glibc) {
  static const std::regex refusal_re(R"(unsupported (GNU|clang|Microsoft Visual Studio) version!)");
  if (auto line = matching_line(raw, refusal_re); !line.empty()) return host_compiler_problem(trim(line), raw, tc);
  static const std::regex clash_re(
      "exception specification is incompatible with that of previous function|has a different exception "
      "specifier|exception specification in declaration does not match previous declaration");
  const bool in_cuda_headers = raw.find("math_functions.h") != std::string_view::npos ||
                               raw.find("mathcalls.h") != std::string_view::npos;
  if (auto line = matching_line(raw, clash_re); !line.empty() && in_cuda_headers)
    return header_conflict_problem(trim(line), tc, glibc);
  return std::nullopt;
}

std::string render_toolchain_problem(const ToolchainProblem& p) {
  std::string out = "This is the toolchain, not your code.\n";
  out += "  " + p.explanation + ".\n";
  out += "  Fix it once, for every lab:\n";
  for (std::size_t i = 0; i < p.fixes.size(); ++i) out += fmt::format("    {}. {}\n", i + 1, p.fixes[i]);
  return out;
}

ToolchainCheck check_toolchain(const Toolchain& tc, const fs::path& cache_dir, double timeout_s) {
  Hasher h;
  h.add("workbook-toolchain-probe/1");
  h.add(kProbe);
  for (const std::string& field : {tc.nvcc.string(), tc.version, tc.host.path.string(), tc.host.version_line}) h.add(field);
  for (const auto& f : toolchain_flags(tc)) h.add(f);
  const fs::path dir = cache_dir / h.hex();
  ToolchainCheck check;
  check.command = {tc.nvcc.string()};
  for (const auto& f : toolchain_flags(tc)) check.command.push_back(f);
  check.command.insert(check.command.end(), {"-std=c++17", "-c", "probe.cu", "-o", "probe.o"});
  std::error_code ec;
  if (fs::is_regular_file(dir / "ok", ec)) {
    check.ok = check.cached = true;
    return check;
  }
  fs::create_directories(dir, ec);
  if (ec) throw UsageError(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  std::ofstream(dir / "probe.cu") << kProbe;
  ProcessOptions o;
  o.argv = check.command;
  o.cwd = dir;
  o.timeout_s = timeout_s;
  ProcessResult r = run_process(o);
  if (r.exited_ok() && fs::is_regular_file(dir / "probe.o", ec)) {
    std::ofstream(dir / "ok") << "ok\n";
    check.ok = true;
    return check;
  }
  check.output = r.out + (r.out.empty() || r.out.back() == '\n' ? "" : "\n") + r.err;
  if (check.output.find_first_not_of(" \n") == std::string::npos) check.output = "nvcc " + describe(r) + "\n";
  check.problem = diagnose_toolchain(check.output, tc, glibc_version());
  return check;
}

}  // namespace workbook
