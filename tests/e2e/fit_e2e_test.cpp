// End-to-end tests that a run's text fits the terminal: at COLUMNS=60 and 80 every line
// of a run report and of a sweep (its table, notes and chart) fits, with words whole; the
// figures table has its own samples column; the sweep's SVG marks the graded value.
#include "../support/lines.hpp"
#include "e2e_support.hpp"

#include "../support/text_checks.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
namespace fs = std::filesystem;
using wbtest::columns;
using wbtest::contains;
using wbtest::lines_of;

namespace {

// Every line of our own text within `width` (the lab's own output is left out: it sits
// between "Running" and the first blank line after it).
void check_fits(const std::string& out, std::size_t width) {
  bool lab_output = false;
  for (const auto& l : lines_of(out)) {
    if (l.rfind("Running (time limit", 0) == 0) lab_output = true;
    else if (l.empty()) lab_output = false;
    if (lab_output || l.rfind("Source:", 0) == 0 || l.rfind("Plot:", 0) == 0) continue;  // paths are one word
    INFO(l);
    CHECK(columns(l) <= width);
  }
}

}  // namespace

TEST_CASE("e2e: a run report fits COLUMNS, with the samples in their own column", "[e2e]") {
  FixtureCourse c;
  for (std::size_t width : {60u, 80u}) {
    CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict"}, {{"COLUMNS", std::to_string(width)}});
    SHOW(r);
    REQUIRE(r.exit_code == 0);
    check_fits(r.out, width);
    CHECK(contains(r.out, "figure"));
    CHECK(contains(r.out, "expected here"));
    CHECK(contains(r.out, "8.33 ns to 1.2 ms"));
  }
  CommandResult wide = c.run({"run", "module01/pass_lab", "--no-predict"}, {{"COLUMNS", "120"}});
  CHECK(contains(wide.out, "samples"));
  CHECK(contains(wide.out, "n=5"));
  CHECK(contains(wide.out, "±: their spread"));
  CHECK_FALSE(contains(wide.out, "(n=5"));  // no longer glued to the workbook's figure
}

TEST_CASE("e2e: a sweep's table and chart fit COLUMNS, and its SVG marks the graded value", "[e2e][sweep]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--sweep", "N=10,100,1000", "--no-predict"}, {{"COLUMNS", "60"}});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  check_fits(r.out, 60);
  CHECK(contains(r.out, "graded: N=1000"));  // the terminal chart's mark
  const std::size_t plot = r.out.find("Plot: ");
  REQUIRE(plot != std::string::npos);
  const std::string svg_path = r.out.substr(plot + 6, r.out.find('\n', plot) - plot - 6);
  const std::string svg = e2e::read_file(svg_path);
  CHECK(contains(svg, "<line class=\"mark\" data-x=\"1000\""));
  CHECK(contains(svg, ">graded: N=1000</text>"));
}
