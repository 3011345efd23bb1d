// Tests for grade/grade: one-sided bands (ExpectedRange::fails: a figure outside on the
// side that does not fail is a warning, never out of range) and measured bands converted
// to the learner's device figures (GradeBasis::measured_device, e.g. after calibrating).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "grade/grade.hpp"

#include "../support/grade_lookup.hpp"

using namespace workbook;
using wbtest::grade_run;
using wbtest::graded_metric;

namespace {

// A vector add: kernel_us is reported, pct_of_bandwidth = 100 * achieved / dram_gbps.
LabSpec vecadd_lab(FailSide time_side, FailSide pct_side) {
  LabSpec lab;
  lab.id = "module04/vecadd_roofline";
  lab.name = "vecadd_roofline";
  lab.params = {{"N", 1000, 10, "", 0}};
  lab.checks = {"ok"};
  MetricSpec us;
  us.name = "kernel_us";
  us.unit = "us";
  us.expected = ExpectedRange{"40", "80", "", 0, "too slow: strided?", 0, time_side, ""};
  lab.metrics = {us};
  MetricSpec pct;
  pct.name = "pct_of_bandwidth";
  pct.unit = "%";
  pct.expr = "100 * (201.3e3 / kernel_us) / dram_gbps";  // 201.3 MB over kernel_us, in GB/s
  pct.expected = ExpectedRange{"50", "95", "", 0, "far below: uncoalesced", 0, pct_side, "above: calibrate?"};
  lab.derived = {pct};
  return lab;
}

LabResults run_with(double kernel_us) {
  LabResults r;
  r.metrics.push_back({"kernel_us", "us", kernel_us, std::nullopt, std::nullopt, std::nullopt, std::nullopt});
  r.checks.push_back({"ok", true, std::nullopt, std::nullopt, "", false});
  r.ended = true;
  r.end_pass = true;
  return r;
}

const Figures kSheet{{"dram_gbps", 4800}};
const Figures kN1000{{"N", 1000}};

}  // namespace

TEST_CASE("a time below its band fails only when the band fails on both sides", "[grade][sides]") {
  // 30 us is below 40 .. 80: faster than the model allows.
  Grade both = grade_run(vecadd_lab(FailSide::both, FailSide::both), run_with(30), {false, 0, 0}, kSheet, "", kN1000, {}, "T4");
  CHECK(graded_metric(both, "kernel_us").status == RangeStatus::below);
  CHECK(both.verdict == Verdict::out_of_range);

  Grade one = grade_run(vecadd_lab(FailSide::above, FailSide::both), run_with(30), {false, 0, 0}, kSheet, "", kN1000, {}, "T4");
  const MetricGrade& us = graded_metric(one, "kernel_us");
  CHECK(us.status == RangeStatus::below_warning);
  CHECK(us.note.find("does not fail") != std::string::npos);  // the generic warning, not the slow-side hint
  CHECK(us.note.find("strided") == std::string::npos);
  CHECK(outside_warning(us));
  CHECK_FALSE(outside_range(us));
  // 30 us puts pct at 139.8 %: above its band, which fails on both sides.
  CHECK(graded_metric(one, "pct_of_bandwidth").status == RangeStatus::above);
  CHECK(one.verdict == Verdict::out_of_range);

  Grade pass = grade_run(vecadd_lab(FailSide::above, FailSide::below), run_with(30), {false, 0, 0}, kSheet, "", kN1000, {}, "T4");
  CHECK(graded_metric(pass, "pct_of_bandwidth").status == RangeStatus::above_warning);
  CHECK(graded_metric(pass, "pct_of_bandwidth").note == "above: calibrate?");  // its own warning text
  CHECK(pass.verdict == Verdict::pass);
  CHECK(pass.verdict_reason.find("warning") != std::string::npos);
}

TEST_CASE("the failing side of a one-sided band still fails, with the band's hint", "[grade][sides]") {
  // 120 us: slower than 80 (fails above), and pct 35 % is below 50 (fails below).
  Grade g = grade_run(vecadd_lab(FailSide::above, FailSide::below), run_with(120), {false, 0, 0}, kSheet, "", kN1000, {}, "T4");
  CHECK(graded_metric(g, "kernel_us").status == RangeStatus::above);
  CHECK(graded_metric(g, "kernel_us").note == "too slow: strided?");
  CHECK(graded_metric(g, "pct_of_bandwidth").status == RangeStatus::below);
  CHECK(graded_metric(g, "pct_of_bandwidth").note == "far below: uncoalesced");
  CHECK(g.verdict == Verdict::out_of_range);
  CHECK(g.verdict_reason.find("kernel_us") != std::string::npos);
}

TEST_CASE("a measured band on the spec sheet's basis is converted to calibrated figures", "[grade][basis]") {
  // Measured on the sheet (4800 GB/s): 70.6 % within 15 %. The learner calibrated 3980 GB/s,
  // so the same kernel (59.4 us -> 3389 GB/s) reads 85.1 % of the calibrated figure.
  LabSpec lab = vecadd_lab(FailSide::above, FailSide::below);
  lab.derived[0].expected->min_expr = "10";
  lab.derived[0].expected->max_expr = "100";
  MeasuredLab measured;
  measured.figures["pct_of_bandwidth"] = {70.6, 0.15};
  measured.basis = {{"dram_gbps", 4800}};
  GradeBasis basis{"h200-sxm", &measured, "2026-11-30", true, "", {}, {}};
  const Figures calibrated{{"dram_gbps", 3980}};
  basis.device_now = calibrated;
  basis.measured_device = kSheet;

  Grade g = grade_run(lab, run_with(59.4), {false, 0, 0}, calibrated, "", kN1000, {}, "T4", basis);
  const MetricGrade& pct = graded_metric(g, "pct_of_bandwidth");
  CHECK(*pct.value == Approx(85.15).epsilon(0.001));
  CHECK(pct.basis_factor == Approx(4800.0 / 3980.0));
  CHECK(*pct.lo == Approx(70.6 / 1.15 * 4800 / 3980));
  CHECK(*pct.hi == Approx(70.6 * 1.15 * 4800 / 3980));
  CHECK(pct.status == RangeStatus::in_range);
  CHECK(pct.basis_note.find("dram_gbps 4800 where this workspace has 3980") != std::string::npos);
  CHECK(g.verdict == Verdict::pass);

  // Without the basis (what the runner did before): the calibrated figure is compared with
  // the sheet's band and lands above it.
  GradeBasis unconverted{"h200-sxm", &measured, "2026-11-30", true, "", {}, {}};
  Grade old = grade_run(lab, run_with(59.4), {false, 0, 0}, calibrated, "", kN1000, {}, "T4", unconverted);
  CHECK(*graded_metric(old, "pct_of_bandwidth").hi == Approx(70.6 * 1.15));
  CHECK(graded_metric(old, "pct_of_bandwidth").status == RangeStatus::above_warning);

  // On the sheet itself the band is the measured one, unconverted.
  basis.device_now = kSheet;
  Grade same = grade_run(lab, run_with(59.4), {false, 0, 0}, kSheet, "", kN1000, {}, "T4", basis);
  CHECK(graded_metric(same, "pct_of_bandwidth").basis_factor == Approx(1.0));
  CHECK(*graded_metric(same, "pct_of_bandwidth").hi == Approx(70.6 * 1.15));
  CHECK(graded_metric(same, "pct_of_bandwidth").status == RangeStatus::in_range);
}

TEST_CASE("a reported figure's measured band is never converted (it depends on no device figure)", "[grade][basis]") {
  LabSpec lab = vecadd_lab(FailSide::above, FailSide::below);
  MeasuredLab measured;
  measured.figures["kernel_us"] = {59.4, 0.15};
  measured.basis = {{"dram_gbps", 4800}};
  GradeBasis basis{"h200-sxm", &measured, "2026-11-30", true, "", {}, {}};
  basis.device_now = {{"dram_gbps", 3980}};
  basis.measured_device = kSheet;
  Grade g = grade_run(lab, run_with(59.4), {false, 0, 0}, basis.device_now, "", kN1000, {}, "T4", basis);
  CHECK(graded_metric(g, "kernel_us").basis_factor == 1.0);
  CHECK(*graded_metric(g, "kernel_us").hi == Approx(59.4 * 1.15));
}

TEST_CASE("show's table (no run) names the basis of a derived measured band instead of guessing", "[grade][basis]") {
  LabSpec lab = vecadd_lab(FailSide::above, FailSide::below);
  MeasuredLab measured;
  measured.figures["pct_of_bandwidth"] = {70.6, 0.15};
  measured.basis = {{"dram_gbps", 4800}};
  GradeBasis basis{"h200-sxm", &measured, "2026-11-30", true, "", {}, {}};
  basis.device_now = {{"dram_gbps", 3980}};
  MetricGrade m;
  apply_basis(lab.derived[0], basis, m, std::nullopt);
  CHECK(*m.hi == Approx(70.6 * 1.15));
  CHECK(m.basis_note.find("a run converts the band to your figures") != std::string::npos);
}
