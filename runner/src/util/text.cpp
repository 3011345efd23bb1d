// Text helpers (see text.hpp).
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace workbook {

std::string trim(std::string_view s) {
  constexpr std::string_view blanks = " \t\r\n\v\f";
  auto b = s.find_first_not_of(blanks);
  auto e = s.find_last_not_of(blanks);
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string first_nonblank_line(const std::string& text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = trim(text.substr(start, end - start));
    if (!line.empty()) return line;
    start = end + 1;
  }
  return {};
}

std::string last_nonblank_line(const std::string& text) {
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t start = text.rfind('\n', end - 1);
    start = start == std::string::npos ? 0 : start + 1;
    std::string line = trim(text.substr(start, end - start));
    if (!line.empty()) return line;
    end = start == 0 ? 0 : start - 1;
  }
  return {};
}

namespace {

// The 0-based index of the option whose 1-based number `t` is ("3", or "#3" when `hash`).
std::optional<std::size_t> choice_position(const std::string& t, std::size_t count, bool hash) {
  std::string digits = t;
  if (hash) {
    if (digits.empty() || digits[0] != '#') return std::nullopt;
    digits = trim(digits.substr(1));
  }
  if (digits.empty() || digits.size() > 3 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return std::nullopt;
  }
  const auto number = static_cast<std::size_t>(std::stoi(digits));
  if (number < 1 || number > count) return std::nullopt;
  return number - 1;
}

std::optional<std::size_t> choice_by_text(const std::string& t, const std::vector<std::string>& choices) {
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (lower(choices[i]) == lower(t)) return i;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::size_t> choice_index(const std::string& text, const std::vector<std::string>& choices,
                                        ChoiceInput how) {
  const std::string t = trim(text);
  if (auto hashed = choice_position(t, choices.size(), true)) return hashed;
  if (how == ChoiceInput::prompt) {
    if (auto at = choice_position(t, choices.size(), false)) return at;
    return choice_by_text(t, choices);
  }
  if (auto named = choice_by_text(t, choices)) return named;
  return choice_position(t, choices.size(), false);
}

std::optional<std::string> match_choice(const std::string& text, const std::vector<std::string>& choices) {
  auto i = choice_index(text, choices, ChoiceInput::flag);
  if (!i) return std::nullopt;
  return choices[*i];
}

std::optional<std::size_t> other_reading_of_choice(const std::string& answer, const std::vector<std::string>& choices) {
  const auto named = choice_by_text(trim(answer), choices);
  const auto at = choice_position(trim(answer), choices.size(), false);
  if (!named || !at || *named == *at) return std::nullopt;
  return at;
}

std::optional<std::pair<std::string, std::string>> split_assignment(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos) return std::nullopt;
  std::string name = trim(text.substr(0, eq));
  if (name.empty()) return std::nullopt;
  return std::make_pair(name, trim(text.substr(eq + 1)));
}

std::string format_number(double v) {
  if (std::isfinite(v) && std::fabs(v) < 1e15 && v == std::round(v)) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.4g}", v);
}

bool names_word(const std::string& text, const std::string& word) {
  if (word.empty()) return false;
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !is_word(text[at - 1])) && (end == text.size() || !is_word(text[end]))) return true;
  }
  return false;
}

}  // namespace workbook
