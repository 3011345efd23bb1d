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
#include <mutex>
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
    for (std::size_t i = 0; i < kForwardedCount; ++i) start_[i] = g_signal_count[i].load();
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

 private:
  static inline std::mutex mutex_;
  static inline int active_ = 0;
  static inline bool installed_[kForwardedCount] = {};
  static inline struct sigaction previous_[kForwardedCount] = {};
  unsigned start_[kForwardedCount] = {};
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
// the rest of its group).
[[noreturn]] void child_exec(const char* path, char* const* argv, char* const* envp, const char* cwd,
                             int in_fd, int out_fd, int err_fd, int report_fd, pid_t runner) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != runner) ::_exit(127);  // the runner died before the line above
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

ProcessResult run_process(const ProcessOptions& o) {
  if (o.argv.empty() || o.argv[0].empty()) throw Error(Exit::runtime_error, "run_process: empty argv");

  // Everything the child needs is prepared before fork(): after it, only
  // async-signal-safe calls happen in the child.
  const std::string token_entry = std::string(kTokenName) + "=" + make_token();
  std::vector<std::pair<std::string, std::string>> env_overrides = o.env;
  env_overrides.emplace_back(kTokenName, token_entry.substr(std::strlen(kTokenName) + 1));
  std::vector<std::string> env = child_environment(env_overrides);
  std::string exec_path = o.argv[0];
  if (exec_path.find('/') == std::string::npos) {
    auto found = find_in_path(exec_path, env_value(env, "PATH"));
    if (!found)
      throw UsageError(fmt::format("cannot run `{}`: not found on PATH", exec_path),
                       fmt::format("install {0}, or put the directory that holds it on PATH", exec_path));
    exec_path = found->string();
  }
  std::vector<char*> argv_c;
  for (const auto& a : o.argv) argv_c.push_back(const_cast<char*>(a.c_str()));
  argv_c.push_back(nullptr);
  std::vector<char*> envp_c;
  for (const auto& e : env) envp_c.push_back(const_cast<char*>(e.c_str()));
  envp_c.push_back(nullptr);
  std::string cwd = o.cwd.string();

  Fd out_r, out_w, err_r, err_w, in_r, in_w, report_r, report_w;
  make_pipe(out_r, out_w);
  make_pipe(err_r, err_w);
  make_pipe(report_r, report_w);
  if (o.stdin_data.empty()) {
    int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd < 0) throw Error(Exit::runtime_error, "cannot open /dev/null: " + errno_text(errno));
    in_r.reset(above_stdio(null_fd));
  } else {
    make_pipe(in_r, in_w);
  }

  SignalForwarding signals;
  ProcessResult result;
  result.timeout_s = o.timeout_s;
  const auto start = Clock::now();

  const pid_t runner = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) throw Error(Exit::runtime_error, "cannot start a process (fork): " + errno_text(errno));
  if (pid == 0)
    child_exec(exec_path.c_str(), argv_c.data(), envp_c.data(), cwd.empty() ? nullptr : cwd.c_str(), in_r.get(),
               out_w.get(), err_w.get(), report_w.get(), runner);

  ::setpgid(pid, pid);  // also done by the child; whichever runs first wins the race
  out_w.reset();
  err_w.reset();
  in_r.reset();
  report_w.reset();
  GroupGuard guard(pid);  // destroyed after the reaper below has ended the group

  // The report pipe closes on a successful exec; a report means exec failed.
  ExecReport report{};
  ssize_t got;
  do got = ::read(report_r.get(), &report, sizeof report);
  while (got < 0 && errno == EINTR);
  if (got != 0) {
    int status;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (got != static_cast<ssize_t>(sizeof report)) report = ExecReport{3, EIO};
    throw_exec_failure(o, report);
  }

  Capture out{std::move(out_r), &result.out, &result.out_truncated, STDOUT_FILENO};
  Capture err{std::move(err_r), &result.err, &result.err_truncated, STDERR_FILENO};
  set_nonblocking(out.fd.get());
  set_nonblocking(err.fd.get());
  if (in_w.open()) set_nonblocking(in_w.get());
  std::size_t stdin_written = 0;

  const bool limited = o.timeout_s > 0;
  const auto deadline = limited ? after(start, o.timeout_s) : Clock::time_point::max();
  std::optional<Clock::time_point> kill_at;       // when SIGKILL follows the first signal
  std::optional<Clock::time_point> give_up_at;    // when to stop waiting for a SIGKILLed child
  std::optional<Clock::time_point> drain_until;   // after the child exited
  bool exited = false, reaped = false, abandoned = false;
  int status = 0;
  std::set<pid_t> escaped;

  // Whatever happens below, never leave the child (or what escaped its group) running or unreaped.
  struct Reaper {
    pid_t pid;
    bool& reaped;
    bool& abandoned;
    const std::string& token_entry;
    std::set<pid_t>& escaped;
    ~Reaper() {
      if (reaped || abandoned) return;
      ::killpg(pid, SIGKILL);
      kill_escaped(token_entry, pid, escaped);
      int st;
      while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
      }
    }
  } reaper{pid, reaped, abandoned, token_entry, escaped};

  for (;;) {
    auto now = Clock::now();

    if (!exited) {
      // Notice the exit without reaping: while the zombie exists its pid (and so the
      // group id) cannot be reused, so killing the leftovers of its group is safe.
      siginfo_t info{};
      if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
        exited = true;
        ::killpg(pid, SIGKILL);  // anything the child left running in its group
        kill_escaped(token_entry, pid, escaped);  // and anything that left the group
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        reaped = true;
        result.wall_s = seconds_between(start, Clock::now());
        drain_until = after(now, kDrainAfterExit_s);
      }
    }
    if (exited && !out.fd.open() && !err.fd.open()) break;
    if (exited && now >= *drain_until) break;  // a descendant that left the group holds the pipes

    if (!exited) {
      const int sig = signals.fired();
      if (!result.interrupted && !result.timed_out && sig != 0) {
        result.interrupted = true;
        result.interrupt_signal = sig;
        ::killpg(pid, sig);
        kill_at = after(now, kKillGrace_s);
      }
      if (!result.timed_out && !result.interrupted && limited && now >= deadline) {
        result.timed_out = true;
        ::killpg(pid, SIGTERM);
        kill_at = after(now, kKillGrace_s);
      }
      if (kill_at && !give_up_at && now >= *kill_at) {
        ::killpg(pid, SIGKILL);
        give_up_at = after(now, kGiveUpAfterKill_s);
      }
      if (give_up_at && now >= *give_up_at) {
        // Stuck in the kernel (a wedged driver): stop waiting rather than hang the runner.
        abandoned = true;
        result.signal = SIGKILL;
        result.wall_s = seconds_between(start, now);
        result.err += "\n[workbook: the program did not end after SIGKILL and was left behind]\n";
        break;
      }
    }

    std::vector<pollfd> fds;
    if (out.fd.open()) fds.push_back({out.fd.get(), POLLIN, 0});
    if (err.fd.open()) fds.push_back({err.fd.get(), POLLIN, 0});
    if (in_w.open()) fds.push_back({in_w.get(), POLLOUT, 0});

    int timeout_ms = fds.empty() ? 5 : kPollSliceMs;
    if (!exited && limited && !result.timed_out) timeout_ms = std::min(timeout_ms, ms_until(now, deadline));
    if (kill_at && !give_up_at) timeout_ms = std::min(timeout_ms, ms_until(now, *kill_at));
    if (drain_until) timeout_ms = std::min(timeout_ms, ms_until(now, *drain_until));

    int ready = ::poll(fds.empty() ? nullptr : fds.data(), static_cast<nfds_t>(fds.size()), timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw Error(Exit::runtime_error, "poll failed: " + errno_text(errno));
    }
    for (const auto& p : fds) {
      if (p.revents == 0) continue;
      if (out.fd.open() && p.fd == out.fd.get()) drain(out, o);
      else if (err.fd.open() && p.fd == err.fd.get()) drain(err, o);
      else if (in_w.open() && p.fd == in_w.get()) {
        if (p.revents & (POLLERR | POLLHUP)) {
          in_w.reset();
          continue;
        }
        std::size_t left = o.stdin_data.size() - stdin_written;
        ssize_t w = write_no_sigpipe(in_w.get(), o.stdin_data.data() + stdin_written, std::min(left, kReadChunk));
        if (w > 0) stdin_written += static_cast<std::size_t>(w);
        else if (w < 0 && errno != EAGAIN && errno != EINTR) in_w.reset();  // the child stopped reading
        if (stdin_written == o.stdin_data.size()) in_w.reset();
      }
    }
  }

  if (abandoned) kill_escaped(token_entry, pid, escaped);
  result.escaped = static_cast<int>(escaped.size());
  signals.fired();  // a SIGTERM or SIGHUP while the output drained is remembered too
  finish_capture(out, o);
  finish_capture(err, o);
  if (reaped) {
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  }
  return result;
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
