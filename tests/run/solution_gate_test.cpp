// Tests for run/solution_gate: the gate opens only after an attempt, a run of the
// learner's own edited copy that reached the GPU (issue 25).
#include <catch2/catch.hpp>

#include <fstream>

#include "../support/temp_dir.hpp"
#include "journal/journal.hpp"
#include "run/solution_gate.hpp"
#include "util/error.hpp"

using namespace workbook;

namespace {

SolutionGateRequest request(const wbtest::TempDir& dir) {
  SolutionGateRequest r;
  r.lab = "module14/tiled_gemm";
  r.question = "Show it anyway?";
  r.command = "workbook show module14/tiled_gemm --solution";
  r.starter = dir.path / "starter.cu";
  r.copy = dir.path / "copy.cu";
  return r;
}

}  // namespace

TEST_CASE("gate: a NOT RUN of the copy is no attempt, a run that reached the GPU is", "[gate]") {
  wbtest::TempDir dir;
  std::ofstream(dir.path / "starter.cu") << "// TODO\n";
  std::ofstream(dir.path / "copy.cu") << "// my kernel\n";
  Journal j(dir.path / "journal.db");
  const long long not_run = j.begin_run({"module14/tiled_gemm", "starter", "copy.cu", "{}", 1, "", ""});
  j.finish_run(not_run, Verdict::not_run, 2, "no GPU");
  CHECK_THROWS_AS(pass_solution_gate(j, request(dir)), UsageError);  // no terminal, no --yes, no attempt

  const long long ran = j.begin_run({"module14/tiled_gemm", "starter", "copy.cu", "{}", 1, "", ""});
  j.finish_run(ran, Verdict::fail, 1, "check failed");
  SolutionGate g = pass_solution_gate(j, request(dir));
  CHECK(g.open);
  CHECK_FALSE(g.before_attempt);
}

TEST_CASE("gate: running the untouched starter is not trying the lab", "[gate]") {
  wbtest::TempDir dir;
  std::ofstream(dir.path / "starter.cu") << "// TODO\n";
  std::ofstream(dir.path / "copy.cu") << "// TODO\n";  // the copy is still the starter
  Journal j(dir.path / "journal.db");
  const long long ran = j.begin_run({"module14/tiled_gemm", "starter", "copy.cu", "{}", 1, "", ""});
  j.finish_run(ran, Verdict::fail, 1, "check failed");
  CHECK_THROWS_AS(pass_solution_gate(j, request(dir)), UsageError);
  SolutionGateRequest yes = request(dir);
  yes.yes = true;
  SolutionGate g = pass_solution_gate(j, yes);
  CHECK(g.open);
  CHECK(g.before_attempt);  // recorded as seen before an attempt
}
