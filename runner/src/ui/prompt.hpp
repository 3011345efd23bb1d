// Reading answers from the learner on a terminal.
#pragma once

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

// For a SIGINT handler (async-signal-safe): points stdin at /dev/null, so a read that
// had not begun when Ctrl-C came sees end of input instead of blocking; a read already
// blocked returns EINTR as before. Without it, a signal between the handler's flag check
// and read() leaves the session waiting for a line that never comes. stdin stays an open
// descriptor, so a later open() cannot take fd 0.
void end_stdin_reads() noexcept;

}  // namespace workbook
