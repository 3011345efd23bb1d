// The learner's lines, for the learning commands: prompts on a terminal, plain lines from
// a pipe (docs/learning.md gives the protocol), a visible countdown for the oral drills,
// and Ctrl-C turned into a clean stop (everything already answered is in the journal).
#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <string>

#include "ui/prompt.hpp"
#include "ui/style.hpp"

namespace workbook::learn {

// The longest line a learner's answer may be; the rest of a longer line is discarded
// (with a note), so that nothing downstream ever sees a line of unbounded length.
inline constexpr std::size_t kMaxLineBytes = 4096;

struct CappedLine {
  std::string text;         // at most the cap, never cut inside a UTF-8 character
  std::size_t length = 0;   // the whole line's length in bytes (without the newline)
  bool truncated = false;   // length > cap
};

// Reads one line (up to '\n' or the end of input) keeping at most `cap` bytes and
// discarding the rest of it; nullopt at the end of input when nothing was read.
std::optional<CappedLine> read_capped_line(std::istream& in, std::size_t cap = kMaxLineBytes);

class LearnerInput {
 public:
  // `terminal`: stdin and stdout are a terminal (countdowns, re-asking); `quiet`: print
  // nothing (--json). Ctrl-C ends its input while it lives (ui/prompt.hpp).
  LearnerInput(bool terminal, bool quiet);
  LearnerInput(const LearnerInput&) = delete;
  LearnerInput& operator=(const LearnerInput&) = delete;

  bool terminal() const { return terminal_; }
  bool quiet() const { return quiet_; }
  // Prints `prompt` (unless quiet) and reads one line, trimmed; nullopt at the end of
  // input or on Ctrl-C (then interrupted() is true).
  std::optional<std::string> line(const std::string& prompt);
  // Like line(), but on a terminal redraws "m:ss left" every second until Enter (after
  // zero it shows the overrun). `waited_s` gets the seconds until Enter.
  std::optional<std::string> line_with_countdown(const std::string& prompt, int seconds, double& waited_s);
  bool interrupted() const;
  // Prints (unless quiet).
  void say(const std::string& text) const;

 private:
  bool terminal_, quiet_;
  bool eof_ = false;
  CtrlCEndsInput ctrl_c_;
};

}  // namespace workbook::learn
