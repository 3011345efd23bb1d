// Lines split into code and comments (see source_split.hpp).
#include "dev/source_split.hpp"

#include <cctype>
#include <sstream>

namespace workbook {

std::vector<SourceLine> split_source(const std::string& text, bool python) {
  std::vector<SourceLine> lines;
  std::istringstream in(text);
  std::string line;
  bool in_block = false;
  while (std::getline(in, line)) {
    SourceLine out;
    char quote = 0;
    for (std::size_t j = 0; j < line.size(); ++j) {
      const char ch = line[j];
      if (in_block) {
        if (line.compare(j, 2, "*/") == 0) {
          in_block = false;
          ++j;
        } else {
          out.comment += ch;
        }
      } else if (quote) {
        out.code += ch;
        if (ch == '\\' && j + 1 < line.size()) out.code += line[++j];
        else if (ch == quote) quote = 0;
      } else if (ch == '"' || ch == '\'') {
        quote = ch;
        out.code += ch;
      } else if (python && ch == '#') {
        out.comment += line.substr(j + 1);
        break;
      } else if (!python && line.compare(j, 2, "//") == 0) {
        out.comment += line.substr(j + 2);
        break;
      } else if (!python && line.compare(j, 2, "/*") == 0) {
        in_block = true;
        ++j;
      } else {
        out.code += ch;
      }
    }
    lines.push_back(std::move(out));
  }
  return lines;
}

std::string collapse(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace workbook
