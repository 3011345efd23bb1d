// A source file's lines split into code and comments, for dev check's rules that read
// starters (dev/starter_leaks.hpp, dev/exercised.hpp).
#pragma once

#include <string>
#include <vector>

namespace workbook {

struct SourceLine {
  std::string code;     // the line without its comments (string contents kept)
  std::string comment;  // the comment text on the line
};

// Splits each line into code and comment: // and /* */ for C++ and CUDA, # for Python,
// outside string and character literals.
std::vector<SourceLine> split_source(const std::string& text, bool python);

// Runs of whitespace as one space, none at the ends.
std::string collapse(const std::string& s);

}  // namespace workbook
