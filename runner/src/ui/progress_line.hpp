// Progress of long work (dev check compiling every lab, minutes to tens of minutes): on a
// terminal one line redrawn in place ("[ 12/180] compiled module14/tiled_gemm (solution)"),
// cut to the width; elsewhere (a log, setup.sh's output in a file) a line now and then,
// at most one every `every_s` seconds, and the last one, so a reader sees it is alive.
// Pure: the caller prints what update() returns (the decisions are here, not in printers).
#pragma once

#include <cstddef>
#include <string>

namespace workbook {

class ProgressLine {
 public:
  ProgressLine(bool terminal, std::size_t width, double every_s = 30);
  // The text to print now for `done` of `total` (`what` just finished) at `now_s` seconds
  // of a steady clock; "" when nothing is due.
  std::string update(std::size_t done, std::size_t total, const std::string& what, double now_s);
  // What ends the progress before other output: on a terminal, the redrawn line cleared
  // ("" when none is showing); elsewhere "".
  std::string finish();

 private:
  bool terminal_;
  std::size_t width_;
  double every_s_;
  double last_s_ = -1;
  bool showing_ = false;
};

}  // namespace workbook
