// Tests for ui/wrap: long texts wrapped at word boundaries, never mid-word.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "../support/lines.hpp"
#include "ui/wrap.hpp"

using workbook::wrap_text;

using wbtest::columns;
using wbtest::lines_of;

TEST_CASE("wrap_text breaks at spaces, within the width, never inside a word", "[wrap]") {
  const std::string text =
      "The tiled kernel reads each element of A and B once per tile instead of once per output, "
      "so DRAM traffic falls by the tile width T; at T = 16 that is 16x fewer reads.";
  const std::string wrapped = wrap_text(text, 40, "  ", "  ");
  auto lines = lines_of(wrapped);
  REQUIRE(lines.size() > 3);
  std::string rejoined;
  for (const auto& l : lines) {
    INFO(l);
    CHECK(columns(l) <= 40);
    CHECK(l.rfind("  ", 0) == 0);
    CHECK(l.back() != ' ');
    rejoined += (rejoined.empty() ? "" : " ") + l.substr(2);
  }
  CHECK(rejoined == text);  // every word kept whole, in order
}

TEST_CASE("wrap_text keeps line breaks, hangs indents, and counts UTF-8 as one column", "[wrap]") {
  CHECK(wrap_text("one two three", 0, "> ", "  ") == "> one two three");  // 0: no wrapping
  CHECK(wrap_text("short", 40) == "short");
  CHECK(wrap_text("aaa bbb ccc", 7, "1. ", "   ") == "1. aaa\n   bbb\n   ccc");
  CHECK(wrap_text("first line\nsecond line", 8) == "first\nline\nsecond\nline");
  // A word longer than the width gets a line of its own, unbroken.
  CHECK(wrap_text("see https://example.org/a/very/long/path now", 12) == "see\nhttps://example.org/a/very/long/path\nnow");
  // Leading white space of a line (code in an answer) is kept on its continuation lines.
  CHECK(wrap_text("    x = a + b", 9) == "    x = a\n    + b");
  // × and – are one column each: "3 × 4 – 5" is 9 columns.
  CHECK(wrap_text("3 × 4 – 5", 9) == "3 × 4 – 5");
  CHECK(wrap_text("", 10, "  ") == "  ");
  CHECK(wrap_text("a\n\nb", 10, "  ", "  ") == "  a\n\n  b");
}

TEST_CASE("text_width is 0 (no wrapping) when piped, unless COLUMNS is set", "[wrap]") {
  // ctest captures stdout, so it is not a terminal; run by hand on one, there is nothing to check.
  if (::isatty(STDOUT_FILENO)) return;
  const char* saved = std::getenv("COLUMNS");
  std::string keep = saved ? saved : "";
  ::unsetenv("COLUMNS");
  CHECK(workbook::text_width() == 0);
  ::setenv("COLUMNS", "60", 1);
  CHECK(workbook::text_width() == 60);
  ::setenv("COLUMNS", "wide", 1);
  CHECK(workbook::text_width() == 0);
  if (saved) ::setenv("COLUMNS", keep.c_str(), 1);
  else ::unsetenv("COLUMNS");
}

TEST_CASE("text_columns does not count colour sequences, so coloured text wraps and pads right", "[wrap]") {
  const std::string bold = "\x1b[1mVerdict:\x1b[0m";
  CHECK(workbook::text_columns(bold) == 8);
  CHECK(workbook::text_columns("µs") == 2);
  CHECK(workbook::pad_to(bold, 10) == bold + "  ");
  CHECK(workbook::pad_to("7", 3, true) == "  7");
  CHECK(workbook::pad_to("toolong", 3) == "toolong");  // never cut
  // 8 visible columns + " pass": 13 columns, fits 13 although the bytes are more.
  CHECK(wrap_text(bold + " pass", 13) == bold + " pass");
}

TEST_CASE("wrap_text keeps a figure on the line of its unit", "[wrap]") {
  // Without the rule, "30" would end the first line and "ms" begin the second.
  CHECK(wrap_text("the copy takes about 30 ms here", 23) == "the copy takes about\n30 ms here");
  CHECK(wrap_text("a speed-up of 12.1 x, then 4.0 GB/s.", 16) == "a speed-up of\n12.1 x, then\n4.0 GB/s.");
  // A word that is not a unit still breaks after a figure.
  CHECK(wrap_text("module 14 labs", 10) == "module 14\nlabs");
}

TEST_CASE("wrap_columns hangs a second column, indents an example's continuation, leaves prose at 0", "[wrap]") {
  using workbook::wrap_columns;
  CHECK(wrap_columns("  next   the one next thing to do", 24) == "  next   the one next\n         thing to do");
  CHECK(wrap_columns("  workbook run lab -p a=1 -p b=2", 24) == "  workbook run lab -p\n      a=1 -p b=2");
  CHECK(wrap_columns("Exit codes: 0 done, 2 a pattern matched nothing", 24) ==
        "Exit codes: 0 done, 2 a\npattern matched nothing");
  CHECK(wrap_columns("fits as it is", 24) == "fits as it is");
}
