// The learner's lines, for the learning commands: prompts on a terminal, plain lines from
// a pipe (docs/learning.md gives the protocol), a visible countdown for the oral drills,
// and Ctrl-C turned into a clean stop (everything already answered is in the journal).
#pragma once

#include <optional>
#include <string>

#include "ui/style.hpp"

namespace workbook::learn {

class LearnerInput {
 public:
  // `terminal`: stdin and stdout are a terminal (countdowns, re-asking); `quiet`: print
  // nothing (--json). Installs a SIGINT handler for the object's lifetime.
  LearnerInput(bool terminal, bool quiet);
  ~LearnerInput();
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
};

}  // namespace workbook::learn
