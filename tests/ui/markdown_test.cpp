// Tests for ui/markdown: a reading rendered for the terminal; prose rewrapped to the
// width, code never wrapped, headings marked with and without colour.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "../support/lines.hpp"
#include "ui/markdown.hpp"
#include "ui/wrap.hpp"

using namespace workbook;

using wbtest::lines_of;

namespace {

bool has_line(const std::string& text, const std::string& line) {
  for (const auto& l : lines_of(text)) {
    if (l == line) return true;
  }
  return false;
}

const char* const kStreamsReading =
    "# Module 16 · Streams\n"
    "\n"
    "Modules 8 and 15 measured the uncomfortable fact: for a vector add, the trips over PCIe cost far\n"
    "more than the kernel, so `cudaMemcpyAsync on a stream` matters here.\n"
    "\n"
    "## After this module you can\n"
    "\n"
    "- say what a stream is and what the legacy default stream does to all the others around it;\n"
    "- allocate **pinned** memory.\n"
    "\n"
    "1. an operation on it starts only once everything queued earlier on every blocking\n"
    "   stream has finished;\n"
    "\n"
    "```\n"
    "off = k * seg;  len = min(seg, n - off);          // stop once off >= n, and this comment is long\n"
    "```\n"
    "\n"
    "| N | time |\n"
    "|---|------|\n"
    "| 1 | 2 ms |\n";

}  // namespace

TEST_CASE("render_markdown wraps prose and list items to the width, never code", "[markdown]") {
  const std::string out = render_markdown(kStreamsReading, 60, Style(false));
  INFO(out);
  for (const auto& l : lines_of(out)) {
    if (l.find("off = k") != std::string::npos || l.rfind("|", 0) == 0) continue;
    CHECK(text_columns(l) <= 60);
  }
  // The paragraph's two source lines are one paragraph again, rewrapped.
  CHECK(out.find("far more than") != std::string::npos);
  // The code block: indented, on one line, whole.
  CHECK(has_line(out, "    off = k * seg;  len = min(seg, n - off);          // stop once off >= n, and this comment is long"));
  CHECK(out.find("```") == std::string::npos);
  // Inline code is kept, with its backticks, on one line.
  CHECK(out.find("`cudaMemcpyAsync on a stream`") != std::string::npos);
  // List items hang under their text.
  const auto lines = lines_of(out);
  std::size_t item = 0;
  while (item < lines.size() && lines[item].rfind("- say what", 0) != 0) ++item;
  REQUIRE(item + 1 < lines.size());
  CHECK(lines[item + 1].rfind("  ", 0) == 0);
  CHECK(lines[item + 1][2] != ' ');
  CHECK(has_line(out, "- allocate pinned memory."));  // **strong** without colour: the word, no markers
  std::size_t numbered = 0;
  while (numbered < lines.size() && lines[numbered].rfind("1. an operation", 0) != 0) ++numbered;
  REQUIRE(numbered + 1 < lines.size());
  CHECK(lines[numbered + 1].rfind("   ", 0) == 0);
  CHECK(out.find("stream has finished;") != std::string::npos);
  // Tables are laid out as the terminal's tables (ui/table.hpp): a header, columns.
  CHECK(has_line(out, "  N  time"));
  CHECK(has_line(out, "  1  2 ms"));
}

TEST_CASE("render_markdown marks headings: underlined rules without colour, bold and underline with", "[markdown]") {
  const std::string plain = render_markdown(kStreamsReading, 80, Style(false));
  CHECK(plain.find('\x1b') == std::string::npos);
  const auto lines = lines_of(plain);
  REQUIRE(lines.size() > 2);
  CHECK(lines[0] == "Module 16 · Streams");
  CHECK(lines[1] == std::string(19, '='));
  CHECK(has_line(plain, "After this module you can"));
  CHECK(has_line(plain, std::string(25, '-')));
  CHECK(plain.find("# ") == std::string::npos);
  const std::string coloured = render_markdown(kStreamsReading, 80, Style(true));
  CHECK(coloured.find("\x1b[1m\x1b[4mModule 16 · Streams") != std::string::npos);
  CHECK(coloured.find("allocate \x1b[1mpinned\x1b[0m memory") != std::string::npos);
  CHECK(plain.find("**") == std::string::npos);
  // Width 0 (a pipe): each paragraph on one line.
  CHECK(render_markdown("a b\nc d\n", 0, Style(false)) == "a b c d\n");
}

TEST_CASE("render_markdown: a pipe table fits the width, its cells whole, never a column left out", "[markdown]") {
  const std::string md =
      "| T | threads/block | shared mem/block | read cut | on a T4 |\n"
      "|---|---|---|---|---|\n"
      "| 8 | 64 | 512 B | 8x | 2 warps/block; the 16-blocks-per-SM limit still allows 32 warps, but many barriers per unit of work |\n"
      "| 32 | 1,024 | 8 KB | 32x | one block fills an SM; every barrier idles all 1,024 threads |\n";
  for (std::size_t width : {60u, 80u, 100u}) {
    INFO("width " << width);
    const std::string out = workbook::render_markdown(md, width, workbook::Style(false));
    for (const auto& l : wbtest::lines_of(out)) {
      INFO(l);
      CHECK(wbtest::columns(l) <= width);
    }
    CHECK(out.find("|---") == std::string::npos);
    for (const char* cell : {"threads/block", "512 B", "1,024", "8 KB"}) CHECK(out.find(cell) != std::string::npos);
  }
}

TEST_CASE("render_markdown: a ---: column is aligned right; escapes show the character they stand for", "[markdown]") {
  const std::string md =
      "| kernel | time |\n"
      "|---|---:|\n"
      "| a\\|b | 5 ms |\n"
      "| gemm&lt;16&gt; | 120 ms |\n";
  const std::string out = workbook::render_markdown(md, 80, workbook::Style(false));
  INFO(out);
  CHECK(out.find("a|b         5 ms\n") != std::string::npos);  // one cell, its bar shown; the time right
  CHECK(out.find("gemm<16>  120 ms\n") != std::string::npos);
  // Outside code a backslash before punctuation and the entities are read; inside, kept.
  CHECK(workbook::render_markdown("\\[x\\] &amp; &quot;y&quot; `a\\[0] &lt;`\n", 80, workbook::Style(false)) ==
        "[x] & \"y\" `a\\[0] &lt;`\n");
}

TEST_CASE("render_markdown: a block quote keeps its paragraphs apart", "[markdown]") {
  const std::string out = workbook::render_markdown("> first (2026-12-01)\n>\n> second (2026-12-02)\n>\n", 80,
                                                    workbook::Style(false));
  CHECK(out == "  | first (2026-12-01)\n  |\n  | second (2026-12-02)\n");
  // Empty lines at its ends or two in a row make no empty paragraph.
  CHECK(workbook::render_markdown(">\n> a\n>\n>\n> b |\n", 80, workbook::Style(false)) == "  | a\n  |\n  | b |\n");
}

TEST_CASE("render_markdown: code is never folded; a ```text block (output) folds lines wider than the terminal",
          "[markdown]") {
  const std::string line = "| step 1 of a longer run whose output goes past the edge of a sixty column terminal";
  const std::string code = workbook::render_markdown("```\n" + line + "\n```\n", 60, workbook::Style(false));
  CHECK(code == "    " + line + "\n");
  const std::string text = workbook::render_markdown("```text\n" + line + "\n```\n", 60, workbook::Style(false));
  INFO(text);
  CHECK(text.find("    | step 1 of a longer run whose output goes past the edge\n      of a") == 0);
  for (const auto& l : wbtest::lines_of(text)) CHECK(wbtest::columns(l) <= 60);
}
