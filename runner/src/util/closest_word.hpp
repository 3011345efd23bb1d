// The word a typo was most likely meant to be, among a list of names: a command or a
// subcommand (cmd/registry.cpp, main.cpp), a lab of a module (content/catalog.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace workbook {

// The name among `names` that `word` is most likely a typo of: within two edits (a swap
// of two neighbours is one), or a name `word` begins ("ex" -> "exercises").
std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& names);

}  // namespace workbook
