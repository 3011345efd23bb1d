// Text helpers (see text.hpp).
#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace workbook {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::optional<double> parse_learner_number(const std::string& text) {
  std::string s = trim(text);
  // Drop thousands separators: commas, and spaces between digits.
  std::string compact;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool between_digits = i > 0 && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i - 1])) &&
                          std::isdigit(static_cast<unsigned char>(s[i + 1]));
    if ((c == ',' || c == ' ' || c == '_') && between_digits) continue;
    compact += c;
  }
  if (!compact.empty() && compact[0] == '+') compact.erase(0, 1);
  double value = 0;
  auto [end, ec] = std::from_chars(compact.data(), compact.data() + compact.size(), value);
  if (ec != std::errc() || !std::isfinite(value)) return std::nullopt;
  std::string rest = trim(compact.substr(static_cast<std::size_t>(end - compact.data())));
  // What may follow: nothing, a multiplication sign, a percent sign, or a unit word.
  if (rest.empty() || rest == "x" || rest == "X" || rest == "\xC3\x97" || rest == "%") return value;
  bool word = std::all_of(rest.begin(), rest.end(), [](unsigned char c) {
    return std::isalpha(c) || c == '/' || c == '^' || std::isdigit(c) || c == ' ';
  }) && std::isalpha(static_cast<unsigned char>(rest[0]));
  if (word) return value;
  return std::nullopt;
}

std::optional<std::string> match_choice(const std::string& text, const std::vector<std::string>& choices) {
  std::string t = trim(text);
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
  };
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

}  // namespace workbook
