// Small text helpers shared by the commands: trimming, lower case, formatting numbers,
// matching choices, NAME=VALUE pairs. The learner's numbers are read by util/quantity.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace workbook {

// `s` without its leading and trailing blanks (spaces, tabs, line ends, \v, \f).
std::string trim(std::string_view s);

// `s` with ASCII letters in lower case (other bytes, UTF-8 included, unchanged).
std::string lower(std::string s);

// The first / last line of `text` holding more than blanks, trimmed; "" if none.
std::string first_nonblank_line(const std::string& text);
std::string last_nonblank_line(const std::string& text);

// A number as people read it in tables and answers: integers without a decimal point,
// else 4 significant digits ("1056768", "2.977", "1.718e+10").
std::string format_number(double v);

// How a choice was named. At a prompt that asks for "your choice (number)" a number is the
// option's position, whatever the options' texts are; in a --predict flag the exact text of
// an option wins ("2" among options "2", "4", "8" is the option "2") and "#N" is always
// option N. A number names a position only when it is 1 to the number of options.
enum class ChoiceInput { prompt, flag };

// The 0-based index of the option `text` names (case-insensitive exact text, a 1-based
// number, or "#N"), read as `how` says; nullopt when it names none.
std::optional<std::size_t> choice_index(const std::string& text, const std::vector<std::string>& choices,
                                        ChoiceInput how);

// The option the text names as a --predict flag would read it (choice_index, ChoiceInput::flag).
std::optional<std::string> match_choice(const std::string& text, const std::vector<std::string>& choices);

// An answer recorded as an option's text that is also, as a number, the position of another
// option ("2" among "2", "4", "8": option 1's text, option 2's number): the index of that
// other option, which a learner typing the number at an older prompt may have meant.
std::optional<std::size_t> other_reading_of_choice(const std::string& answer, const std::vector<std::string>& choices);

// True when `word` occurs in `text` as a whole identifier: not inside a longer name
// ("dram" is named in "dram / 2", not in "dram_ratio").
bool names_word(const std::string& text, const std::string& word);

// Splits "NAME=VALUE"; nullopt if there is no '=' or the name is empty.
std::optional<std::pair<std::string, std::string>> split_assignment(const std::string& text);

}  // namespace workbook
