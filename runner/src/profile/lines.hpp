// Splitting a tool's output into lines (util/lines.hpp) and CSV fields.
#pragma once

#include <string>
#include <vector>

#include "util/lines.hpp"  // split_lines

namespace workbook {

// One CSV record: quoted fields ("" is a quote inside one), separated by commas.
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> f;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cur += '"', ++i;
      else if (c == '"') quoted = false;
      else cur += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      f.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  f.push_back(cur);
  return f;
}

}  // namespace workbook
