// Tests for exec/process: real child processes (a shell builds the scenarios).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "exec/process.hpp"
#include "util/error.hpp"

#include "../support/files.hpp"
#include "../support/temp_dir.hpp"

namespace fs = std::filesystem;
using workbook::ProcessOptions;
using workbook::ProcessResult;
using workbook::run_process;

namespace {

using wbtest::read_file;
using wbtest::TempDir;

ProcessResult sh(const std::string& script, double timeout_s = 30) {
  ProcessOptions o;
  o.argv = {"sh", "-c", script};
  o.timeout_s = timeout_s;
  return run_process(o);
}

// True while `pid` is a live process (a zombie counts as gone: it no longer runs).
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return false;
  std::string line;
  std::getline(stat, line);
  auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

// Waits up to `seconds` for `pid` to be gone.
bool gone_within(pid_t pid, double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(seconds * 1000));
  while (std::chrono::steady_clock::now() < end) {
    if (!alive(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return !alive(pid);
}

pid_t read_pid(const fs::path& file) {
  // The shell writes the file before the run can end, but give it a moment to be sure.
  for (int i = 0; i < 100 && read_file(file).empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return static_cast<pid_t>(std::stol(read_file(file)));
}

}  // namespace

TEST_CASE("captures stdout and stderr separately, and the exit code", "[process]") {
  auto r = sh("echo out; echo err >&2; exit 3");
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK(r.exit_code == 3);
  CHECK(r.signal == 0);
  CHECK_FALSE(r.timed_out);
  CHECK_FALSE(r.exited_ok());
  CHECK(workbook::describe(r) == "exited with code 3");
  CHECK(r.wall_s > 0);
  CHECK(r.wall_s < 10);

  auto ok = sh("printf 'no newline'");
  CHECK(ok.exited_ok());
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "no newline");
  CHECK(ok.err.empty());
}

TEST_CASE("passes argv without a shell", "[process]") {
  ProcessOptions o;
  o.argv = {"printf", "%s|%s|", "two words", "$HOME;*"};
  auto r = run_process(o);
  CHECK(r.exited_ok());
  CHECK(r.out == "two words|$HOME;*|");
}

TEST_CASE("reports the signal that ended the child", "[process]") {
  auto r = sh("ulimit -c 0; kill -SEGV $$");
  CHECK(r.signal == SIGSEGV);
  CHECK(r.exit_code == -1);
  CHECK_FALSE(r.exited_ok());
  CHECK_FALSE(r.timed_out);
  CHECK(workbook::describe(r) == "killed by signal 11 (Segmentation fault)");
}

TEST_CASE("a time-out kills the whole process group, grandchildren included", "[process]") {
  TempDir tmp;
  auto pidfile = tmp.path / "grandchild.pid";
  auto r = sh("sleep 30 & echo $! > '" + pidfile.string() + "'; wait", 0.5);
  CHECK(r.timed_out);
  CHECK_FALSE(r.exited_ok());
  CHECK(r.wall_s >= 0.45);
  CHECK(r.wall_s < 5);
  CHECK(r.signal == SIGTERM);
  CHECK(workbook::describe(r) == "timed out after 0.5 s");
  pid_t grandchild = read_pid(pidfile);
  CHECK(gone_within(grandchild, 3));
}

TEST_CASE("a child that ignores SIGTERM is killed after the grace", "[process]") {
  auto r = sh("trap '' TERM; sleep 30", 0.3);
  CHECK(r.timed_out);
  CHECK(r.signal == SIGKILL);
  CHECK(r.wall_s < 5);
}

TEST_CASE("processes the child leaves running in its group are killed when it exits", "[process]") {
  TempDir tmp;
  auto pidfile = tmp.path / "left.pid";
  // The background sleep keeps stdout open; the run must not wait for it.
  auto r = sh("sleep 30 & echo $! > '" + pidfile.string() + "'; echo done", 20);
  CHECK(r.exited_ok());
  CHECK(r.out == "done\n");
  CHECK(r.wall_s < 5);
  CHECK(gone_within(read_pid(pidfile), 3));
}

TEST_CASE("several MB on both streams never deadlock", "[process]") {
  ProcessOptions o;
  // All of stdout first, then all of stderr: reading one pipe to its end before the other
  // would deadlock.
  o.argv = {"sh", "-c", "yes aaaaaaa | head -c 6000000; yes bbbbbbb | head -c 5000000 >&2"};
  o.timeout_s = 60;
  o.max_capture_bytes = 16u << 20;
  auto r = run_process(o);
  CHECK(r.exited_ok());
  CHECK_FALSE(r.timed_out);
  CHECK(r.out.size() == 6000000);
  CHECK(r.err.size() == 5000000);
  CHECK(r.out.find_first_not_of("a\n") == std::string::npos);
  CHECK(r.err.find_first_not_of("b\n") == std::string::npos);
  CHECK_FALSE(r.out_truncated);
  CHECK_FALSE(r.err_truncated);
}

TEST_CASE("output over the cap is drained, dropped and marked", "[process]") {
  ProcessOptions o;
  o.argv = {"sh", "-c", "yes x | head -c 3000000; echo small >&2"};
  o.max_capture_bytes = 1u << 20;
  auto r = run_process(o);
  CHECK(r.exited_ok());
  CHECK(r.out_truncated);
  CHECK_FALSE(r.err_truncated);
  CHECK(r.err == "small\n");
  REQUIRE(r.out.size() > (1u << 20));
  CHECK(r.out.size() < (1u << 20) + 200);
  CHECK(r.out.find("[workbook: output truncated") != std::string::npos);
  CHECK(r.out.find("dropped " + std::to_string(3000000 - (1 << 20)) + " more") != std::string::npos);
}

TEST_CASE("a program that cannot be executed throws instead of exiting 127", "[process]") {
  TempDir tmp;
  ProcessOptions o;

  o.argv = {"workbook-test-no-such-program"};
  try {
    run_process(o);
    FAIL("expected an error");
  } catch (const workbook::Error& e) {
    CHECK(std::string(e.what()).find("not found on PATH") != std::string::npos);
    CHECK_FALSE(e.hint().empty());
  }

  o.argv = {(tmp.path / "missing").string()};
  try {
    run_process(o);
    FAIL("expected an error");
  } catch (const workbook::Error& e) {
    CHECK(std::string(e.what()).find("no such file") != std::string::npos);
  }

  auto not_executable = tmp.path / "plain.txt";
  std::ofstream(not_executable) << "echo hi\n";
  o.argv = {not_executable.string()};
  try {
    run_process(o);
    FAIL("expected an error");
  } catch (const workbook::Error& e) {
    CHECK(std::string(e.what()).find("permission denied") != std::string::npos);
    CHECK(e.hint().find("chmod +x") != std::string::npos);
  }

  // Executable bit but no known format: execve itself fails in the child (ENOEXEC).
  auto garbage = tmp.path / "garbage";
  std::ofstream(garbage) << "\x01\x02\x03 not a program";
  fs::permissions(garbage, fs::perms::owner_all);
  o.argv = {garbage.string()};
  try {
    run_process(o);
    FAIL("expected an error");
  } catch (const workbook::Error& e) {
    CHECK(std::string(e.what()).find("cannot run") != std::string::npos);
  }

  o.argv = {"true"};
  o.cwd = tmp.path / "no-such-dir";
  CHECK_THROWS_AS(run_process(o), workbook::UsageError);
}

TEST_CASE("stdin_data is delivered and then closed", "[process]") {
  ProcessOptions o;
  o.argv = {"cat"};
  o.stdin_data = "hello\nworld\n";
  auto r = run_process(o);
  CHECK(r.exited_ok());
  CHECK(r.out == "hello\nworld\n");

  // Large input and output at once through a child that echoes as it reads.
  std::string big;
  for (int i = 0; i < 300000; ++i) big += "line\n";
  o.stdin_data = big;
  r = run_process(o);
  CHECK(r.exited_ok());
  CHECK(r.out.size() == big.size());
  CHECK(r.out == big);

  // No stdin_data: stdin is /dev/null, so cat ends at once.
  o.stdin_data.clear();
  o.timeout_s = 10;
  r = run_process(o);
  CHECK(r.exited_ok());
  CHECK(r.out.empty());

  // A child that never reads: the runner must not die of SIGPIPE.
  o.argv = {"true"};
  o.stdin_data = big;
  r = run_process(o);
  CHECK(r.exited_ok());
}

TEST_CASE("environment variables are added and overridden", "[process]") {
  ProcessOptions o;
  o.argv = {"sh", "-c", "printf '%s|%s|%s' \"$WB_TEST_VAR\" \"$HOME\" \"$WB_TWICE\""};
  o.env = {{"WB_TEST_VAR", "value with spaces"}, {"HOME", "/custom/home"}, {"WB_TWICE", "1"}, {"WB_TWICE", "2"}};
  auto r = run_process(o);
  CHECK(r.exited_ok());
  CHECK(r.out == "value with spaces|/custom/home|2");
}

TEST_CASE("the child runs in cwd", "[process]") {
  TempDir tmp;
  auto script = tmp.path / "hello.sh";
  std::ofstream(script) << "#!/bin/sh\necho \"hi from $(pwd)\"\n";
  fs::permissions(script, fs::perms::owner_all);
  ProcessOptions o;
  o.argv = {"./hello.sh"};
  o.cwd = tmp.path;
  auto r = run_process(o);
  CHECK(r.exited_ok());
  CHECK(r.out == "hi from " + fs::canonical(tmp.path).string() + "\n");
}

TEST_CASE("echo copies the child's output to ours and still captures it", "[process]") {
  TempDir tmp;
  auto copy = tmp.path / "stdout.txt";
  std::cout.flush();
  std::fflush(stdout);
  int saved = ::dup(STDOUT_FILENO);
  int file = ::open(copy.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(saved >= 0);
  REQUIRE(file >= 0);
  ::dup2(file, STDOUT_FILENO);
  ::close(file);
  ProcessOptions o;
  o.argv = {"sh", "-c", "echo live"};
  o.echo = true;
  ProcessResult r;
  try {
    r = run_process(o);
  } catch (...) {
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    throw;
  }
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  CHECK(r.out == "live\n");
  CHECK(read_file(copy) == "live\n");
}

TEST_CASE("Ctrl-C to the runner kills the child's group and is reported", "[process]") {
  TempDir tmp;
  auto pidfile = tmp.path / "background.pid";
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  // The child sends SIGINT to its parent, the test process, as a Ctrl-C at the terminal
  // would. Its INT trap exits 5, which shows that SIGINT (not another signal) reached the
  // child's group before the SIGKILL that follows a grace of a second. Its background
  // sleep ignores SIGINT (as background jobs of sh do) and must die all the same.
  auto r = sh("trap 'exit 5' INT; sleep 30 & echo $! > '" + pidfile.string() +
                  "'; kill -INT $PPID; while :; do sleep 0.05; done",
              30);
  CHECK(r.interrupted);
  CHECK_FALSE(r.timed_out);
  CHECK(r.exit_code == 5);
  CHECK_FALSE(r.exited_ok());
  CHECK(r.wall_s < 0.9);
  CHECK(workbook::describe(r) == "interrupted (Ctrl-C)");
  CHECK(gone_within(read_pid(pidfile), 3));
  struct sigaction after {};
  sigaction(SIGINT, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);

  // A child without a trap dies of the forwarded signal (or of the SIGKILL after the
  // grace, when SIGINT reached the shell while it was starting sleep).
  r = sh("kill -INT $PPID; sleep 30", 30);
  CHECK(r.interrupted);
  CHECK((r.signal == SIGINT || r.signal == SIGKILL));
  CHECK(r.wall_s < 5);

  // The next run starts clean.
  CHECK(sh("exit 0").exited_ok());
}

TEST_CASE("a Ctrl-C after the child exited is still reported while its output drains", "[process]") {
  TempDir tmp;
  const std::string ready = (tmp.path / "ready").string();
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  // A descendant leaves the child's group and drops the token, so nothing kills it, and
  // keeps stdout open. The child waits until it runs, then exits; the descendant waits
  // until the child is reaped, then sends the Ctrl-C: the runner is draining the output
  // of a child that has already ended. That Ctrl-C was lost before, and the login node
  // of a Slurm run then waited on a job nobody cancelled.
  auto r = sh("setsid env -i sh -c \"touch '" + ready + "'; while kill -0 $$ 2>/dev/null; do sleep 0.01; done; "
              "kill -INT $PPID; sleep 1\" & while [ ! -e '" + ready + "' ]; do sleep 0.01; done; exit 0",
              30);
  CHECK(r.interrupted);
  CHECK(r.interrupt_signal == SIGINT);
  CHECK(r.exit_code == 0);
  CHECK(workbook::describe(r) == "interrupted (Ctrl-C)");
  struct sigaction after {};
  sigaction(SIGINT, nullptr, &after);
  CHECK(after.sa_handler == before.sa_handler);
}

TEST_CASE("describe covers every ending", "[process]") {
  ProcessResult r;
  r.timed_out = true;
  r.timeout_s = 60;
  CHECK(workbook::describe(r) == "timed out after 60 s");
  r = {};
  r.signal = SIGKILL;
  CHECK(workbook::describe(r) == "killed by signal 9 (Killed)");
  r = {};
  r.exit_code = 0;
  CHECK(workbook::describe(r) == "exited with code 0");
  CHECK(r.exited_ok());
}

TEST_CASE("find_in_path", "[process]") {
  CHECK(workbook::find_in_path("sh").has_value());
  CHECK_FALSE(workbook::find_in_path("workbook-test-no-such-program").has_value());
  CHECK_FALSE(workbook::find_in_path("").has_value());
  TempDir tmp;
  auto tool = tmp.path / "wb-tool";
  std::ofstream(tool) << "#!/bin/sh\n";
  CHECK_FALSE(workbook::find_in_path("wb-tool", tmp.path.string()).has_value());  // not executable yet
  fs::permissions(tool, fs::perms::owner_all);
  auto found = workbook::find_in_path("wb-tool", "/nonexistent:" + tmp.path.string());
  REQUIRE(found.has_value());
  CHECK(*found == tool);
  CHECK(workbook::find_in_path(tool.string()) == tool);
}

TEST_CASE("SIGTERM and SIGHUP to the runner are forwarded to the child's group and reported", "[process][signals]") {
  for (int sig : {SIGTERM, SIGHUP}) {
    const std::string name = sig == SIGTERM ? "TERM" : "HUP";
    INFO("SIG" << name);
    TempDir tmp;
    auto pidfile = tmp.path / "background.pid";
    struct sigaction before {};
    sigaction(sig, nullptr, &before);
    // The child sends the signal to its parent, the test process, as `kill` or a closing
    // terminal would. Its trap exits 7, which shows that the same signal reached the
    // child's group; its background sleep must die too. Before the fix the signal ended
    // the test process itself.
    auto r = sh("trap 'exit 7' " + name + "; sleep 30 & echo $! > '" + pidfile.string() + "'; kill -" + name +
                    " $PPID; while :; do sleep 0.05; done",
                30);
    CHECK(r.interrupted);
    CHECK(r.interrupt_signal == sig);
    CHECK_FALSE(r.timed_out);
    CHECK(r.exit_code == 7);
    CHECK(r.wall_s < 0.9);
    CHECK(workbook::describe(r) == (sig == SIGTERM ? "interrupted (SIGTERM)" : "interrupted (SIGHUP: the terminal closed)"));
    CHECK(gone_within(read_pid(pidfile), 3));
    CHECK(workbook::termination_signal() == sig);
    struct sigaction after {};
    sigaction(sig, nullptr, &after);
    CHECK(after.sa_handler == before.sa_handler);
  }
  // The next run starts clean.
  CHECK(sh("exit 0").exited_ok());
}

TEST_CASE("a descendant that leaves the group with setsid is found, killed and reported", "[process][setsid]") {
  TempDir tmp;
  auto pidfile = tmp.path / "escaped.pid";
  // A time-out: the group is killed, and the setsid sleep (outside it) must be found too.
  // Its output goes elsewhere, so only the token can find it (not the open pipes).
  // The escaped process writes its pid once it is in its own session; the child waits for it.
  const std::string escape = "setsid sh -c 'echo $$ > \"" + pidfile.string() +
                             "\"; exec sleep 30' >/dev/null 2>&1 </dev/null & while [ ! -s '" + pidfile.string() +
                             "' ]; do sleep 0.01; done; ";
  auto r = sh(escape + "sleep 30", 2);
  CHECK(r.timed_out);
  CHECK(r.escaped == 1);
  CHECK(workbook::describe(r) ==
        "timed out after 2 s; 1 process it started had left its process group (setsid) and was killed");
  CHECK(gone_within(read_pid(pidfile), 3));

  // A child that exits at once, leaving the escaped process behind.
  fs::remove(pidfile);
  r = sh(escape + "echo done");
  CHECK(r.exited_ok());
  CHECK(r.out == "done\n");
  CHECK(r.escaped == 1);
  CHECK(gone_within(read_pid(pidfile), 3));

  // Nothing escaped: nothing reported.
  r = sh("sleep 0.1 & wait; exit 0");
  CHECK(r.escaped == 0);
  CHECK(workbook::describe(r) == "exited with code 0");
}

TEST_CASE("a stand-in answers run_process while it lives, and the one before it comes back", "[process]") {
  workbook::ProcessOptions o;
  o.argv = {"no-such-program-anywhere"};
  {
    workbook::ScopedProcessStandIn outer([](const workbook::ProcessOptions& asked) {
      workbook::ProcessResult r;
      r.exit_code = 7;
      r.out = asked.argv.at(0);
      return r;
    });
    CHECK(workbook::run_process(o).exit_code == 7);
    CHECK(workbook::run_process(o).out == "no-such-program-anywhere");  // it sees the request
    {
      workbook::ScopedProcessStandIn inner([](const workbook::ProcessOptions&) {
        workbook::ProcessResult r;
        r.exit_code = 8;
        return r;
      });
      CHECK(workbook::run_process(o).exit_code == 8);
    }
    CHECK(workbook::run_process(o).exit_code == 7);
  }
  CHECK_THROWS_AS(workbook::run_process(o), workbook::UsageError);  // the system again: not found
}
