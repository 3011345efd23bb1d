// Reading answers from the learner on a terminal.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace workbook {

// Prints `question` and reads one line; nullopt at end of input (Ctrl-D).
std::optional<std::string> ask_line(const std::string& question);

// Asks until the answer is one of `choices` (or its 1-based number); nullopt at end of
// input or when the learner enters an empty line and `allow_skip` is true.
std::optional<std::string> ask_choice(const std::string& question, const std::vector<std::string>& choices,
                                      bool allow_skip);

// Asks for a yes/no confirmation; false at end of input.
bool confirm(const std::string& question);

}  // namespace workbook
