// The run pipeline in-process (run/lab_run.hpp's run_lab, run/sweep.hpp's run_sweep,
// run/compare.hpp's run_compare) on the fixture course's module01/pass_lab, with every child
// played by tests/support/fake_processes.hpp: nothing is compiled or started, so each
// verdict is reached from the facts a test chooses, and the build cache, the seed and the
// parameters the lab was given are seen in the argvs the pipeline asked for.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "journal/journal.hpp"
#include "run/compare.hpp"
#include "run/lab_run.hpp"
#include "run/slurm_journal.hpp"
#include "run/sweep.hpp"

#include "../support/fake_processes.hpp"
#include "../support/fixture_course.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using nlohmann::json;
using wbtest::FakeProcesses;
namespace fs = std::filesystem;

namespace {

// The fixture course beside an empty workspace, as a learner's command would open them.
struct InProcessCourse {
  wbtest::TempDir tmp;
  fs::path content = tmp.path / "content";
  wbtest::ScopedEnv gpu{"WORKBOOK_GPU_NAME", std::string("Tesla T4")};
  wbtest::ScopedEnv cache{"WORKBOOK_CACHE_DIR", (tmp.path / "cache").string()};
  wbtest::ScopedEnv cxx{"CXX", std::nullopt};
  InProcessCourse() {
    wbtest::copy_fixture_course(content);
    fs::create_directories(tmp.path / "workspace");
  }
  Catalog catalog{content};
  Workspace workspace{tmp.path / "workspace"};
  Journal journal{":memory:"};
  Style style{false};
  RunContext ctx() { return {catalog, workspace, journal, style}; }
};

std::string recorded_verdict(Journal& journal, long long run_id) {
  const auto end = run_end_of(journal, run_id);
  return end && end->verdict ? *end->verdict : "open";
}

}  // namespace

TEST_CASE("run_lab in-process: built once, run with its seed and parameters, graded and recorded",
          "[lab_run_test]") {
  InProcessCourse course;
  FakeProcesses fake;
  fake.lab = [](const workbook::ProcessOptions& o) { return wbtest::pass_lab_run(o); };
  RunRequest req = wbtest::pass_lab_request();
  req.predict = {"count_guess=900"};
  const RunReport first = run_lab(course.ctx(), req);
  CHECK(first.grade.verdict == Verdict::pass);
  CHECK(recorded_verdict(course.journal, first.run_id) == "pass");
  CHECK(fake.compiles() == 2);  // the harness, then the lab linked against it
  REQUIRE(fake.lab_runs() == 1);
  const auto& argv = fake.ran.back();
  CHECK(std::find(argv.begin(), argv.end(), "seed=" + std::to_string(first.seed)) != argv.end());
  CHECK(std::find(argv.begin(), argv.end(), "N=1000") != argv.end());
  CHECK(first.predictions.size() == 1);

  const RunReport second = run_lab(course.ctx(), wbtest::pass_lab_request());
  CHECK(second.build_cached);
  CHECK(fake.compiles() == 2);  // nothing compiled again
  CHECK(fake.lab_runs() == 2);
  CHECK(second.run_id == first.run_id + 1);
  CHECK(second.predictions.size() == 1);  // the lab's standing prediction, graded again
}

TEST_CASE("run_lab in-process: each way a lab can end gives its verdict", "[lab_run_test]") {
  InProcessCourse course;
  FakeProcesses fake;
  SECTION("a failed check") {
    fake.lab = [](const workbook::ProcessOptions& o) { return wbtest::pass_lab_run(o, false); };
    const RunReport r = run_lab(course.ctx(), wbtest::pass_lab_request());
    CHECK(r.grade.verdict == Verdict::fail);
    CHECK(recorded_verdict(course.journal, r.run_id) == "fail");
  }
  SECTION("a crash") {
    fake.lab = [](const workbook::ProcessOptions& o) {
      FakeProcesses::LabRun run = wbtest::pass_lab_run(o);
      run.records.pop_back();  // no end record: it died first
      run.end.exit_code = -1;
      run.end.signal = 11;
      return run;
    };
    const RunReport r = run_lab(course.ctx(), wbtest::pass_lab_request());
    CHECK(r.grade.verdict == Verdict::runtime_error);
    CHECK(r.process_summary.find("signal 11") != std::string::npos);
  }
  SECTION("the time limit") {
    fake.lab = [](const workbook::ProcessOptions&) {
      FakeProcesses::LabRun run;
      run.end.exit_code = -1;
      run.end.signal = 15;
      run.end.timed_out = true;
      return run;
    };
    const RunReport r = run_lab(course.ctx(), wbtest::pass_lab_request());
    CHECK(r.grade.verdict == Verdict::timeout);
    CHECK(recorded_verdict(course.journal, r.run_id) == "timeout");
  }
  SECTION("a compile error: nothing runs") {
    fake.compile_fails = true;
    const RunReport r = run_lab(course.ctx(), wbtest::pass_lab_request());
    CHECK(r.grade.verdict == Verdict::compile_error);
    CHECK(r.build_diagnostics.find("expected ';'") != std::string::npos);
    CHECK(fake.lab_runs() == 0);
    CHECK(recorded_verdict(course.journal, r.run_id) == "compile_error");
  }
}

TEST_CASE("run_sweep in-process: one run a value, each recorded, the lab's own value graded", "[lab_run_test]") {
  InProcessCourse course;
  FakeProcesses fake;
  fake.lab = [](const workbook::ProcessOptions& o) { return wbtest::pass_lab_run(o); };
  const SweepResult s = run_sweep(course.ctx(), wbtest::pass_lab_request(), "N=10,100,1000");
  REQUIRE(s.runs.size() == 3);
  CHECK(fake.lab_runs() == 3);
  CHECK(fake.compiles() == 2);  // one build serves every value
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(s.runs[i].params.at("N") == s.plan.values[i]);
    CHECK(recorded_verdict(course.journal, s.runs[i].run_id) == "pass");
    CHECK(s.runs[i].seed == s.seed);
  }
  CHECK(explained_point(s) == &s.runs[2]);  // N=1000, the lab's default
}

TEST_CASE("run_compare in-process: the reference runs between the learner's predictions and build, and grades it",
          "[lab_run_test]") {
  InProcessCourse course;
  FakeProcesses fake;
  // The reference solution sums in 1 us; the learner's copy in the workspace takes 5 us.
  fake.lab = [](const workbook::ProcessOptions& o) {
    FakeProcesses::LabRun run = wbtest::pass_lab_run(o);
    if (FakeProcesses::source_of(o).find("/solutions/") == std::string::npos) run.records[2]["value"] = 0.005;
    return run;
  };
  const fs::path copy = course.workspace.lab_copy(course.catalog.find_lab(parse_lab_ref_or_throw("module01/pass_lab")));
  fs::create_directories(copy.parent_path());
  fs::copy_file(course.content / "solutions/module01/pass_lab.cpp", copy);
  std::ofstream(copy, std::ios::app) << "// mine\n";
  const CompareResult c = run_compare(course.ctx(), wbtest::pass_lab_request());
  CHECK(c.reference.grade.verdict == Verdict::pass);
  CHECK(c.graded_on_reference);
  CHECK(c.mine.seed == c.reference.seed);
  CHECK(c.mine.run_id < c.reference.run_id);  // the learner's run opened first
  CHECK(c.mine.grade.verdict == Verdict::out_of_range);  // 5x the reference's time, on this same "GPU"
  CHECK(recorded_verdict(course.journal, c.mine.run_id) == "out_of_range");
  CHECK(fake.lab_runs() == 2);
}
