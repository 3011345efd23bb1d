// What the tests of content validation check about a workbook::Problems: its text, and
// whether one problem holds every given piece.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>

#include "util/yaml_reader.hpp"

namespace wbtest {

// Every problem on its own line, for INFO.
inline std::string problems_text(const workbook::Problems& p) {
  std::string s;
  for (const auto& l : p.list()) s += l + "\n";
  return s;
}

// True when some problem contains every one of the given substrings.
inline bool has_problem(const workbook::Problems& p, std::initializer_list<std::string> parts) {
  return std::any_of(p.list().begin(), p.list().end(), [&](const std::string& line) {
    return std::all_of(parts.begin(), parts.end(), [&](const std::string& s) { return line.find(s) != std::string::npos; });
  });
}

}  // namespace wbtest
