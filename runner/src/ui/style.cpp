// Terminal detection (see style.hpp).
#include "ui/style.hpp"

#include <unistd.h>

#include <cstdlib>

namespace workbook {

Style Style::for_stdout(bool no_color_flag) {
  const char* no_color = std::getenv("NO_COLOR");
  bool env_off = no_color && *no_color;
  return Style(!no_color_flag && !env_off && isatty(STDOUT_FILENO));
}

bool interactive_terminal() { return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO); }

}  // namespace workbook
