// Terminal styling: colour only on a terminal, never when NO_COLOR is set (no-color.org)
// or --no-color is given.
#pragma once

#include <string>

namespace workbook {

class Style {
 public:
  explicit Style(bool color) : color_(color) {}
  // Colour if stdout is a terminal (not a Colab notebook's pseudo-terminal: COLAB_RELEASE_TAG
  // unset), NO_COLOR is unset or empty, and `no_color_flag` is false.
  static Style for_stdout(bool no_color_flag);

  bool color() const { return color_; }
  std::string bold(const std::string& s) const { return wrap("1", s); }
  std::string dim(const std::string& s) const { return wrap("2", s); }
  std::string underline(const std::string& s) const { return wrap("4", s); }
  std::string red(const std::string& s) const { return wrap("31", s); }
  std::string green(const std::string& s) const { return wrap("32", s); }
  std::string yellow(const std::string& s) const { return wrap("33", s); }
  std::string cyan(const std::string& s) const { return wrap("36", s); }

 private:
  // Nothing styled is nothing: a table drops an empty cell (a column moved under its row
  // prints no "head:" line for it), whatever its style.
  std::string wrap(const char* code, const std::string& s) const {
    return color_ && !s.empty() ? "\x1b[" + std::string(code) + "m" + s + "\x1b[0m" : s;
  }
  bool color_;
};

// True when both stdin and stdout are terminals and this is not a Colab notebook (whose
// shell commands run on a pseudo-terminal): the only case in which we prompt.
bool interactive_terminal();

// True when stdout is a terminal and this is not a Colab notebook (for the pager).
bool stdout_terminal();

}  // namespace workbook
