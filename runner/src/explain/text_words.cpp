// Resource words in a learner's text (see text_words.hpp).
#include "explain/text_words.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

namespace workbook {

namespace {

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '\''; }

// Whether the clause before `pos` ends in a negation within its last four words.
bool negated_before(const std::string& normal, std::size_t pos) {
  static const std::set<std::string> negations = {"not", "no", "never", "nor", "isn't", "isnt", "aren't", "wasn't",
                                                  "without", "rather", "instead", "neither", "hardly"};
  static const std::set<std::string> clause_breaks = {"but", "while", "whereas", "so", "because", "yet"};
  std::size_t end = pos;
  for (int words = 0; words < 4 && end > 0; ++words) {
    std::size_t e = end;
    while (e > 0 && normal[e - 1] == ' ') --e;
    if (e == 0 || std::string(",.;:!?()").find(normal[e - 1]) != std::string::npos) return false;
    std::size_t b = e;
    while (b > 0 && word_char(normal[b - 1])) --b;
    if (b == e) return false;  // a symbol: the clause ends here
    const std::string w = normal.substr(b, e - b);
    if (clause_breaks.count(w)) return false;
    if (negations.count(w)) return true;
    end = b;
  }
  return false;
}

}  // namespace

std::string normal_text(const std::string& text) {
  std::string out;
  for (char c : text) {
    char d = (c == '-' || c == '_' || c == '\n' || c == '\t') ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (d == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += d;
  }
  return out;
}

std::vector<WordHit> find_words(const std::string& normal, const std::vector<std::string>& words) {
  std::vector<std::pair<std::size_t, WordHit>> hits;
  for (const auto& w : words) {
    if (w.empty()) continue;
    for (std::size_t pos = normal.find(w); pos != std::string::npos; pos = normal.find(w, pos + 1)) {
      std::size_t end = pos + w.size();
      for (const char* plural : {"s", "es"}) {  // "launches", "caches"
        const std::size_t k = std::char_traits<char>::length(plural);
        if (normal.compare(end, k, plural) == 0 && (end + k == normal.size() || !word_char(normal[end + k]))) {
          end += k;
          break;
        }
      }
      const bool starts = pos == 0 || !word_char(normal[pos - 1]) || !word_char(w.front());
      const bool ends = end == normal.size() || !word_char(normal[end]) || !word_char(w.back());
      if (starts && ends) hits.push_back({pos, {w, negated_before(normal, pos)}});
    }
  }
  std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<WordHit> out;
  for (auto& h : hits) out.push_back(h.second);
  return out;
}

const WordHit* first_claim(const std::vector<WordHit>& hits) {
  for (const auto& h : hits) {
    if (!h.negated) return &h;
  }
  return nullptr;
}

}  // namespace workbook
