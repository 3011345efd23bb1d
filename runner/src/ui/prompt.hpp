// Reading answers from the learner on a terminal.
#pragma once

#include <signal.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace workbook {

// A question as ask_line shows it (pure): wrapped at word boundaries so that it and the
// space after it fit `width` columns (0: as it is), continuation lines indented two.
std::string question_text(std::string_view question, std::size_t width);

// A choice question as ask_choice shows it (pure): the question, then "  1) choice" a line
// each, all wrapped to `width`; ends in a newline.
std::string choice_text(std::string_view question, const std::vector<std::string>& choices, std::size_t width);

// Prints `question` (wrapped to the terminal) and reads one line; nullopt at end of input (Ctrl-D).
std::optional<std::string> ask_line(const std::string& question);

// Asks until the answer names one of `choices` and returns which, and what was typed: a number is
// the option's position (the prompt asks for one), even where options are numbers
// themselves; an option's exact text is taken too. nullopt at end of input or when the
// learner enters an empty line and `allow_skip` is true.
struct ChoiceAnswer {
  std::size_t index = 0;  // 0-based
  std::string typed;      // what the learner typed, trimmed
};
std::optional<ChoiceAnswer> ask_choice(const std::string& question, const std::vector<std::string>& choices,
                                      bool allow_skip);

// Asks for a yes/no confirmation; false at end of input.
bool confirm(const std::string& question);

// While it lives, Ctrl-C (SIGINT) ends the learner's input instead of the runner, and is
// remembered: a read of the terminal already blocked returns (EINTR: no SA_RESTART), and
// stdin is pointed at /dev/null, so a read that had not begun sees end of input instead of
// waiting for a line that never comes (stdin stays an open descriptor: a later open()
// cannot take fd 0). A SIGINT the runner ignores (nohup, a background job) stays ignored.
// Each restores the handler it found, so one may live inside another.
class CtrlCEndsInput {
 public:
  CtrlCEndsInput();
  ~CtrlCEndsInput();
  CtrlCEndsInput(const CtrlCEndsInput&) = delete;
  CtrlCEndsInput& operator=(const CtrlCEndsInput&) = delete;
  bool fired() const;

 private:
  struct sigaction before_ {};
  bool caught_ = false;
};

}  // namespace workbook
