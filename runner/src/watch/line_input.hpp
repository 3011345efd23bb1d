// Lines typed (or piped) on a file descriptor, read so that a wait for the next one can be
// given up: every tick the caller's `stop` is asked (watch --manual-run stops on Ctrl-C
// while it waits for Enter, which a blocking std::getline could not).
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace workbook {

class LineInput {
 public:
  explicit LineInput(int fd = 0) : fd_(fd) {}

  enum class Status { line, end, stopped };
  // The next line, without its '\n' (a last line without one counts); `end` once the input
  // is closed and read; `stopped` when `stop` returned true first.
  Status next(std::string& line, const std::function<bool()>& stop,
              std::chrono::milliseconds tick = std::chrono::milliseconds(100));

 private:
  int fd_;
  std::string buffer_;
  bool closed_ = false;
};

}  // namespace workbook
