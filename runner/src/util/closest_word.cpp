// Closest word (see closest_word.hpp).
#include "util/closest_word.hpp"

#include <algorithm>
#include <cstddef>

namespace workbook {

namespace {

// Edits between a and b: insertions, deletions, substitutions and swaps of neighbours.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> closest_word(const std::string& word, const std::vector<std::string>& names) {
  if (word.empty()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const auto& name : names) {
    std::size_t dist = edit_distance(word, name);
    if (word.size() >= 2 && name.rfind(word, 0) == 0) dist = std::min<std::size_t>(dist, 1);  // "ex" -> "exercises"
    if (dist < best_distance && dist < name.size()) {
      best = name;
      best_distance = dist;
    }
  }
  return best;
}

}  // namespace workbook
