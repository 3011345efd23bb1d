// A sweep's one verdict (run/sweep.hpp sweep_verdict): the same in its JSON and its exit code.
#include <catch2/catch.hpp>

#include "present/sweep_report.hpp"
#include "run/sweep.hpp"

using namespace workbook;

namespace {

SweepResult sweep_of(std::initializer_list<Verdict> verdicts) {
  SweepResult r;
  r.lab.id = "module04/vector_add";
  r.plan.param = "BLOCK";
  double value = 32;
  for (Verdict v : verdicts) {
    RunReport run;
    run.lab = r.lab;
    run.grade.verdict = v;
    r.runs.push_back(run);
    r.plan.values.push_back(value);
    value *= 2;
  }
  return r;
}

}  // namespace

TEST_CASE("a sweep's verdict is its first run's that did not pass, in the JSON and the exit code alike", "[sweep]") {
  const SweepResult passed = sweep_of({Verdict::pass, Verdict::pass});
  CHECK(sweep_verdict(passed) == Verdict::pass);
  CHECK(sweep_json(passed)["verdict"] == "pass");
  CHECK(exit_code_for(passed) == 0);

  const SweepResult mixed = sweep_of({Verdict::pass, Verdict::out_of_range, Verdict::fail});
  CHECK(sweep_verdict(mixed) == Verdict::out_of_range);
  CHECK(sweep_json(mixed)["verdict"] == "out_of_range");
  CHECK(exit_code_for(mixed) == static_cast<int>(Exit::out_of_range));

  const SweepResult failed = sweep_of({Verdict::fail, Verdict::compile_error});
  CHECK(sweep_json(failed)["verdict"] == "fail");
  CHECK(exit_code_for(failed) == static_cast<int>(Exit::check_failed));
  CHECK(exit_code_for(sweep_of({})) == 0);
}
