// Terminal detection (see style.hpp).
#include "ui/style.hpp"

#include <unistd.h>

#include <cstdlib>

namespace workbook {

namespace {

// Colab runs a notebook's shell commands (`!workbook ...`) on a pseudo-terminal, so isatty()
// says yes there, but a notebook cell is not a terminal: plain text, no prompts.
bool in_colab() {
  const char* tag = std::getenv("COLAB_RELEASE_TAG");
  return tag && *tag;
}

}  // namespace

Style Style::for_stdout(bool no_color_flag) {
  const char* no_color = std::getenv("NO_COLOR");
  bool env_off = no_color && *no_color;
  return Style(!no_color_flag && !env_off && isatty(STDOUT_FILENO) && !in_colab());
}

bool stdout_terminal() { return isatty(STDOUT_FILENO) && !in_colab(); }

bool interactive_terminal() { return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && !in_colab(); }

}  // namespace workbook
