// build_lab: cache key, compile to a temporary name, atomic rename; clean_diagnostics.
#include "build/lab_build.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cctype>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "build/toolchain_config.hpp"
#include "exec/process.hpp"
#include "util/error.hpp"
#include "util/file_text.hpp"
#include "util/hash.hpp"
#include "util/text.hpp"

namespace fs = std::filesystem;

namespace workbook {
namespace {

// The compiler a build runs and what identifies it in the cache key.
struct Compiler {
  std::vector<std::string> argv;  // the program and any words that came with it ($CXX="ccache g++")
  std::string path;               // resolved path of the program
  std::string version;
  std::vector<std::string> flags;  // the toolchain's own (nvcc: -ccbin, ...), before the lab's
};

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Asking a compiler its version costs a process (about 20 ms); a `dev check` builds many
// rows with the same one. Each identity is asked once per process and per resolved path
// (a different $CXX or WORKBOOK_PYTHON is a different key).
std::string version_of(const std::vector<std::string>& argv, const std::string& path, bool with_stderr) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  const std::string key = path + "\n" + fmt::format("{}", fmt::join(argv, " "));
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  ProcessOptions o;
  o.argv = {argv[0], "--version"};
  o.timeout_s = 30;
  ProcessResult r = run_process(o);
  std::string version = first_nonblank_line(with_stderr ? r.out + r.err : r.out);
  std::lock_guard<std::mutex> lock(mutex);
  known.emplace(key, version);
  return version;
}

Compiler host_compiler() {
  const char* cxx = std::getenv("CXX");
  auto words = split_words(cxx != nullptr && *cxx != '\0' ? cxx : "c++");
  if (words.empty()) words = {"c++"};
  auto found = find_in_path(words[0]);
  if (!found)
    throw UsageError(fmt::format("no C++ compiler found: `{}`", words[0]),
                     "install g++ (Debian: apt install g++) or set CXX to a C++17 compiler");
  Compiler c;
  c.argv = words;
  c.path = found->string();
  c.version = version_of(words, c.path, false);
  for (std::size_t i = 1; i < words.size(); ++i) c.version += " " + words[i];
  return c;
}

// python3 byte-compiles a Python lab: the interpreter that will also run it.
Compiler python_compiler() {
  const char* forced = std::getenv("WORKBOOK_PYTHON");
  const std::string name = forced != nullptr && *forced != '\0' ? forced : "python3";
  auto found = find_in_path(name);
  if (!found)
    throw UsageError(fmt::format("`{}` (Python 3) was not found, so Python labs cannot be run", name),
                     "install Python 3 (Debian/Ubuntu: apt install python3; Fedora: dnf install python3), "
                     "or set WORKBOOK_PYTHON=/path/to/python3");
  Compiler c;
  c.argv = {found->string()};
  c.path = found->string();
  c.version = version_of(c.argv, c.path, true);
  return c;
}

Compiler cuda_compiler(const Toolchain* nvcc) {
  if (nvcc == nullptr)
    throw UsageError("nvcc (the CUDA compiler) was not found, so CUDA labs cannot be built",
                     "install the CUDA Toolkit (it puts nvcc in /usr/local/cuda/bin), put nvcc on PATH, "
                     "or set WORKBOOK_NVCC=/path/to/nvcc");
  Compiler c;
  c.argv = {nvcc->nvcc.string()};
  c.path = nvcc->nvcc.string();
  c.version = nvcc->version + "\nhost " + nvcc->host.path.string() + " " + nvcc->host.version_line;
  c.flags = toolchain_flags(*nvcc);
  return c;
}

// nvcc runs its compile steps through a shell and quotes paths with double quotes, so a
// path holding $ or ` is expanded by that shell, and a -I path holding ' or " is refused:
// the build would fail with an error that names neither. Such a path is explained
// before the build instead (UsageError naming the path and the character).
void check_paths_for_nvcc(const fs::path& source, const std::vector<fs::path>& include_dirs, const fs::path& cache_dir) {
  constexpr std::string_view kBad = "'\"`$\n";
  auto check = [&](const fs::path& p, const char* what, const char* fix) {
    const std::string text = p.string();
    const std::size_t at = text.find_first_of(kBad);
    if (at == std::string::npos) return;
    const char c = text[at];
    const std::string shown = c == '\n'  ? std::string("a line break")
                              : c == '$' ? std::string("a $ (dollar)")
                              : c == '`' ? std::string("a ` (backquote)")
                              : c == '"' ? std::string("a \" (double quote)")
                                         : std::string("a ' (quote)");
    throw UsageError(fmt::format("nvcc cannot build from {} {}: its path holds {}, which nvcc's shell steps cannot take",
                                 what, text, shown),
                     fmt::format("{}: a path without ' \" ` $ or line breaks works, e.g. ~/gpu-workbook", fix));
  };
  check(cache_dir, "the workspace", "move the workspace, or pass --workspace DIR");
  for (const auto& dir : include_dirs) check(dir, "the content folder", "move the content, or pass --content DIR");
  check(source, "the source file", "rename or move the file");
}

// Quoted #include names in a file, in order.
std::vector<std::string> quoted_includes(const fs::path& file) {
  std::vector<std::string> names;
  std::istringstream in(read_regular_file(file, kMostLabBytes).text.value_or(""));  // a FIFO never blocks here
  for (std::string line; std::getline(in, line);) {
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != '#') continue;
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string::npos || line.compare(i, 7, "include") != 0) continue;
    i = line.find_first_not_of(" \t", i + 7);
    if (i == std::string::npos || line[i] != '"') continue;
    std::size_t end = line.find('"', i + 1);
    if (end == std::string::npos) continue;
    names.push_back(line.substr(i + 1, end - i - 1));
  }
  return names;
}

// Adds the files `file` includes with "..." from its own directory, recursively.
void hash_local_includes(Hasher& h, const fs::path& file, std::set<fs::path>& seen) {
  for (const auto& name : quoted_includes(file)) {
    std::error_code ec;
    fs::path candidate = (file.parent_path() / name).lexically_normal();
    if (!fs::is_regular_file(candidate, ec)) continue;  // found through -I, hashed with the dir
    if (!seen.insert(candidate).second) continue;
    h.add(name);
    h.add_file(candidate);
    hash_local_includes(h, candidate, seen);
  }
}

void hash_include_dir(Hasher& h, const fs::path& dir) {
  std::vector<std::pair<std::string, fs::path>> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    std::error_code ec2;
    if (it->is_regular_file(ec2)) files.emplace_back(it->path().lexically_relative(dir).generic_string(), it->path());
  }
  if (ec) throw UsageError(fmt::format("cannot list include directory {}: {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  h.add(std::to_string(files.size()));
  for (const auto& [rel, path] : files) {
    h.add(rel);
    h.add_file(path);
  }
}

// The include dirs' files (every regular file, by relative path) as one digest: read once
// a build, for the lab's key and its harness object's.
std::string include_digest(const std::vector<fs::path>& include_dirs) {
  Hasher h;
  h.add("include-dirs " + std::to_string(include_dirs.size()));
  for (const auto& dir : include_dirs) hash_include_dir(h, dir);
  return h.hex();
}

std::string cache_key(const BuildRequest& req, const Compiler& compiler, const fs::path& source,
                      const std::string& includes) {
  Hasher h;
  h.add("workbook-build/1");
  h.add(req.language == Language::cuda ? "cuda" : req.language == Language::python ? "python" : "host");
  h.add(compiler.path);
  h.add(compiler.version);
  h.add("toolchain-flags " + std::to_string(compiler.flags.size()));
  for (const auto& f : compiler.flags) h.add(f);
  h.add(req.language == Language::cuda ? req.arch : std::string());
  h.add("flags " + std::to_string(req.flags.size()));
  for (const auto& f : req.flags) h.add(f);
  h.add("libs " + std::to_string(req.libs.size()));
  for (const auto& l : req.libs) h.add(l);
  h.add("source");
  h.add_file(source);
  std::set<fs::path> seen{source};
  hash_local_includes(h, source, seen);
  h.add(includes);
  return h.hex();
}

// Byte-compiles argv[1] into argv[2]; a syntax error is printed as "<file>:<line>: error:
// <kind>: <message>", the form clean_diagnostics reads.
constexpr const char* kPythonCompile =
    "import py_compile, sys\n"
    "try:\n"
    "    py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)\n"
    "except py_compile.PyCompileError as e:\n"
    "    x = e.exc_value\n"
    "    sys.stderr.write('%s:%s: error: %s: %s\\n' % (sys.argv[1], getattr(x, 'lineno', None) or 1,\n"
    "                     e.exc_type_name, getattr(x, 'msg', x)))\n"
    "    sys.exit(1)\n";

// The harness object a lab links: built from `source` (labs/common/wb_harness.cu for a
// CUDA lab, wb_harness.cpp for a host lab) into <cache>/<key>/wb_harness.o, once per
// compiler, flags and architecture. Python labs, and content without such a file, have
// none: their labs compile the harness headers themselves (header-only).
struct Harness {
  fs::path source;
  fs::path object;
  std::string key;
  BuildRequest request;  // the lab's, compiling an object (-c) and linking nothing
};

std::optional<Harness> find_harness(const BuildRequest& req, const Compiler& compiler,
                                    const std::vector<fs::path>& include_dirs, const std::string& includes,
                                    const fs::path& cache_root) {
  if (req.language == Language::python) return std::nullopt;
  const char* name = req.language == Language::cuda ? "wb_harness.cu" : "wb_harness.cpp";
  for (const auto& dir : include_dirs) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / name, ec)) continue;
    Harness h;
    h.request = req;
    h.request.libs.clear();
    h.request.flags.push_back("-c");
    h.source = dir / name;
    h.key = cache_key(h.request, compiler, h.source, includes);
    h.object = cache_root / h.key / "wb_harness.o";
    return h;
  }
  return std::nullopt;
}

std::vector<std::string> compile_command(const BuildRequest& req, const Compiler& compiler, const fs::path& source,
                                         const std::vector<fs::path>& include_dirs, const fs::path& output,
                                         const Harness* harness = nullptr) {
  std::vector<std::string> cmd = compiler.argv;
  cmd.insert(cmd.end(), compiler.flags.begin(), compiler.flags.end());
  if (req.language == Language::python) {
    cmd.insert(cmd.end(), {"-c", kPythonCompile, source.string(), output.string()});
    return cmd;
  }
  cmd.push_back("-std=c++17");
  if (req.language == Language::cuda) {
    cmd.push_back("-lineinfo");
    for (std::string& flag : nvcc_arch_flags(req.arch)) cmd.push_back(std::move(flag));
  } else {
    cmd.push_back("-O2");
    cmd.push_back("-Wall");
  }
  for (const auto& dir : include_dirs) cmd.push_back("-I" + dir.string());
  cmd.insert(cmd.end(), req.flags.begin(), req.flags.end());
  if (harness != nullptr) cmd.push_back("-DWB_HARNESS_LINKED");
  if (req.check_only) cmd.push_back(req.language == Language::cuda ? "-cuda" : "-c");
  cmd.push_back("-o");
  cmd.push_back(output.string());
  cmd.push_back(source.string());
  if (req.check_only) return cmd;
  if (harness != nullptr) cmd.push_back(harness->object.string());
  cmd.insert(cmd.end(), req.libs.begin(), req.libs.end());
  return cmd;
}

// Removes the temporaries of builds that were killed (kill -9, a power cut) and so never
// renamed or removed their `lab.tmp.<pid>.<n>`: those whose process no longer exists,
// and any older than an hour (the pid may have been reused). A build in progress (its
// process alive, its file young) is left alone. Errors are ignored.
void remove_stale_temporaries(const fs::path& cache_dir) {
  constexpr auto kMaxAge = std::chrono::hours(1);
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::directory_iterator key(cache_dir, ec), end; !ec && key != end; key.increment(ec)) {
    std::error_code key_ec;
    if (!key->is_directory(key_ec)) continue;
    for (fs::directory_iterator it(key->path(), key_ec); !key_ec && it != end; it.increment(key_ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind("lab.tmp.", 0) != 0) continue;
      std::error_code file_ec;
      const auto written = it->last_write_time(file_ec);
      bool stale = !file_ec && now - written > kMaxAge;
      const std::string pid_text = name.substr(8, name.find('.', 8) - 8);
      if (!stale && !pid_text.empty() && pid_text.size() <= 9 &&
          std::all_of(pid_text.begin(), pid_text.end(), [](unsigned char c) { return std::isdigit(c); })) {
        const auto pid = static_cast<pid_t>(std::stol(pid_text));
        stale = pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
      }
      if (stale) fs::remove(it->path(), file_ec);
    }
  }
}

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// ---- diagnostics ----------------------------------------------------------------

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool path_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '/' || c == '+';
}

// Splits "<file>:<line>:<col>: <rest>" or "<file>:<line>: <rest>" (gcc, ld).
bool split_gcc(std::string_view line, std::string_view& file, std::string_view& num, std::string_view& rest) {
  std::size_t c1 = line.find(':');
  if (c1 == 0 || c1 == std::string_view::npos || std::isspace(static_cast<unsigned char>(line[0]))) return false;
  std::size_t c2 = line.find(':', c1 + 1);
  if (c2 == std::string_view::npos || !all_digits(line.substr(c1 + 1, c2 - c1 - 1))) return false;
  std::size_t after = c2 + 1;
  if (line.substr(after, 1) != " ") {  // a column: "<col>: "
    std::size_t c3 = line.find(':', after);
    if (c3 == std::string_view::npos || !all_digits(line.substr(after, c3 - after)) || line.substr(c3 + 1, 1) != " ")
      return false;
    after = c3 + 1;
  }
  file = line.substr(0, c1);
  num = line.substr(c1 + 1, c2 - c1 - 1);
  rest = line.substr(after + 1);
  return true;
}

// Splits "<file>(<line>): <rest>" (nvcc's front end).
bool split_nvcc(std::string_view line, std::string_view& file, std::string_view& num, std::string_view& rest) {
  std::size_t open = line.find('(');
  if (open == 0 || open == std::string_view::npos || std::isspace(static_cast<unsigned char>(line[0]))) return false;
  std::size_t close = line.find(')', open);
  if (close == std::string_view::npos || line.substr(close, 3) != "): ") return false;
  if (!all_digits(line.substr(open + 1, close - open - 1))) return false;
  if (line.substr(0, open).find(':') != std::string_view::npos) return false;
  file = line.substr(0, open);
  num = line.substr(open + 1, close - open - 1);
  rest = line.substr(close + 3);
  return true;
}

// Replaces whole-path occurrences of `from` (not part of a longer path) with `to`.
std::string replace_path(std::string line, const std::string& from, std::string_view to) {
  if (from.empty()) return line;
  std::size_t pos = 0;
  while ((pos = line.find(from, pos)) != std::string::npos) {
    std::size_t end = pos + from.size();
    bool starts_clean = pos == 0 || !path_char(line[pos - 1]);
    bool ends_clean = end == line.size() || !path_char(line[end]) || (line[end] == '.' && (end + 1 == line.size() || !path_char(line[end + 1])));
    if (starts_clean && ends_clean) {
      line.replace(pos, from.size(), to);
      pos += to.size();
    } else {
      pos = end;
    }
  }
  return line;
}

// The line a failed compile adds to the diagnostics: why it stopped, when the compiler's
// own output does not say.
std::string failure_line(const ProcessResult& r, bool printed_nothing, const std::string& name) {
  if (r.timed_out) return fmt::format("{}: compilation {} (the build time limit)\n", name, describe(r));
  if (r.interrupted) return fmt::format("{}: compilation interrupted (Ctrl-C)\n", name);
  if (r.signal != 0) return fmt::format("{}: the compiler was {}\n", name, describe(r));
  if (r.exit_code == 0) return fmt::format("{}: the compiler reported success but wrote no binary\n", name);
  if (printed_nothing) return fmt::format("{}: the compiler {} and printed nothing\n", name, describe(r));
  return "";
}

// A name for a compiler's output in `dir` (created): renamed into place once complete, so
// concurrent runs or a Ctrl-C never leave a half-written file (remove_stale_temporaries
// clears those a killed build left).
fs::path temporary_in(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw UsageError(fmt::format("cannot create the build cache directory {}: {}", dir.string(), ec.message()));
  static std::atomic<unsigned> counter{0};
  return dir / fmt::format("lab.tmp.{}.{}", ::getpid(), counter.fetch_add(1));
}

// Runs a compile whose -o names `temp` and renames temp to `target` when it succeeded (atomic:
// a concurrent build of the same key just wins or loses); a failed one's temp is removed.
ProcessResult compile_into(std::vector<std::string> argv, const fs::path& temp, const fs::path& target,
                           double timeout_s) {
  ProcessOptions o;
  o.argv = std::move(argv);
  o.cwd = target.parent_path();
  o.timeout_s = timeout_s;
  ProcessResult r = run_process(o);
  std::error_code ec;
  if (r.exited_ok() && fs::is_regular_file(temp, ec)) {
    fs::rename(temp, target, ec);
    if (ec) {
      fs::remove(temp, ec);
      throw Error(Exit::compile_error, fmt::format("cannot move the build into {}: {}", target.string(), ec.message()));
    }
    return r;
  }
  fs::remove(temp, ec);
  return r;
}

// Fills a BuildResult from a compile of `source`: ok when `binary` was written, else the
// diagnostics and why it stopped (for CUDA, the toolchain's problem when it is one).
void describe_compile(BuildResult& result, const ProcessResult& r, const BuildRequest& req, const Toolchain* nvcc,
                      const fs::path& source, std::string_view display_name, const std::string& warning) {
  result.raw_output = r.out;
  if (!r.out.empty() && !r.err.empty() && r.out.back() != '\n') result.raw_output += '\n';
  result.raw_output += r.err;
  result.diagnostics = warning + clean_diagnostics(result.raw_output, source, display_name);
  result.timed_out = r.timed_out;
  result.interrupted = r.interrupted;
  std::error_code ec;
  result.ok = r.exited_ok() && fs::is_regular_file(result.binary, ec);
  if (result.ok) return;
  result.diagnostics += failure_line(r, result.diagnostics.empty(), std::string(display_name));
  if (req.language == Language::cuda && !r.timed_out && !r.interrupted) {
    result.toolchain_problem = diagnose_toolchain(result.raw_output, *nvcc, glibc_version());
    if (result.toolchain_problem) result.diagnostics += render_toolchain_problem(*result.toolchain_problem);
  }
}

// Compiles the harness object unless it is there. One at a time in this process: the
// parallel builds of a `dev check` all need the same one, and wait for it rather than
// each compiling it. A failure is the lab's build failure (a broken toolchain shows here
// first), named as the harness file.
BuildResult build_harness(const Harness& h, const Compiler& compiler, const std::vector<fs::path>& include_dirs,
                          const Toolchain* nvcc, const std::string& warning) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  BuildResult result;
  result.key = h.key;
  result.binary = h.object;
  result.command = compile_command(h.request, compiler, h.source, include_dirs, h.object);
  std::error_code ec;
  if (fs::is_regular_file(h.object, ec)) {
    result.ok = true;
    return result;
  }
  const fs::path temp = temporary_in(h.object.parent_path());
  const ProcessResult r = compile_into(compile_command(h.request, compiler, h.source, include_dirs, temp), temp,
                                       h.object, h.request.timeout_s);
  describe_compile(result, r, h.request, nvcc, h.source, "labs/common/" + h.source.filename().string(), warning);
  if (!result.ok) fs::remove(h.object.parent_path(), ec);
  return result;
}

}  // namespace

void drop_host_optimisation(BuildRequest& request) {
  if (request.language != Language::cuda) return;
  auto is_opt = [](const std::string& f) { return f.size() <= 3 && f.rfind("-O", 0) == 0; };
  request.flags.erase(std::remove_if(request.flags.begin(), request.flags.end(), is_opt), request.flags.end());
}

std::string clean_diagnostics(std::string_view raw, const fs::path& source, std::string_view display_name) {
  std::vector<std::string> names;
  auto remember = [&](const fs::path& p) {
    std::string s = p.string();
    if (!s.empty() && std::find(names.begin(), names.end(), s) == names.end()) names.push_back(s);
  };
  remember(source);
  std::error_code ec;
  if (auto a = fs::absolute(source, ec); !ec) remember(a.lexically_normal());
  if (auto c = fs::weakly_canonical(source, ec); !ec) remember(c);
  std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  auto is_source = [&](std::string_view f) { return std::find(names.begin(), names.end(), f) != names.end(); };

  std::string out;
  std::size_t start = 0;
  while (start < raw.size()) {
    std::size_t end = raw.find('\n', start);
    if (end == std::string_view::npos) end = raw.size();
    std::string_view line = raw.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (line.rfind("Remark: The warnings can be suppressed", 0) == 0) continue;

    std::string cleaned;
    std::string_view file, num, rest;
    if (split_gcc(line, file, num, rest) || split_nvcc(line, file, num, rest)) {
      cleaned = fmt::format("{}:{}: {}", is_source(file) ? display_name : file, num, rest);
    } else {
      cleaned = std::string(line);
    }
    for (const auto& n : names) cleaned = replace_path(std::move(cleaned), n, display_name);
    out += cleaned;
    out += '\n';
  }
  return out;
}

BuildResult build_lab(const BuildRequest& req, const Toolchain* nvcc) {
  std::error_code ec;
  if (!fs::is_regular_file(req.source, ec))
    throw UsageError(fmt::format("lab source not found: {} ({})", req.display_name, req.source.string()),
                     "check the lab's `source` in its module.yaml");
  fs::path source = fs::absolute(req.source).lexically_normal();
  std::vector<fs::path> include_dirs;
  for (const auto& dir : req.include_dirs) {
    if (!fs::is_directory(dir, ec))
      throw UsageError(fmt::format("include directory not found: {}", dir.string()),
                       "check the content directory (labs/common holds the harness headers)");
    include_dirs.push_back(fs::absolute(dir).lexically_normal());
  }
  if (req.cache_dir.empty()) throw Error(Exit::usage, "build_lab: no cache directory given");
  const fs::path cache_root = fs::absolute(req.cache_dir);
  if (req.language == Language::cuda) check_paths_for_nvcc(source, include_dirs, cache_root);

  const bool python = req.language == Language::python;
  Compiler compiler = req.language == Language::cuda ? cuda_compiler(nvcc) : python ? python_compiler() : host_compiler();
  const std::string includes = include_digest(include_dirs);
  const std::optional<Harness> harness = find_harness(req, compiler, include_dirs, includes, cache_root);

  BuildResult result;
  BuildRequest keyed = req;  // a linked build is not the header-only one
  if (harness) keyed.flags.push_back("-DWB_HARNESS_LINKED");
  const bool check_only = req.check_only && !python;
  if (check_only) keyed.flags.push_back("--check-only");
  result.key = cache_key(keyed, compiler, source, includes);
  fs::path dir = cache_root / result.key;
  result.binary = dir / (python ? "lab.pyc" : check_only ? "compiles" : "lab");
  if (python) result.interpreter = compiler.argv;
  const Harness* linked = harness ? &*harness : nullptr;
  result.command = compile_command(req, compiler, source, include_dirs, result.binary, linked);
  remove_stale_temporaries(cache_root);
  std::error_code ready_ec;
  const std::string warning =
      req.language == Language::cuda && nvcc->allow_unsupported ? allow_unsupported_warning(*nvcc) : std::string();
  if (python || check_only ? fs::is_regular_file(result.binary, ready_ec) : is_executable(result.binary)) {
    result.ok = true;
    result.cached = true;
    result.diagnostics = warning;
    return result;
  }
  if (harness && !check_only) {
    BuildResult built = build_harness(*harness, compiler, include_dirs, nvcc, warning);
    if (!built.ok) return built;
  }

  const fs::path temp = temporary_in(dir);
  const ProcessResult r =
      compile_into(compile_command(req, compiler, source, include_dirs, temp, linked), temp, result.binary, req.timeout_s);
  describe_compile(result, r, req, nvcc, source, req.display_name, warning);
  if (!result.ok) fs::remove(dir, ec);  // only succeeds when empty
  if (result.ok && check_only) fs::resize_file(result.binary, 0, ec);  // the front end's megabytes are not kept
  return result;
}

}  // namespace workbook
