// The word a typo was most likely meant to be, among a command's names (registry.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace workbook {

// The name among `names` that `word` is most likely a typo of, as closest_command
// (registry.hpp) finds a command: within two edits, or a name `word` begins.
std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& names);

}  // namespace workbook
