// Helpers for the end-to-end tests: a throw-away copy of a fixture course, and running
// the real `workbook` binary (WORKBOOK_BINARY) with a chosen environment, capturing its
// exit status, stdout and stderr (through files, or a pseudo-terminal to test colour).
#pragma once

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../support/files.hpp"
#include "../support/fixture_course.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

extern char** environ;

namespace e2e {

namespace fs = std::filesystem;

using wbtest::read_file;
using wbtest::TempDir;
using wbtest::write_file;

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal (see `signal`)
  int signal = 0;
  bool timed_out = false;  // the test's own safety limit, not the runner's
  std::string out, err;
  double wall_s = 0;
};

// The environment of this process without anything that could steer the binary, plus `extra`.
// A fake nvidia-smi in `bin` (its sh lines: `setup`, the clocks query's header, then
// `readings`), and the PATH that finds it first: a GPU's clocks and throttle reasons, no GPU.
inline std::string path_with_fake_nvidia_smi(const fs::path& bin, const std::string& setup, const std::string& readings) {
  write_file(bin / "nvidia-smi",
             "#!/bin/sh\n" + setup +
                 "echo 'clocks.current.sm [MHz], clocks.current.memory [MHz], clocks.max.sm [MHz], "
                 "clocks.max.memory [MHz], clocks_event_reasons.active, temperature.gpu, power.draw [W], pstate'\n" +
                 readings);
  fs::permissions(bin / "nvidia-smi", fs::perms::owner_all);
  return bin.string() + ":" + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
}

inline std::vector<std::string> make_env(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    std::string name = kv.substr(0, kv.find('='));
    if (name.rfind("WORKBOOK_", 0) == 0 || name == "NO_COLOR" || name == "PAGER" || extra.count(name)) continue;
    env.push_back(kv);
  }
  if (!extra.count("PAGER")) env.push_back("PAGER=cat");  // a terminal's output is never held in less
  for (const auto& [k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

// Waits for `pid`, killing it (by its pid: it is ours) after `limit_s`.
inline void wait_child(pid_t pid, double limit_s, CommandResult& r) {
  auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  for (;;) {
    pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) FAIL("waitpid failed: " << std::strerror(errno));
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (elapsed > limit_s && !r.timed_out) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
}

inline std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Runs WORKBOOK_BINARY with `args`; stdin is /dev/null (never a terminal); stdout and
// stderr go to files in `scratch` and are read back.
inline CommandResult run_workbook(const std::vector<std::string>& args, const std::map<std::string, std::string>& env,
                                  const fs::path& scratch, double limit_s = 120) {
  static std::atomic<int> n{0};
  int id = n++;
  fs::path out = scratch / ("stdout-" + std::to_string(id));
  fs::path err = scratch / ("stderr-" + std::to_string(id));
  std::vector<std::string> argv{WORKBOOK_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> envv = make_env(env);
  auto argv_c = c_strings(argv);
  auto env_c = c_strings(envv);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data());
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  CommandResult r;
  wait_child(pid, limit_s, r);
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// Runs WORKBOOK_BINARY with stdout and stderr on a pseudo-terminal (stdin stays
// /dev/null), so that colour would be on unless something turns it off; `cols`: the
// terminal's width as the programs on it read it (0: the pty's default, none).
inline CommandResult run_workbook_on_pty(const std::vector<std::string>& args,
                                         const std::map<std::string, std::string>& env, double limit_s = 120,
                                         unsigned short cols = 0) {
  int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(master >= 0);
  REQUIRE(::grantpt(master) == 0);
  REQUIRE(::unlockpt(master) == 0);
  if (cols) {
    winsize w{};
    w.ws_col = cols;
    w.ws_row = 30;
    REQUIRE(::ioctl(master, TIOCSWINSZ, &w) == 0);
  }
  std::string slave = ::ptsname(master);
  std::vector<std::string> argv{WORKBOOK_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> envv = make_env(env);
  auto argv_c = c_strings(argv);
  auto env_c = c_strings(envv);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, slave.c_str(), O_RDWR | O_NOCTTY, 0);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addclose(&fa, master);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data());
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);

  // Drain the terminal while the child runs (a full pty buffer would block it).
  CommandResult r;
  auto t0 = std::chrono::steady_clock::now();
  int status = 0;
  bool exited = false;
  char buf[4096];
  for (;;) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, 10) > 0 && (p.revents & POLLIN)) {
      ssize_t got = ::read(master, buf, sizeof buf);
      if (got > 0) {
        r.out.append(buf, static_cast<std::size_t>(got));
        continue;
      }
    }
    if (exited) break;  // exited and nothing more to read
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      exited = true;
      continue;  // one more pass to drain what is left
    }
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (elapsed > limit_s && !r.timed_out) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
    }
  }
  ::close(master);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

// Where a fresh workspace's builds come from. `warm`: a copy of the shared cache that ctest
// fills once per run with every fixture lab compiled (tests/e2e/warm_cache_e2e_test.cpp),
// so a test pays for a compile only when it edits a lab; the cache key is the sources'
// content, the compiler and the flags, never a path, so a fresh copy of the course finds
// its builds there. `cold`: an empty cache, for the tests about building and caching.
enum class BuildCache { warm, cold };

// Copies the shared warm cache (when ctest made one) into `cache_dir`; entries are
// content-addressed and never changed in place, so each test gets its own copy to spoil.
inline void copy_warm_cache(const fs::path& cache_dir) {
  const fs::path warm = WORKBOOK_WARM_BUILD_CACHE;
  std::error_code ec;
  if (!fs::is_directory(warm, ec)) return;
  fs::create_directories(cache_dir);
  fs::copy(warm, cache_dir, fs::copy_options::recursive | fs::copy_options::skip_existing);
}

// A fresh copy of a fixture course (tests/fixtures/<name>) made runnable: the harness
// headers (labs/common) and the GPU spec sheets (data/gpus.yaml) of the source tree are
// copied in, and a fresh workspace is set up beside it. The fake GPU is a Tesla T4, so
// expected ranges come from the T4 sheet; the fixture labs are host-only and need no GPU.
struct FixtureCourse {
  TempDir tmp;
  fs::path content, workspace;

  explicit FixtureCourse(const std::string& fixture = "course", BuildCache cache = BuildCache::warm) {
    content = tmp.path / "content";
    workspace = tmp.path / "workspace";
    wbtest::copy_fixture_course(content, fixture);
    fs::create_directories(workspace);
    if (cache == BuildCache::warm) copy_warm_cache(build_cache());
  }

  std::map<std::string, std::string> env(std::map<std::string, std::string> extra = {}) const {
    std::map<std::string, std::string> e{{"WORKBOOK_CONTENT", content.string()},
                                         {"WORKBOOK_WORKSPACE", workspace.string()},
                                         {"NO_COLOR", "1"},
                                         {"WORKBOOK_GPU_NAME", "Tesla T4"},
                                         // the outline cache in the test's folder, not ~/.cache
                                         {"WORKBOOK_CACHE_DIR", (tmp.path / "cache").string()}};
    for (auto& [k, v] : extra) e[k] = v;
    return e;
  }

  CommandResult run(const std::vector<std::string>& args, const std::map<std::string, std::string>& extra_env = {},
                    double limit_s = 120) const {
    return run_workbook(args, env(extra_env), tmp.path, limit_s);
  }

  // Runs a command that prints JSON; fails the test if stdout is not JSON.
  nlohmann::json run_json(const std::vector<std::string>& args, CommandResult* result = nullptr) const {
    CommandResult r = run(args);
    if (result) *result = r;
    INFO("exit " << r.exit_code << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err);
    nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    return j;
  }

  fs::path journal() const { return workspace / ".workbook" / "journal.db"; }
  fs::path build_cache() const { return workspace / ".workbook" / "build"; }
  fs::path starter(const std::string& file) const { return content / "labs/module01" / file; }
  fs::path lab_copy(const std::string& file) const { return workspace / "labs/module01" / file; }
};

// Adds module01/gpu_lab to the course: a one-line CUDA lab (starter and solution alike)
// that needs nvcc to build and a GPU to run; `extra` is appended to its manifest entry.
inline void add_cuda_lab(const FixtureCourse& c, const std::string& extra = "") {
  std::ofstream(c.content / "modules/module01/module.yaml", std::ios::app)
      << "  - id: gpu_lab\n    title: \"A CUDA lab\"\n    goal: \"Needs a GPU.\"\n    source: gpu_lab.cu\n"
      << "    steps: [\"Run it.\"]\n    checks: [ok]\n"
      << extra;
  const std::string program = "// nvcc -I labs/common labs/module01/gpu_lab.cu -o gpu_lab\n__global__ void k() {}\nint main() { return 0; }\n";
  write_file(c.content / "labs/module01/gpu_lab.cu", program);
  write_file(c.content / "solutions/module01/gpu_lab.cu", program);
}

// The real binary started without waiting for it, for tests that signal it while it
// runs: stdin /dev/null and stdout/stderr on the files `out_file` and `err_file` (fresh
// names under the course's temp folder when empty), or, with `pty`, all three on a
// pseudo-terminal whose other end is `master` (so it prompts, as for a learner). If the
// test ends while it still runs it gets `stop_signal` first (e.g. SIGINT, so that a Slurm
// run cancels its job) and up to 30 s to end, then SIGKILL.
struct Spawned {
  pid_t pid = -1;
  int master = -1;
  fs::path out_file, err_file;
  int stop_signal = SIGKILL;

  Spawned(const FixtureCourse& c, const std::vector<std::string>& args, bool pty, fs::path out = {}, fs::path err = {},
          const std::map<std::string, std::string>& extra_env = {})
      : out_file(std::move(out)), err_file(std::move(err)) {
    std::vector<std::string> argv{WORKBOOK_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> envv = make_env(c.env(extra_env));
    auto argv_c = c_strings(argv);
    auto env_c = c_strings(envv);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    std::string slave;
    if (pty) {
      master = ::posix_openpt(O_RDWR | O_NOCTTY);
      REQUIRE(master >= 0);
      REQUIRE(::grantpt(master) == 0);
      REQUIRE(::unlockpt(master) == 0);
      slave = ::ptsname(master);
      posix_spawn_file_actions_addopen(&fa, 0, slave.c_str(), O_RDWR | O_NOCTTY, 0);
      posix_spawn_file_actions_adddup2(&fa, 0, 1);
      posix_spawn_file_actions_adddup2(&fa, 0, 2);
      posix_spawn_file_actions_addclose(&fa, master);
    } else {
      static std::atomic<int> n{0};
      const std::string id = std::to_string(n++);
      if (out_file.empty()) out_file = c.tmp.path / ("spawned-stdout-" + id);
      if (err_file.empty()) err_file = c.tmp.path / ("spawned-stderr-" + id);
      posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
      posix_spawn_file_actions_addopen(&fa, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    const int rc = ::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data());
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
  }
  Spawned(const Spawned&) = delete;
  Spawned& operator=(const Spawned&) = delete;
  ~Spawned() {
    if (pid > 0 && ::waitpid(pid, nullptr, WNOHANG) == 0) {
      if (stop_signal != SIGKILL) {
        ::kill(pid, stop_signal);
        for (int i = 0; i < 300 && ::waitpid(pid, nullptr, WNOHANG) == 0; ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      }
      if (::kill(pid, 0) == 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
      }
    }
    if (master >= 0) ::close(master);
  }
};

// The real binary, started with its stdin, stdout and stderr on a pseudo-terminal (so it
// prompts, as for a learner) or with stdout and stderr on files (stdin /dev/null).
struct Running : Spawned {
  std::string out;  // what was read from the terminal so far (pty mode)

  Running(const FixtureCourse& c, const std::vector<std::string>& args, bool pty,
          const std::map<std::string, std::string>& extra_env = {})
      : Spawned(c, args, pty, {}, {}, extra_env) {}

  // Reads what the terminal has, waiting up to `ms`.
  void pump(int ms) {
    pollfd p{master, POLLIN, 0};
    if (::poll(&p, 1, ms) <= 0) return;
    char buf[4096];
    ssize_t got = ::read(master, buf, sizeof buf);
    if (got > 0) out.append(buf, static_cast<std::size_t>(got));
  }

  // Pty mode: waits until the output shows `needle`.
  bool wait_for_output(const std::string& needle, double limit_s = 60) {
    auto t0 = std::chrono::steady_clock::now();
    while (out.find(needle) == std::string::npos) {
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > limit_s) return false;
      pump(20);
    }
    return true;
  }

  // Pty mode: types `text` at the terminal.
  void send(const std::string& text) const { REQUIRE(::write(master, text.data(), text.size()) == static_cast<ssize_t>(text.size())); }

  // Waits for the binary to end (draining the terminal) and returns how it ended.
  CommandResult finish(double limit_s = 60) {
    CommandResult r;
    auto t0 = std::chrono::steady_clock::now();
    int status = 0;
    for (;;) {
      if (master >= 0) pump(10);
      else std::this_thread::sleep_for(std::chrono::milliseconds(10));
      pid_t w = ::waitpid(pid, &status, WNOHANG);
      if (w == pid) break;
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (elapsed > limit_s && !r.timed_out) {
        r.timed_out = true;
        ::kill(pid, SIGKILL);
      }
    }
    pid = 0;
    if (master >= 0) {
      for (int i = 0; i < 20; ++i) pump(5);  // what is left in the terminal
      r.out = out;
    } else {
      r.out = read_file(out_file);
      r.err = read_file(err_file);
    }
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    return r;
  }
};

// The arguments `args` followed by `more`.
inline std::vector<std::string> with_args(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// True while `pid` exists (a zombie counts: kill(pid, 0) still finds it).
inline bool process_exists(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

// The element of a JSON array whose `key` is `value` (a failed REQUIRE when there is none).
inline nlohmann::json find_by(const nlohmann::json& array, const std::string& key, const std::string& value) {
  REQUIRE(array.is_array());
  for (const auto& e : array) {
    if (e.contains(key) && e[key] == value) return e;
  }
  FAIL("no element with " << key << " = " << value << " in " << array.dump());
  return {};
}

// Rows of a one-column query on a journal, as text ("NULL" for null).
inline std::vector<std::string> journal_rows(const std::filesystem::path& db_file, const std::string& sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(db_file.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
  sqlite3_busy_timeout(db, 2000);
  std::vector<std::string> rows;
  char* err = nullptr;
  int rc = sqlite3_exec(
      db, sql.c_str(),
      [](void* p, int, char** v, char**) {
        static_cast<std::vector<std::string>*>(p)->push_back(v[0] ? v[0] : "NULL");
        return 0;
      },
      &rows, &err);
  std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  INFO(sql << ": " << msg);
  REQUIRE(rc == SQLITE_OK);
  return rows;
}

// The first value of a query on a journal, as text ("NULL" for null, "(no row)" for none).
inline std::string journal_value(const std::filesystem::path& db_file, const std::string& sql) {
  const std::vector<std::string> rows = journal_rows(db_file, sql);
  return rows.empty() ? "(no row)" : rows.front();
}

// How many rows a table of the course's journal holds, as text.
inline std::string journal_count(const FixtureCourse& c, const std::string& table) {
  return journal_value(c.journal(), "SELECT COUNT(*) FROM " + table);
}

}  // namespace e2e

// What a failed CHECK shows about a command: its exit, signal and output.
#define SHOW(r) INFO("exit " << (r).exit_code << " signal " << (r).signal << "\nstdout:\n" << (r).out << "\nstderr:\n" << (r).err)
