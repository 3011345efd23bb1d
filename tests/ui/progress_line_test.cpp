// Tests for ui/progress_line: long work shows progress, redrawn on a terminal, a line now
// and then elsewhere.
#include <catch2/catch.hpp>

#include "ui/progress_line.hpp"
#include "ui/wrap.hpp"

using workbook::ProgressLine;

TEST_CASE("progress line: on a terminal each row redraws one line within the width", "[progress-line]") {
  ProgressLine p(true, 40);
  CHECK(p.update(1, 180, "compiled module14/tiled_gemm (solution)", 0.0) == "\r\x1b[K[  1/180] compiled module14/tiled_gemm ");  // 39 columns
  const std::string second = p.update(2, 180, "compiled module01/vecadd (starter)", 0.1);
  CHECK(second.rfind("\r\x1b[K[  2/180] compiled module01/vecadd", 0) == 0);
  CHECK(workbook::text_columns(second.substr(4)) < 40);
  CHECK(p.finish() == "\r\x1b[K");  // cleared before the rows that follow
  CHECK(p.finish().empty());
}

TEST_CASE("progress line: elsewhere a line now and then, and the last one", "[progress-line]") {
  ProgressLine p(false, 80, 30);
  CHECK(p.update(1, 10, "compiled a", 0) == "[ 1/10] compiled a\n");
  CHECK(p.update(2, 10, "compiled b", 10).empty());  // within 30 s of the last line
  CHECK(p.update(3, 10, "compiled c", 31) == "[ 3/10] compiled c\n");
  CHECK(p.update(10, 10, "compiled j", 32) == "[10/10] compiled j\n");  // the last always
  CHECK(p.finish().empty());
}
