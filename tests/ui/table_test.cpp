// Tests for ui/table: tables that fit the terminal by wrapping their flexible column at
// word boundaries, then leaving droppable columns out; never a word cut.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "../support/lines.hpp"
#include "ui/table.hpp"
#include "ui/wrap.hpp"

using namespace workbook;

using wbtest::lines_of;

namespace {

Table figures() {
  Table t{{{"figure"}, {"measured", true}, {"expected here", false, true}, {"workbook", false, false, true}}, {}, "  ", true};
  t.rows.push_back({"sum_ms", "0.532 ms", "8.33 ns to 1.2 ms, from the spec sheet's bandwidth", "T4: 0.5 to 2 ms"});
  t.rows.push_back({"count", "1000", "1000", ""});
  return t;
}

}  // namespace

TEST_CASE("render_table: a header, columns padded to their widest cell", "[table]") {
  const auto lines = lines_of(render_table(figures(), 0, Style(false)));
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].rfind("  figure  measured  expected here", 0) == 0);
  CHECK(lines[1].rfind("  sum_ms  0.532 ms  8.33 ns to 1.2 ms, from", 0) == 0);
  CHECK(lines[2].rfind("  count       1000  1000", 0) == 0);  // right-aligned figure
  CHECK(lines[2].back() != ' ');
}

TEST_CASE("render_table fits the width: the flexible column wraps, then movable ones move under the row", "[table]") {
  for (std::size_t width : {80u, 60u, 44u}) {
    INFO("width " << width);
    const std::string text = render_table(figures(), width, Style(false));
    std::string words;
    for (const auto& l : lines_of(text)) {
      CHECK(text_columns(l) <= width);
      words += l + " ";
    }
    // Every word of the wrapped cell is still there, whole.
    for (const char* w : {"8.33", "ns", "to", "1.2", "ms,", "from", "spec", "sheet's", "bandwidth"})
      CHECK(words.find(std::string(" ") + w + " ") != std::string::npos);
  }
  const auto narrow = lines_of(render_table(figures(), 44, Style(false)));
  CHECK(narrow[0].find("workbook") == std::string::npos);  // not in the header row...
  bool below = false;  // ...but under sum_ms's row, never left out
  for (const auto& l : narrow) below = below || l == "      workbook: T4: 0.5 to 2 ms";
  CHECK(below);
  CHECK(render_table(figures(), 80, Style(false)).find("workbook") != std::string::npos);
  // Colour sequences take no room; the header is bold only in colour.
  Table c{{{"a"}, {"b"}}, {{"\x1b[32mPASS\x1b[0m", "x"}}, "", true};
  const auto coloured = lines_of(render_table(c, 0, Style(true)));
  CHECK(coloured[0].find("\x1b[1m") != std::string::npos);
  CHECK(coloured[1] == "\x1b[32mPASS\x1b[0m  x");
  CHECK(lines_of(render_table(c, 0, Style(false)))[0] == "a     b");
}

TEST_CASE("render_table stacks the rows when even the moved table is too wide: no column is left out", "[table]") {
  Table t{{{"metric"}, {"baseline", true}, {"bf16", true}, {"bf16 / baseline", true, false, true}}, {}, "  ", true};
  t.rows.push_back({"tokens_per_second_median", "123456.7 tok/s", "1493827.1 tok/s", "12.1x"});
  for (std::size_t width : {100u, 80u, 60u, 30u}) {
    INFO("width " << width);
    const std::string text = render_table(t, width, Style(false));
    for (const auto& l : lines_of(text)) {
      INFO(l);
      CHECK(text_columns(l) <= width);
    }
    for (const char* cell : {"tokens_per_second_median", "123456.7 tok/s", "1493827.1 tok/s", "12.1x"})
      CHECK(text.find(cell) != std::string::npos);
  }
  const auto at60 = lines_of(render_table(t, 60, Style(false)));
  CHECK(at60.back() == "      bf16 / baseline: 12.1x");  // the ratio moved under its row
  const auto at30 = lines_of(render_table(t, 30, Style(false)));
  REQUIRE(at30.size() == 4);  // stacked: no header, the first cell, then a line per other cell
  CHECK(at30[0] == "  tokens_per_second_median");
  CHECK(at30[1] == "    baseline: 123456.7 tok/s");
  CHECK(at30[3] == "    bf16 / baseline: 12.1x");
}
