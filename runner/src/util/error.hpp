// Errors the runner reports to the learner. Every error carries the exit code it maps
// to and, where there is one, the next thing to do. Helpers throw; only main() prints
// and exits.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace workbook {

// Exit codes of the `workbook` binary (documented in docs/commands.md and `workbook --help`).
enum class Exit : int {
  ok = 0,             // everything passed
  check_failed = 1,   // a lab ran but a check failed
  usage = 2,          // bad command line, bad content, missing prerequisite
  compile_error = 3,  // nvcc rejected the lab
  runtime_error = 4,  // crash, CUDA error or time-out
  out_of_range = 5,   // every check passed, but a graded figure is outside its expected range
  internal = 70,      // a bug in the runner (sysexits' EX_SOFTWARE): please report it
  io_error = 74,      // the journal or the workspace could not be read or written (EX_IOERR)
  interrupted = 130,  // stopped by Ctrl-C (128 + SIGINT, as shells report it)
};

class Error : public std::runtime_error {
 public:
  Error(Exit code, std::string message, std::string hint = {})
      : std::runtime_error(std::move(message)), code_(code), hint_(std::move(hint)) {}
  Exit code() const { return code_; }
  const std::string& hint() const { return hint_; }

 private:
  Exit code_;
  std::string hint_;
};

// Bad command line or environment: exit 2.
class UsageError : public Error {
 public:
  explicit UsageError(std::string message, std::string hint = {})
      : Error(Exit::usage, std::move(message), std::move(hint)) {}
};

// Content that does not validate: every problem as "file:line: field: what is wrong".
class ContentError : public Error {
 public:
  explicit ContentError(std::vector<std::string> problems)
      : Error(Exit::usage, join(problems)), problems_(std::move(problems)) {}
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  static std::string join(const std::vector<std::string>& p) {
    std::string s;
    for (const auto& line : p) s += (s.empty() ? "" : "\n") + line;
    return s;
  }
  std::vector<std::string> problems_;
};

}  // namespace workbook
