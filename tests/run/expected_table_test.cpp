// `show`'s expected figures (run/expected_table.hpp) are the bands a run's grade compares
// with: one evaluation (grade/grade.hpp set_band), the same ends and basis.
#include <catch2/catch.hpp>

#include "grade/grade.hpp"
#include "run/expected_table.hpp"

#include "../support/grade_lookup.hpp"

using namespace workbook;
using wbtest::grade_run;

namespace {

MetricSpec ranged(const std::string& name, const std::string& unit, const std::string& min, const std::string& max,
                  const std::string& expr = "") {
  MetricSpec m;
  m.name = name;
  m.unit = unit;
  m.expr = expr;
  m.expected = ExpectedRange{min, max, "", 0, "", 0, FailSide::both, ""};
  return m;
}

// A copy kernel: its time from the bytes it moves, its bandwidth derived, a figure on no range.
LabSpec copy_lab() {
  LabSpec lab;
  lab.id = "module06/copy";
  lab.params = {{"N", 1 << 20, 1024, "elements", 0}};
  lab.vars = {{"bytes", "8 * N", 0}};
  lab.metrics = {ranged("kernel_ms", "ms", "bytes / (dram_gbps * 1e6)", "10 * bytes / (dram_gbps * 1e6)")};
  MetricSpec blocks;
  blocks.name = "blocks";
  lab.metrics.push_back(blocks);
  lab.derived = {ranged("gbps", "GB/s", "0.1 * dram_gbps", "dram_gbps", "bytes / kernel_ms / 1e6"),
                 ranged("of_peak", "%", "kernel_ms", "", "100 * gbps / dram_gbps")};
  lab.metrics[0].reference = Reference{"t4", 0.1, 0.2, std::nullopt, "workbook, module 6", true};
  return lab;
}

}  // namespace

TEST_CASE("show's expected figures are the bands the grade of a run at the defaults compares with", "[expected]") {
  const LabSpec lab = copy_lab();
  const Figures device{{"dram_gbps", 300}};
  const Figures params{{"N", 1 << 20}};
  LabResults results;
  results.metrics = {{"kernel_ms", "ms", 0.05, std::nullopt, std::nullopt, std::nullopt, std::nullopt}};
  results.ended = results.end_pass = true;
  for (const GradeBasis& basis : {GradeBasis{}, GradeBasis{"t4", nullptr, "", true, "", {}, {}}}) {
    const Grade g = grade_run(lab, results, {false, 0, 0}, device, "", params, {}, "Tesla T4", basis);
    const std::vector<MetricGrade> rows = expected_rows(lab, device, "Tesla T4", basis);
    REQUIRE(rows.size() == 4);
    for (std::size_t i = 0; i < 3; ++i) {
      INFO(rows[i].name << " on basis " << to_string(rows[i].basis));
      CHECK(rows[i].name == g.metrics[i].name);
      CHECK(rows[i].lo == g.metrics[i].lo);
      CHECK(rows[i].hi == g.metrics[i].hi);
      CHECK(rows[i].basis == g.metrics[i].basis);
      CHECK(rows[i].reference == g.metrics[i].reference);
      CHECK_FALSE(rows[i].value.has_value());
    }
    CHECK_FALSE(rows[1].lo.has_value());  // no range declared
    CHECK(rows[3].note == kAfterTheRun);  // its minimum is a figure the run measures
  }
  // On the workbook's reference GPU the workbook's figure, widened by 20 %, is the band.
  const auto on_t4 = expected_rows(lab, device, "Tesla T4", GradeBasis{"t4", nullptr, "", true, "", {}, {}});
  CHECK(on_t4[0].basis == RangeBasis::workbook);
  CHECK(*on_t4[0].hi == Approx(0.2 * 1.2));
  CHECK(expected_rows(lab, {}, "Tesla T4")[0].note == kNoDeviceFigures);
}
