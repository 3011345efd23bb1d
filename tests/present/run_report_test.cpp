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

TEST_CASE("in colour, a figure without samples gets no empty samples line under it", "[run_report]") {
  const wbtest::ScopedEnv columns("COLUMNS", std::string("60"));  // too narrow: samples move under each row
  RunReport r;
  r.ran = true;
  r.grade.verdict = Verdict::pass;
  MetricGrade timed;
  timed.name = "sum_ms";
  timed.unit = "ms";
  timed.value = 0.0003;
  timed.lo = 8.33e-6;
  timed.hi = 1.2;
  timed.status = RangeStatus::in_range;
  timed.reference = "Tesla T4: 1e-05 to 1 ms, the workbook's own figure for this GPU";
  timed.stats = ReportedMetric{"sum_ms", "ms", 0.0003, 0.0003, 0.0008, 1.5, 5};
  MetricGrade counted;
  counted.name = "count";
  counted.unit = "count";
  counted.value = 1000;
  counted.lo = counted.hi = 1000;
  counted.status = RangeStatus::in_range;
  r.grade.metrics = {timed, counted};
  std::vector<std::string> plain;
  for (const auto& line : split_lines(render_report(r, Style(true)))) {
    std::string text;  // without its escape sequences
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\x1b') i = line.find('m', i);
      else text += line[i];
    }
    plain.push_back(text);
  }
  std::string shown;
  for (const auto& line : plain) shown += line + "\n";
  INFO(shown);
  int sample_lines = 0;
  for (const auto& line : plain) {
    INFO(line);
    CHECK(text_columns(line) <= 60);
    if (line.find("samples:") == std::string::npos) continue;
    if (line.find("how many timings") != std::string::npos) continue;  // the legend
    ++sample_lines;
    CHECK(line.find("n=5") != std::string::npos);  // only the timed figure has one
  }
  CHECK(sample_lines == 1);
}
