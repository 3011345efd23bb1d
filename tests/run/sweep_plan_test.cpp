// Tests for run/sweep's plan: which value of a sweep is graded (the parameter's default,
// its quick value with --quick) and the label the other values' figures carry.
#include <catch2/catch.hpp>

#include "run/sweep.hpp"

using namespace workbook;

namespace {

// Like module04's vector add: BLOCK defaults to 256 and a sweep declares 32..1024.
LabSpec block_lab() {
  LabSpec lab;
  lab.id = "module04/vector_add";
  lab.name = "vector_add";
  lab.params = {{"BLOCK", 256, 64, "threads per block", 0}, {"N", 1 << 20, 1024, "elements", 0}};
  SweepSpec s;
  s.param = "BLOCK";
  s.values = {32, 64, 128, 256, 1024};
  s.unit = "threads";
  lab.sweeps = {s};
  return lab;
}

}  // namespace

TEST_CASE("a sweep grades only the parameter's default, the others are labelled not graded", "[sweep]") {
  const SweepPlan plan = plan_sweep(block_lab(), "BLOCK");
  CHECK(plan.default_value == 256);
  CHECK(sweep_grading_note(plan, 256).empty());
  CHECK(sweep_grading_note(plan, 32) == "not graded: the ranges are for BLOCK=256");
  CHECK(sweep_grading_note(plan, 1024) == "not graded: the ranges are for BLOCK=256");

  // --quick runs each parameter at its quick value: that one is graded.
  const SweepPlan quick = plan_sweep(block_lab(), "BLOCK=32,64", true);
  CHECK(quick.default_value == 64);
  CHECK(sweep_grading_note(quick, 64).empty());
  CHECK(sweep_grading_note(quick, 32) == "not graded: the ranges are for BLOCK=64");

  // A parameter without a quick value keeps its default under --quick.
  LabSpec no_quick = block_lab();
  no_quick.params[0].quick.reset();
  CHECK(plan_sweep(no_quick, "BLOCK=128,256", true).default_value == 256);

  // A sweep that leaves out the default grades none of its values.
  const SweepPlan away = plan_sweep(block_lab(), "BLOCK=32,128");
  CHECK_FALSE(sweep_grading_note(away, 32).empty());
  CHECK_FALSE(sweep_grading_note(away, 128).empty());
}
