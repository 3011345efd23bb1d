// The lines of a text (without their '\n', nor a terminal's '\r'), for tests that check
// printed output line by line.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace wbtest {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

// The terminal columns of a line: its UTF-8 code points.
inline std::size_t columns(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace wbtest
