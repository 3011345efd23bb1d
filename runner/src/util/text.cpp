// Text helpers (see text.hpp).
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "util/quantity.hpp"

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

std::optional<double> parse_learner_number(const std::string& text) {
  auto q = parse_quantity(text);  // the one grammar of util/quantity.hpp
  if (!q) return std::nullopt;
  return q->value;
}

std::optional<std::string> match_choice(const std::string& text, const std::vector<std::string>& choices) {
  std::string t = trim(text);
  for (const auto& c : choices) {
    if (lower(c) == lower(t)) return c;
  }
  if (!t.empty() && std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); }) && t.size() < 4) {
    std::size_t index = static_cast<std::size_t>(std::stoi(t));
    if (index >= 1 && index <= choices.size()) return choices[index - 1];
  }
  return std::nullopt;
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
