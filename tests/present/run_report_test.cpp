// present/run_report: the examiner's points fold to the terminal, each under its mark.
#include <catch2/catch.hpp>

#include "present/run_report.hpp"
#include "ui/wrap.hpp"
#include "util/lines.hpp"

#include "../support/scoped_env.hpp"

using namespace workbook;

TEST_CASE("the examiner's points fold to the terminal's width", "[run_report]") {
  const wbtest::ScopedEnv columns("COLUMNS", std::string("50"));
  const std::string feedback =
      "✓ Names the limiting resource, latency.\n"
      "✗ Cite a measured figure with its unit: this run measured sum_ms = 3e-05 ms, count = 10.";
  const std::vector<std::string> lines = split_lines(render_feedback(feedback, Style(false)));
  REQUIRE(lines.size() >= 4);  // the heading, the first point, the second over two lines or more
  for (const auto& line : lines) {
    INFO(line);
    CHECK(text_columns(line) <= 50);
  }
  CHECK(lines[1] == "  ✓ Names the limiting resource, latency.");
  CHECK(lines[2].rfind("  ✗ Cite a measured figure", 0) == 0);
  CHECK(lines[3].rfind("    ", 0) == 0);  // a continuation hangs under the point's text
}
