// Substring checks on printed text and lists of lines, for the tests' CHECKs.
#pragma once

#include <string>
#include <vector>

namespace wbtest {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// True when some element of `list` contains `part`.
inline bool any_contains(const std::vector<std::string>& list, const std::string& part) {
  for (const auto& s : list) {
    if (contains(s, part)) return true;
  }
  return false;
}

// The words with one space between, to check a command line as one text.
inline std::string join_words(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

// U+FFFD, what the runner shows in place of bytes that are not UTF-8.
inline const std::string kFFFD = "\xEF\xBF\xBD";

}  // namespace wbtest
