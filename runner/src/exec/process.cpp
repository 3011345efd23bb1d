// run_process: fork + execve with pipes, poll()-driven capture, process-group kills on
// time-out, Ctrl-C, SIGTERM and SIGHUP, escaped descendants found by an environment token,
// and exec failures reported back through a close-on-exec pipe.
#include "exec/process.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "util/error.hpp"

extern char** environ;

namespace workbook {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kKillGrace_s = 1.0;      // SIGTERM/SIGINT -> SIGKILL
constexpr double kDrainAfterExit_s = 2.0; // pipes still held open by an escaped descendant
constexpr double kGiveUpAfterKill_s = 10.0;  // a child stuck in the kernel (D state)
constexpr int kPollSliceMs = 50;
constexpr std::size_t kReadChunk = 64 * 1024;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

Clock::time_point after(Clock::time_point t, double seconds) {
  return t + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::string errno_text(int err) { return std::strerror(err); }

// An owned file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset(other.fd_);
      other.fd_ = -1;
    }
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  bool open() const { return fd_ >= 0; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// Moves a close-on-exec descriptor above 2, so dup2() onto 0/1/2 in the child can never
// clobber another descriptor it still needs (the runner may have been started with a
// standard stream closed).
int above_stdio(int fd) {
  if (fd > 2) return fd;
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int err = errno;
  ::close(fd);
  if (moved < 0) throw Error(Exit::runtime_error, "cannot duplicate a descriptor: " + errno_text(err));
  return moved;
}

void make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw Error(Exit::runtime_error, "cannot create a pipe: " + errno_text(errno));
  read_end.reset(above_stdio(fds[0]));
  write_end.reset(above_stdio(fds[1]));
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// write() with SIGPIPE blocked for this thread, so a reader that went away gives EPIPE
// instead of killing the runner. A SIGPIPE this write raised is consumed.
ssize_t write_no_sigpipe(int fd, const char* data, std::size_t n) {
  sigset_t pipe_set, old_mask, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
  sigpending(&pending);
  bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  ssize_t written;
  do written = ::write(fd, data, n);
  while (written < 0 && errno == EINTR);
  int err = errno;
  if (written < 0 && err == EPIPE && !was_pending) {
    timespec zero{};
    sigtimedwait(&pipe_set, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  errno = err;
  return written;
}

// Writes everything (used for echo); errors are ignored: echo is best effort.
void write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    ssize_t w = write_no_sigpipe(fd, data, n);
    if (w < 0) {
      if (errno == EAGAIN) {
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, 100);
        continue;
      }
      return;
    }
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

bool is_executable_file(const std::filesystem::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// ---- signal forwarding -------------------------------------------------------------

// The signals forwarded to a running child: Ctrl-C, a polite kill, the terminal closing.
constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t kForwardedCount = sizeof kForwarded / sizeof kForwarded[0];

std::atomic<unsigned> g_signal_count[kForwardedCount] = {};
std::atomic<int> g_termination_signal{0};
static_assert(std::atomic<unsigned>::is_always_lock_free, "the signal handler needs a lock-free counter");

void on_forwarded_signal(int sig) {
  for (std::size_t i = 0; i < kForwardedCount; ++i) {
    if (kForwarded[i] == sig) g_signal_count[i].fetch_add(1, std::memory_order_relaxed);
  }
}

// While at least one child runs, the forwarded signals only bump counters that the run
// loops watch; the runner's own dispositions are restored when the last one returns.
class SignalForwarding {
 public:
  SignalForwarding() {
    std::lock_guard lock(mutex_);
    if (active_++ == 0) {
      for (std::size_t i = 0; i < kForwardedCount; ++i) {
        struct sigaction current {};
        sigaction(kForwarded[i], nullptr, &current);
        bool ignored = !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN;
        if (ignored) continue;
        struct sigaction ours {};
        ours.sa_handler = on_forwarded_signal;
        sigemptyset(&ours.sa_mask);
        ours.sa_flags = 0;  // no SA_RESTART: let poll()/read() return EINTR at once
        sigaction(kForwarded[i], &ours, &previous_[i]);
        installed_[i] = true;
      }
    }
    for (std::size_t i = 0; i < kForwardedCount; ++i) absorbed_[i] = start_[i] = g_signal_count[i].load();
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;
  ~SignalForwarding() {
    std::lock_guard lock(mutex_);
    if (--active_ == 0) {
      for (std::size_t i = 0; i < kForwardedCount; ++i) {
        if (!installed_[i]) continue;
        sigaction(kForwarded[i], &previous_[i], nullptr);
        installed_[i] = false;
      }
      // A signal that came after the run's last look at its counters was neither forwarded
      // to the child nor reported: raise it again for the disposition it was meant for, now
      // restored, so that a Ctrl-C is never lost between a child's exit and this point.
      for (std::size_t i = 0; i < kForwardedCount; ++i) {
        if (g_signal_count[i].load() != absorbed_[i]) ::raise(kForwarded[i]);
      }
    }
  }
  // The signal that arrived after this run started (SIGTERM and SIGHUP before SIGINT),
  // or 0. SIGTERM and SIGHUP are also remembered for termination_signal().
  int fired() const {
    for (std::size_t i : {std::size_t{1}, std::size_t{2}, std::size_t{0}}) {
      if (g_signal_count[i].load() == start_[i]) continue;
      if (kForwarded[i] != SIGINT) g_termination_signal.store(kForwarded[i]);
      return kForwarded[i];
    }
    return 0;
  }
  // Every signal so far is this run's: forwarded to its child or reported in its result.
  void absorb() const {
    for (std::size_t i = 0; i < kForwardedCount; ++i) absorbed_[i] = g_signal_count[i].load();
  }

 private:
  static inline std::mutex mutex_;
  static inline int active_ = 0;
  static inline bool installed_[kForwardedCount] = {};
  static inline struct sigaction previous_[kForwardedCount] = {};
  unsigned start_[kForwardedCount] = {};
  mutable unsigned absorbed_[kForwardedCount] = {};
};

// ---- descendants that left the child's process group --------------------------------

constexpr const char* kTokenName = "WORKBOOK_PROCESS_TOKEN";

// A value no other run shares: the runner's pid, a counter, and the time.
std::string make_token() {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}.{}.{}", ::getpid(), counter.fetch_add(1),
                     std::chrono::system_clock::now().time_since_epoch().count());
}

// True when /proc/<pid>/environ holds exactly the entry `entry` ("NAME=value").
bool environ_holds(int proc_fd, const char* pid_name, const std::string& entry) {
  int fd = ::openat(proc_fd, (std::string(pid_name) + "/environ").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // gone, or not ours to read
  std::string env;
  char buffer[16384];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || env.size() > (std::size_t{8} << 20)) break;
    env.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  for (std::size_t pos = 0; pos < env.size();) {
    std::size_t end = env.find('\0', pos);
    if (end == std::string::npos) end = env.size();
    if (env.compare(pos, end - pos, entry) == 0) return true;
    pos = end + 1;
  }
  return false;
}

// What /proc/<pid>/stat says of a process: its group and its start (clock ticks after
// boot); pgrp -1 when it is gone or unreadable.
struct ProcStat {
  pid_t pgrp = -1;
  unsigned long long start = 0;
};

ProcStat stat_of(int proc_fd, const char* pid_name) {
  int fd = ::openat(proc_fd, (std::string(pid_name) + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  char buffer[1024];
  ssize_t n;
  do n = ::read(fd, buffer, sizeof buffer - 1);
  while (n < 0 && errno == EINTR);
  ::close(fd);
  if (n <= 0) return {};
  buffer[n] = '\0';
  // "pid (comm) state ppid pgrp ... starttime(22nd)": comm may hold spaces and ')', so
  // start after the last ')'.
  const char* close = std::strrchr(buffer, ')');
  if (close == nullptr) return {};
  ProcStat st;
  char state = 0;
  int ppid = 0, pgrp = 0;
  if (std::sscanf(close + 1, " %c %d %d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
                  &state, &ppid, &pgrp, &st.start) != 4)
    return {};
  st.pgrp = static_cast<pid_t>(pgrp);
  return st;
}

// Kills the runner's processes that carry `entry` in their environment but are not in
// process group `group` (which the caller kills as a whole), until a pass finds no new
// one; `killed` collects them. Only processes started no earlier than the group's leader
// (the child, kept as a zombie until this returns) can be its descendants, so only their
// environments are read: reading every process's environment cost tens of ms a run.
void kill_escaped(const std::string& entry, pid_t group, std::set<pid_t>& killed) {
  const uid_t me = ::geteuid();
  const pid_t self = ::getpid();
  for (int pass = 0; pass < 5; ++pass) {
    DIR* dir = ::opendir("/proc");
    if (dir == nullptr) return;
    const ProcStat leader = stat_of(::dirfd(dir), std::to_string(group).c_str());
    bool found_new = false;
    while (const dirent* e = ::readdir(dir)) {
      char* end = nullptr;
      long value = std::strtol(e->d_name, &end, 10);
      if (end == e->d_name || *end != '\0' || value <= 0 || value == self || value == group) continue;
      struct stat st {};
      if (::fstatat(::dirfd(dir), e->d_name, &st, 0) != 0 || st.st_uid != me) continue;
      const ProcStat ps = stat_of(::dirfd(dir), e->d_name);
      if (ps.pgrp == group || ps.pgrp < 0) continue;  // still in the group (being killed with it), or gone
      if (leader.pgrp >= 0 && ps.start < leader.start) continue;  // older than the child: not its descendant
      if (!environ_holds(::dirfd(dir), e->d_name, entry)) continue;
      auto pid = static_cast<pid_t>(value);
      ::kill(pid, SIGKILL);
      if (killed.insert(pid).second) found_new = true;
    }
    ::closedir(dir);
    if (!found_new) return;
  }
}

// ---- the child side -----------------------------------------------------------------

// What a child that could not exec writes back before _exit(127).
struct ExecReport {
  int stage;  // 1: stdio, 2: chdir, 3: execve
  int err;
};

[[noreturn]] void child_fail(int report_fd, int stage, int err) {
  ExecReport r{stage, err};
  ssize_t ignored = ::write(report_fd, &r, sizeof r);
  (void)ignored;
  ::_exit(127);
}

// Runs in the forked child: only async-signal-safe calls from here to execve. A runner
// killed outright takes the child with it (PR_SET_PDEATHSIG; the group guard below ends
// the rest of its group). The child execs only once the runner has its guard: it waits
// for one byte on `go_fd` (end-of-file instead: the runner is gone). Before, a lab could
// start its own children while the runner was still forking the guard, and a runner
// SIGKILLed in that window left them running.
[[noreturn]] void child_exec(const char* path, char* const* argv, char* const* envp, const char* cwd,
                             int in_fd, int out_fd, int err_fd, int report_fd, int go_fd, int go_write_fd,
                             pid_t runner) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != runner) ::_exit(127);  // the runner died before the line above
  ::close(go_write_fd);  // else this child would hold the pipe open against itself
  char go = 0;
  ssize_t got;
  do got = ::read(go_fd, &go, 1);
  while (got < 0 && errno == EINTR);
  if (got != 1) ::_exit(127);
  ::signal(SIGPIPE, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0)
    child_fail(report_fd, 1, errno);
  if (cwd != nullptr && ::chdir(cwd) != 0) child_fail(report_fd, 2, errno);
  ::execve(path, argv, envp);
  child_fail(report_fd, 3, errno);
}

// ---- the group guard -----------------------------------------------------------------

// A runner killed outright (SIGKILL, the OOM killer) cannot end its child's process group.
// A guard, forked from the runner, waits on a pipe that only the runner writes to: when
// the runner dies the pipe reads end-of-file and the guard kills the group. A runner that
// returns kills and reaps its guard first, so the guard never acts on a reused group id.
// The guard ignores the terminal's signals (it shares the runner's group: Ctrl-C reaches
// it too) and holds no other descriptor (a pipe end it kept would keep a reader waiting).
[[noreturn]] void guard_wait(int lifeline, pid_t group) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU}) ::signal(sig, SIG_IGN);
  const unsigned fd = static_cast<unsigned>(lifeline);
  if (fd > 3) ::close_range(3, fd - 1, 0);
  ::close_range(fd + 1, ~0U, 0);
  char byte;
  while (::read(lifeline, &byte, 1) < 0 && errno == EINTR) {
  }
  ::killpg(group, SIGKILL);
  ::_exit(0);
}

class GroupGuard {
 public:
  explicit GroupGuard(pid_t group) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;  // no guard: the run still goes ahead
    Fd read_end(fds[0]);
    lifeline_.reset(fds[1]);
    guard_ = ::fork();
    if (guard_ == 0) {
      ::close(fds[1]);
      guard_wait(fds[0], group);
    }
  }
  GroupGuard(const GroupGuard&) = delete;
  GroupGuard& operator=(const GroupGuard&) = delete;
  ~GroupGuard() {
    if (guard_ <= 0) return;
    ::kill(guard_, SIGKILL);
    while (::waitpid(guard_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }

 private:
  Fd lifeline_;  // the write end: closed only when the runner ends
  pid_t guard_ = -1;
};

// ---- the parent side ----------------------------------------------------------------

std::vector<std::string> child_environment(const std::vector<std::pair<std::string, std::string>>& overrides) {
  for (const auto& [name, value] : overrides) {
    if (name.empty() || name.find('=') != std::string::npos || name.find('\0') != std::string::npos)
      throw Error(Exit::runtime_error, fmt::format("invalid environment variable name `{}`", name));
  }
  auto overridden = [&](std::string_view name) {
    return std::any_of(overrides.begin(), overrides.end(), [&](const auto& kv) { return kv.first == name; });
  };
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    if (!overridden(entry.substr(0, entry.find('=')))) env.emplace_back(entry);
  }
  // The last override of a name wins.
  for (std::size_t i = 0; i < overrides.size(); ++i) {
    bool later = std::any_of(overrides.begin() + static_cast<std::ptrdiff_t>(i) + 1, overrides.end(),
                             [&](const auto& kv) { return kv.first == overrides[i].first; });
    if (!later) env.push_back(overrides[i].first + "=" + overrides[i].second);
  }
  return env;
}

std::optional<std::string> env_value(const std::vector<std::string>& env, std::string_view name) {
  for (const auto& entry : env) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 && entry[name.size()] == '=')
      return entry.substr(name.size() + 1);
  }
  return std::nullopt;
}

[[noreturn]] void throw_exec_failure(const ProcessOptions& o, const ExecReport& r) {
  const std::string& prog = o.argv[0];
  if (r.stage == 2)
    throw UsageError(fmt::format("cannot run `{}`: cannot enter directory {}: {}", prog, o.cwd.string(),
                                 errno_text(r.err)),
                     "check that the directory exists and is readable");
  if (r.stage == 1)
    throw Error(Exit::runtime_error, fmt::format("cannot run `{}`: cannot set up its output: {}", prog, errno_text(r.err)));
  switch (r.err) {
    case ENOENT:
      throw UsageError(fmt::format("cannot run `{}`: no such file", prog),
                       "check the path (a relative one is taken from the working directory)");
    case EACCES:
      throw UsageError(fmt::format("cannot run `{}`: permission denied (is it executable?)", prog),
                       fmt::format("make it executable: chmod +x {}", prog));
    case ENOEXEC:
      throw UsageError(fmt::format("cannot run `{}`: not a program this machine can execute", prog),
                       "rebuild it on this machine");
    default:
      throw UsageError(fmt::format("cannot run `{}`: {}", prog, errno_text(r.err)));
  }
}

// One captured output stream.
struct Capture {
  Fd fd;
  std::string* text;
  bool* truncated;
  int echo_fd;
  std::size_t dropped = 0;
};

void take(Capture& c, const char* data, std::size_t n, const ProcessOptions& o) {
  if (o.echo) write_all(c.echo_fd, data, n);
  if (o.on_output) o.on_output(c.echo_fd == STDOUT_FILENO ? 1 : 2, std::string_view(data, n));
  std::size_t room = o.max_capture_bytes > c.text->size() ? o.max_capture_bytes - c.text->size() : 0;
  std::size_t keep = std::min(room, n);
  c.text->append(data, keep);
  c.dropped += n - keep;
}

// Reads what is available; closes the descriptor at end of file or on error.
void drain(Capture& c, const ProcessOptions& o) {
  char buffer[kReadChunk];
  for (int rounds = 0; rounds < 16 && c.fd.open(); ++rounds) {
    ssize_t n = ::read(c.fd.get(), buffer, sizeof buffer);
    if (n > 0) {
      take(c, buffer, static_cast<std::size_t>(n), o);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    c.fd.reset();  // EOF or a hard error
  }
}

void finish_capture(Capture& c, const ProcessOptions& o) {
  if (c.dropped == 0) return;
  *c.truncated = true;
  if (!c.text->empty() && c.text->back() != '\n') c.text->push_back('\n');
  c.text->append(fmt::format("[workbook: output truncated: kept the first {} bytes, dropped {} more]\n",
                             o.max_capture_bytes, c.dropped));
}

int ms_until(Clock::time_point now, Clock::time_point t) {
  if (t <= now) return 0;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - now).count() + 1;
  return static_cast<int>(std::min<long long>(ms, 1 << 30));
}

}  // namespace

bool ProcessResult::exited_ok() const { return !timed_out && !interrupted && signal == 0 && exit_code == 0; }

std::optional<std::filesystem::path> find_in_path(std::string_view name, std::optional<std::string> path_list) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string_view::npos) {
    std::filesystem::path p(name);
    if (is_executable_file(p)) return p;
    return std::nullopt;
  }
  std::string list;
  if (path_list) {
    list = *path_list;
  } else if (const char* env = std::getenv("PATH")) {
    list = env;
  } else {
    list = "/bin:/usr/bin";  // glibc's default when PATH is unset
  }
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    std::string dir = list.substr(start, end - start);
    std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / std::string(name);
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

namespace {

// Everything the child needs, prepared before fork(): after it, only async-signal-safe
// calls happen in the child. argv and envp point into this object's strings.
struct ExecPlan {
  std::string token_entry;  // "WORKBOOK_PROCESS_TOKEN=<value>"
  std::vector<std::string> env;
  std::string path;         // argv[0] resolved on the child's PATH
  std::string cwd;
  std::vector<char*> argv, envp;
};

// Filled in place (not returned) so that argv and envp keep pointing at its own strings.
void plan_exec(const ProcessOptions& o, ExecPlan& plan) {
  if (o.argv.empty() || o.argv[0].empty()) throw Error(Exit::runtime_error, "run_process: empty argv");
  plan.token_entry = std::string(kTokenName) + "=" + make_token();
  std::vector<std::pair<std::string, std::string>> env_overrides = o.env;
  env_overrides.emplace_back(kTokenName, plan.token_entry.substr(std::strlen(kTokenName) + 1));
  plan.env = child_environment(env_overrides);
  plan.path = o.argv[0];
  if (plan.path.find('/') == std::string::npos) {
    auto found = find_in_path(plan.path, env_value(plan.env, "PATH"));
    if (!found)
      throw UsageError(fmt::format("cannot run `{}`: not found on PATH", plan.path),
                       fmt::format("install {0}, or put the directory that holds it on PATH", plan.path));
    plan.path = found->string();
  }
  for (const auto& a : o.argv) plan.argv.push_back(const_cast<char*>(a.c_str()));
  plan.argv.push_back(nullptr);
  for (const auto& e : plan.env) plan.envp.push_back(const_cast<char*>(e.c_str()));
  plan.envp.push_back(nullptr);
  plan.cwd = o.cwd.string();
}

// The pipes between runner and child: stdout, stderr, stdin (or /dev/null) and the
// close-on-exec pipe on which a child that could not exec reports why.
struct ChildPipes {
  Fd out_r, out_w, err_r, err_w, in_r, in_w, report_r, report_w;
  Fd go_r, go_w;  // the runner's one byte that lets the child exec (child_exec)
};

void open_pipes(const ProcessOptions& o, ChildPipes& p) {
  make_pipe(p.out_r, p.out_w);
  make_pipe(p.err_r, p.err_w);
  make_pipe(p.report_r, p.report_w);
  make_pipe(p.go_r, p.go_w);
  if (o.stdin_data.empty()) {
    int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd < 0) throw Error(Exit::runtime_error, "cannot open /dev/null: " + errno_text(errno));
    p.in_r.reset(above_stdio(null_fd));
  } else {
    make_pipe(p.in_r, p.in_w);
  }
}

// Forks the child, runs `before_exec(pid)` (the group guard) while the child waits, lets
// it exec, closes the parent's copies of the child's ends, and waits for the report
// pipe: it closes on a successful exec, and a report on it means exec failed (the child
// is reaped and the failure thrown).
pid_t start_child(const ProcessOptions& o, const ExecPlan& plan, ChildPipes& p,
                  const std::function<void(pid_t)>& before_exec) {
  const pid_t runner = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) throw Error(Exit::runtime_error, "cannot start a process (fork): " + errno_text(errno));
  if (pid == 0)
    child_exec(plan.path.c_str(), plan.argv.data(), plan.envp.data(), plan.cwd.empty() ? nullptr : plan.cwd.c_str(),
               p.in_r.get(), p.out_w.get(), p.err_w.get(), p.report_w.get(), p.go_r.get(), p.go_w.get(), runner);
  ::setpgid(pid, pid);  // also done by the child; whichever runs first wins the race
  p.go_r.reset();
  before_exec(pid);
  const char go = 1;
  (void)write_no_sigpipe(p.go_w.get(), &go, 1);  // a child already gone reports on the report pipe
  p.go_w.reset();
  p.out_w.reset();
  p.err_w.reset();
  p.in_r.reset();
  p.report_w.reset();
  ExecReport report{};
  ssize_t got;
  do got = ::read(p.report_r.get(), &report, sizeof report);
  while (got < 0 && errno == EINTR);
  if (got != 0) {
    int status;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (got != static_cast<ssize_t>(sizeof report)) report = ExecReport{3, EIO};
    throw_exec_failure(o, report);
  }
  return pid;
}

// A started child watched to its end: its exit noticed without reaping first (so its
// group's leftovers can be killed safely), the time limit and forwarded signals turned
// into kills, its output drained and its stdin fed. Whatever happens, the destructor
// never leaves the child (or what escaped its group) running or unreaped.
class Supervision {
 public:
  Supervision(const ProcessOptions& o, const std::string& token_entry, pid_t pid, ChildPipes& pipes,
              const SignalForwarding& signals, Clock::time_point start)
      : o_(o), token_entry_(token_entry), pid_(pid), signals_(signals), start_(start),
        limited_(o.timeout_s > 0), deadline_(limited_ ? after(start, o.timeout_s) : Clock::time_point::max()),
        out_{std::move(pipes.out_r), &result_.out, &result_.out_truncated, STDOUT_FILENO},
        err_{std::move(pipes.err_r), &result_.err, &result_.err_truncated, STDERR_FILENO},
        in_w_(std::move(pipes.in_w)) {
    result_.timeout_s = o.timeout_s;
    set_nonblocking(out_.fd.get());
    set_nonblocking(err_.fd.get());
    if (in_w_.open()) set_nonblocking(in_w_.get());
  }
  Supervision(const Supervision&) = delete;
  Supervision& operator=(const Supervision&) = delete;
  ~Supervision() {
    if (reaped_ || abandoned_) return;
    ::killpg(pid_, SIGKILL);
    kill_escaped(token_entry_, pid_, escaped_);
    int st;
    while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
  }

  ProcessResult run() {
    for (;;) {
      auto now = Clock::now();
      if (!exited_) notice_exit(now);
      if (exited_ && !out_.fd.open() && !err_.fd.open()) break;
      if (exited_ && now >= *drain_until_) break;  // a descendant that left the group holds the pipes
      if (!exited_ && !enforce_limits(now)) break;
      pump(now);
    }
    return finish();
  }

 private:
  void notice_exit(Clock::time_point now) {
    // While the zombie exists its pid (and so the group id) cannot be reused, so killing
    // the leftovers of its group is safe.
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != pid_)
      return;
    exited_ = true;
    ::killpg(pid_, SIGKILL);                     // anything the child left running in its group
    kill_escaped(token_entry_, pid_, escaped_);  // and anything that left the group
    while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    result_.wall_s = seconds_between(start_, Clock::now());
    drain_until_ = after(now, kDrainAfterExit_s);
  }

  // Signals, the deadline, SIGKILL after the grace; false when the child is given up on.
  bool enforce_limits(Clock::time_point now) {
    const int sig = signals_.fired();
    if (!result_.interrupted && !result_.timed_out && sig != 0) {
      result_.interrupted = true;
      result_.interrupt_signal = sig;
      ::killpg(pid_, sig);
      kill_at_ = after(now, kKillGrace_s);
    }
    if (!result_.timed_out && !result_.interrupted && limited_ && now >= deadline_) {
      result_.timed_out = true;
      ::killpg(pid_, SIGTERM);
      kill_at_ = after(now, kKillGrace_s);
    }
    if (kill_at_ && !give_up_at_ && now >= *kill_at_) {
      ::killpg(pid_, SIGKILL);
      give_up_at_ = after(now, kGiveUpAfterKill_s);
    }
    if (give_up_at_ && now >= *give_up_at_) {
      // Stuck in the kernel (a wedged driver): stop waiting rather than hang the runner.
      abandoned_ = true;
      result_.signal = SIGKILL;
      result_.wall_s = seconds_between(start_, now);
      result_.err += "\n[workbook: the program did not end after SIGKILL and was left behind]\n";
      return false;
    }
    return true;
  }

  int poll_timeout_ms(Clock::time_point now, bool nothing_open) const {
    int timeout_ms = nothing_open ? 5 : kPollSliceMs;
    if (!exited_ && limited_ && !result_.timed_out) timeout_ms = std::min(timeout_ms, ms_until(now, deadline_));
    if (kill_at_ && !give_up_at_) timeout_ms = std::min(timeout_ms, ms_until(now, *kill_at_));
    if (drain_until_) timeout_ms = std::min(timeout_ms, ms_until(now, *drain_until_));
    return timeout_ms;
  }

  // One poll() slice: output read, stdin written.
  void pump(Clock::time_point now) {
    std::vector<pollfd> fds;
    if (out_.fd.open()) fds.push_back({out_.fd.get(), POLLIN, 0});
    if (err_.fd.open()) fds.push_back({err_.fd.get(), POLLIN, 0});
    if (in_w_.open()) fds.push_back({in_w_.get(), POLLOUT, 0});
    int ready = ::poll(fds.empty() ? nullptr : fds.data(), static_cast<nfds_t>(fds.size()),
                       poll_timeout_ms(now, fds.empty()));
    if (ready < 0) {
      if (errno == EINTR) return;
      throw Error(Exit::runtime_error, "poll failed: " + errno_text(errno));
    }
    for (const auto& p : fds) {
      if (p.revents == 0) continue;
      if (out_.fd.open() && p.fd == out_.fd.get()) drain(out_, o_);
      else if (err_.fd.open() && p.fd == err_.fd.get()) drain(err_, o_);
      else if (in_w_.open() && p.fd == in_w_.get()) feed_stdin(p.revents);
    }
  }

  void feed_stdin(short revents) {
    if (revents & (POLLERR | POLLHUP)) {
      in_w_.reset();
      return;
    }
    std::size_t left = o_.stdin_data.size() - stdin_written_;
    ssize_t w = write_no_sigpipe(in_w_.get(), o_.stdin_data.data() + stdin_written_, std::min(left, kReadChunk));
    if (w > 0) stdin_written_ += static_cast<std::size_t>(w);
    else if (w < 0 && errno != EAGAIN && errno != EINTR) in_w_.reset();  // the child stopped reading
    if (stdin_written_ == o_.stdin_data.size()) in_w_.reset();
  }

  ProcessResult finish() {
    if (abandoned_) kill_escaped(token_entry_, pid_, escaped_);
    result_.escaped = static_cast<int>(escaped_.size());
    // A signal after the child's exit (while its output drained) still interrupts the run:
    // the caller sees what the user asked for instead of a Ctrl-C that went nowhere.
    // A SIGTERM or SIGHUP is also remembered for termination_signal().
    const int late = signals_.fired();
    if (late != 0 && !result_.interrupted && !result_.timed_out) {
      result_.interrupted = true;
      result_.interrupt_signal = late;
    }
    signals_.absorb();
    finish_capture(out_, o_);
    finish_capture(err_, o_);
    if (reaped_) {
      if (WIFEXITED(status_)) result_.exit_code = WEXITSTATUS(status_);
      else if (WIFSIGNALED(status_)) result_.signal = WTERMSIG(status_);
    }
    return result_;
  }

  const ProcessOptions& o_;
  const std::string& token_entry_;
  const pid_t pid_;
  const SignalForwarding& signals_;
  const Clock::time_point start_;
  const bool limited_;
  const Clock::time_point deadline_;
  ProcessResult result_;
  Capture out_, err_;
  Fd in_w_;
  std::size_t stdin_written_ = 0;
  std::optional<Clock::time_point> kill_at_;      // when SIGKILL follows the first signal
  std::optional<Clock::time_point> give_up_at_;   // when to stop waiting for a SIGKILLed child
  std::optional<Clock::time_point> drain_until_;  // after the child exited
  bool exited_ = false, reaped_ = false, abandoned_ = false;
  int status_ = 0;
  std::set<pid_t> escaped_;
};

}  // namespace

namespace {
ProcessStandIn g_stand_in;  // set only by tests (ScopedProcessStandIn)
}  // namespace

ScopedProcessStandIn::ScopedProcessStandIn(ProcessStandIn stand_in) : previous_(std::move(g_stand_in)) {
  g_stand_in = std::move(stand_in);
}
ScopedProcessStandIn::~ScopedProcessStandIn() { g_stand_in = std::move(previous_); }

ProcessResult run_process(const ProcessOptions& o) {
  if (g_stand_in) return g_stand_in(o);
  ExecPlan plan;
  plan_exec(o, plan);
  ChildPipes pipes;
  open_pipes(o, pipes);
  SignalForwarding signals;
  const auto start = Clock::now();
  std::optional<GroupGuard> guard;  // destroyed after `child`, whose reaper has ended the group by then
  const pid_t pid = start_child(o, plan, pipes, [&guard](pid_t group) { guard.emplace(group); });
  Supervision child(o, plan.token_entry, pid, pipes, signals, start);
  return child.run();
}

namespace {

std::string describe_ending(const ProcessResult& r) {
  if (r.interrupted) {
    switch (r.interrupt_signal) {
      case SIGTERM: return "interrupted (SIGTERM)";
      case SIGHUP: return "interrupted (SIGHUP: the terminal closed)";
      default: return "interrupted (Ctrl-C)";
    }
  }
  if (r.timed_out) {
    double t = r.timeout_s;
    if (std::floor(t) == t) return fmt::format("timed out after {:.0f} s", t);
    return fmt::format("timed out after {:g} s", t);
  }
  if (r.signal != 0) {
    const char* name = ::strsignal(r.signal);
    return fmt::format("killed by signal {} ({})", r.signal, name != nullptr ? name : "unknown");
  }
  if (r.exit_code >= 0) return fmt::format("exited with code {}", r.exit_code);
  return "did not run";
}

}  // namespace

std::string describe(const ProcessResult& r) {
  std::string text = describe_ending(r);
  if (r.escaped > 0) {
    text += fmt::format("; {} process{} it started had left its process group (setsid) and {} killed", r.escaped,
                        r.escaped == 1 ? "" : "es", r.escaped == 1 ? "was" : "were");
  }
  return text;
}

int termination_signal() { return g_termination_signal.load(); }

}  // namespace workbook
