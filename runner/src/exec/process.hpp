// Running a child program: argv array (never a shell), captured stdout/stderr, a time
// limit that kills the child's whole process group, Ctrl-C, SIGTERM and SIGHUP forwarded
// to the child, and descendants that left its group (setsid) found and killed.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace workbook {

// What to run and how.
struct ProcessOptions {
  // argv[0] is the program: looked up on PATH when it holds no '/', otherwise a path
  // (a relative one is taken relative to `cwd` when that is set, as execve would).
  std::vector<std::string> argv;
  // Environment variables added to (or overriding) the runner's own environment.
  std::vector<std::pair<std::string, std::string>> env;
  // Working directory of the child; empty: the runner's.
  std::filesystem::path cwd;
  // Wall-clock limit in seconds; <= 0: no limit.
  double timeout_s = 60;
  // Also copy the child's stdout/stderr to the runner's stdout/stderr as it arrives.
  bool echo = false;
  // Written to the child's stdin, which is then closed; empty: stdin is /dev/null.
  std::string stdin_data;
  // Most bytes kept of each of stdout and stderr; the rest is read and dropped, and a
  // "[workbook: output truncated ...]" line is appended to what was kept.
  std::size_t max_capture_bytes = std::size_t{4} << 20;
  // Called with every piece of output as it arrives, all of it (none is dropped), while
  // the time limit and Ctrl-C still apply: `stream` is 1 for stdout, 2 for stderr. For a
  // reader that must see the whole output, such as an experiment's metric patterns.
  std::function<void(int stream, std::string_view piece)> on_output;
};

// How a child ended and what it printed.
struct ProcessResult {
  int exit_code = -1;        // the exit status when it exited normally, else -1
  int signal = 0;            // the signal that ended it (0 if none)
  bool timed_out = false;    // the time limit was reached and the child's group was killed
  bool interrupted = false;  // the runner got SIGINT (Ctrl-C), SIGTERM or SIGHUP and killed the child's group
  int interrupt_signal = 0;  // with `interrupted`: which of those it was
  int escaped = 0;           // processes the child started that had left its process group
                             // (setsid/setpgid) and were still running when it ended: killed
  std::string out, err;      // captured stdout and stderr (capped, see max_capture_bytes)
  bool out_truncated = false, err_truncated = false;  // a stream went over the cap
  double wall_s = 0;         // wall-clock seconds from start to reaping the child
  double timeout_s = 0;      // the limit it ran under (<= 0: none), for describe()

  // True when the child exited normally with status 0 (not timed out, not signalled).
  bool exited_ok() const;
};

// Runs a child to completion and returns how it ended.
//
// - The child gets its own process group. When the time limit is reached the whole group
//   gets SIGTERM, then SIGKILL after a short grace, so grandchildren die too. When the
//   child itself exits, anything it left running in its group is killed as well.
// - Both pipes are drained with poll(), so large outputs never deadlock.
// - While a child runs, SIGINT to the runner (Ctrl-C at the terminal, which reaches only
//   the runner's foreground group), SIGTERM (kill, a job scheduler) and SIGHUP (the
//   terminal closed) are caught: the child's group gets the same signal, then SIGKILL
//   after the grace, and the result comes back with `interrupted` and `interrupt_signal`
//   set (and `signal` set to whatever ended the child). The runner's previous
//   dispositions are restored on return; the caller decides whether to stop (SIGTERM and
//   SIGHUP are also remembered for termination_signal()). A signal the runner ignores
//   (nohup, a background job) is left ignored and nothing is forwarded.
// - Every child carries a token in its environment (WORKBOOK_PROCESS_TOKEN). When the
//   child has ended, the runner's processes that still carry the token but are outside
//   the child's process group (a descendant that called setsid) are killed and counted
//   in `escaped`. A descendant that replaced its environment cannot be found this way.
//
// Throws UsageError when the program cannot be executed (not found on PATH, not
// executable, bad working directory): the child reports exec failure back through a
// close-on-exec pipe, so this never shows up as exit code 127.
ProcessResult run_process(const ProcessOptions& options);

// A stand-in for every child the runner starts, for tests of the pipeline in-process
// (ninja's FakeCommandRunner is the model): while one is installed, run_process hands
// each request to it and returns its answer, and starts nothing. It may throw what
// run_process throws (UsageError: the program cannot be executed). One at a time.
using ProcessStandIn = std::function<ProcessResult(const ProcessOptions&)>;
class ScopedProcessStandIn {
 public:
  explicit ScopedProcessStandIn(ProcessStandIn stand_in);
  ~ScopedProcessStandIn();
  ScopedProcessStandIn(const ScopedProcessStandIn&) = delete;
  ScopedProcessStandIn& operator=(const ScopedProcessStandIn&) = delete;

 private:
  ProcessStandIn previous_;
};

// One line on how the child ended: "exited with code 3", "killed by signal 11
// (Segmentation fault)", "timed out after 60 s", "interrupted (Ctrl-C)", "interrupted
// (SIGTERM)"; with "; 1 process it started had left its process group (setsid) and was
// killed" added when `escaped` is not 0.
std::string describe(const ProcessResult& result);

// SIGTERM or SIGHUP when one reached the runner while a child ran (it was forwarded to
// the child, see run_process), else 0. The runner records the run, then ends itself by
// that signal (main), so that whoever sent it sees it obeyed.
int termination_signal();

// Looks `name` up on PATH (or on `path_list` when given, a ':'-separated list) and returns
// the first executable regular file found; nullopt when there is none. A name holding
// '/' is returned as-is when it names an executable regular file.
std::optional<std::filesystem::path> find_in_path(std::string_view name,
                                                  std::optional<std::string> path_list = {});

}  // namespace workbook
