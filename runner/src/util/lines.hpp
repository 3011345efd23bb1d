// The lines of a text, without their line ends ("\n" or "\r\n"); a text that ends in a
// newline has no last empty line, and an empty text has none. Used for tools' output
// (profile/) and for source files (diff/).
#pragma once

#include <string>
#include <vector>

namespace workbook {

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    pos = nl + 1;
  }
  return lines;
}

}  // namespace workbook
