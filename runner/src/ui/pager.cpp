// Paging long output (see pager.hpp).
#include "ui/pager.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ui/style.hpp"
#include "util/file_text.hpp"

extern char** environ;

namespace workbook {

namespace {

void print_all(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

// Starts `sh -c pager` with its stdin on a new pipe; returns the pid (or -1) and the
// pipe's write end in `fd`.
pid_t start_pager(const std::string& pager, int& fd) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return -1;
  std::vector<std::string> env;
  bool has_less = false;
  for (char** e = environ; *e; ++e) {
    env.emplace_back(*e);
    has_less = has_less || env.back().rfind("LESS=", 0) == 0;
  }
  if (!has_less) env.emplace_back("LESS=FRX");
  std::vector<char*> envp;
  for (auto& kv : env) envp.push_back(kv.data());
  envp.push_back(nullptr);
  std::string sh = "/bin/sh", dash_c = "-c", cmd = pager;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, p[0], STDIN_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGQUIT}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  if (::posix_spawn(&pid, sh.c_str(), &fa, &attr, argv, envp.data()) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(p[0]);
  if (pid < 0) ::close(p[1]);
  fd = p[1];
  return pid;
}

}  // namespace

std::string choose_pager(bool no_pager_flag, bool stdout_terminal, const char* workbook_pager, const char* pager) {
  if (no_pager_flag || !stdout_terminal) return "";
  std::string chosen = workbook_pager ? workbook_pager : pager ? pager : "less -FRX";
  const std::size_t a = chosen.find_first_not_of(" \t"), b = chosen.find_last_not_of(" \t");
  chosen = a == std::string::npos ? "" : chosen.substr(a, b - a + 1);
  return chosen == "cat" ? "" : chosen;
}

std::string pager_for_stdout(bool no_pager_flag) {
  return choose_pager(no_pager_flag, stdout_terminal(), std::getenv("WORKBOOK_PAGER"), std::getenv("PAGER"));
}

Shown show_text(const std::string& text, const std::string& pager) {
  std::fflush(stdout);
  int fd = -1;
  const pid_t pid = pager.empty() ? -1 : start_pager(pager, fd);
  if (pid < 0) {
    print_all(text);
    return Shown::printed;
  }
  struct sigaction ignore {}, old_pipe {}, old_int {}, old_quit {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGPIPE, &ignore, &old_pipe);
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  write_all(fd, text);  // false: the pager quit early (q in less); nothing more to do
  ::close(fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  const bool not_started = WIFEXITED(status) && (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127);
  if (not_started) {
    print_all(text);
    return Shown::printed;
  }
  return Shown::paged;
}

}  // namespace workbook
