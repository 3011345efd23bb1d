// Tests for grade/results and grade/grade (issue 10): records that contradict each other
// (a check or metric reported twice, a `start` seed that is not the run's) are flagged
// and fail the run through a `results_consistent` check; a results file is read only up
// to a size and record limit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "grade/grade.hpp"
#include "grade/results.hpp"

#include "../support/grade_lookup.hpp"
#include "../support/temp_dir.hpp"
#include "../support/text_checks.hpp"

using namespace workbook;
using wbtest::any_contains;
using wbtest::grade_run;

namespace {

LabSpec lab_with_check() {
  LabSpec lab;
  lab.name = "demo";
  lab.id = "module01/demo";
  lab.timeout_s = 20;
  lab.checks = {"sum_ok"};
  return lab;
}

Grade grade_text(const std::string& text, std::optional<std::uint64_t> seed = 42) {
  LabResults r = parse_results(text, seed);
  return grade_run(lab_with_check(), r, RunOutcome{false, 0, 0}, Figures{{"sm_count", 40}}, "", Figures{}, {}, "T4");
}

const CheckGrade* find_check(const Grade& g, const std::string& name) {
  auto it = std::find_if(g.checks.begin(), g.checks.end(), [&](const CheckGrade& c) { return c.name == name; });
  return it == g.checks.end() ? nullptr : &*it;
}

const std::string kStart = R"({"type":"start","lab":"module01/demo","seed":42,"quick":false})" "\n";
const std::string kEnd = R"({"type":"end","pass":true})" "\n";
const std::string kPassCheck = R"({"type":"check","name":"sum_ok","pass":true})" "\n";
const std::string kFailCheck = R"({"type":"check","name":"sum_ok","pass":false,"detail":"sum 9, expected 10"})" "\n";

}  // namespace

TEST_CASE("a consistent results file has no inconsistencies and passes", "[results][consistency]") {
  LabResults r = parse_results(kStart + kPassCheck + kEnd, 42);
  CHECK(r.inconsistencies.empty());
  REQUIRE(r.seed);
  CHECK(*r.seed == 42);
  Grade g = grade_text(kStart + kPassCheck + kEnd);
  CHECK(g.verdict == Verdict::pass);
  CHECK(find_check(g, "results_consistent") == nullptr);
  // Without a seed to compare against (a probe, or a lab run by hand) nothing is flagged.
  CHECK(parse_results(kStart + kPassCheck + kEnd).inconsistencies.empty());
}

TEST_CASE("a failed check reported again as passing fails the run", "[results][consistency]") {
  LabResults r = parse_results(kStart + kFailCheck + kPassCheck + kEnd, 42);
  CHECK(any_contains(r.inconsistencies, "check 'sum_ok' was reported 2 times"));
  CHECK(any_contains(r.inconsistencies, "failed, then passed"));
  Grade g = grade_text(kStart + kFailCheck + kPassCheck + kEnd);
  CHECK(g.verdict == Verdict::fail);
  const CheckGrade* sum = find_check(g, "sum_ok");
  REQUIRE(sum);
  CHECK_FALSE(sum->pass);  // the failing report counts
  CHECK(sum->detail == "sum 9, expected 10");
  const CheckGrade* c = find_check(g, "results_consistent");
  REQUIRE(c);
  CHECK_FALSE(c->pass);
  CHECK(c->reported);
  CHECK(c->detail.find("sum_ok") != std::string::npos);
  CHECK(g.verdict_reason.find("check 'sum_ok' failed") != std::string::npos);
}

TEST_CASE("the same check passing twice, or a metric reported twice, is flagged", "[results][consistency]") {
  Grade twice = grade_text(kStart + kPassCheck + kPassCheck + kEnd);
  CHECK(twice.verdict == Verdict::fail);
  REQUIRE(find_check(twice, "results_consistent"));
  CHECK(twice.verdict_reason.find("results_consistent") != std::string::npos);

  const std::string m1 = R"({"type":"metric","name":"gbps","value":100,"unit":"GB/s"})" "\n";
  const std::string m2 = R"({"type":"metric","name":"gbps","value":900,"unit":"GB/s"})" "\n";
  LabResults r = parse_results(kStart + m1 + m2 + kPassCheck + kEnd, 42);
  CHECK(any_contains(r.inconsistencies, "metric 'gbps' was reported 2 times (100, 900)"));
  Grade g = grade_text(kStart + m1 + m2 + kPassCheck + kEnd);
  CHECK(g.verdict == Verdict::fail);
  const CheckGrade* c = find_check(g, "results_consistent");
  REQUIRE(c);
  CHECK(c->detail.find("gbps") != std::string::npos);
}

TEST_CASE("a start seed that is not the run's seed, or two starts, fail the run", "[results][consistency]") {
  const std::string other = R"({"type":"start","lab":"module01/demo","seed":7,"quick":false})" "\n";
  LabResults r = parse_results(other + kPassCheck + kEnd, 42);
  CHECK(any_contains(r.inconsistencies, "seed 7"));
  CHECK(any_contains(r.inconsistencies, "42"));
  Grade g = grade_text(other + kPassCheck + kEnd);
  CHECK(g.verdict == Verdict::fail);
  const CheckGrade* c = find_check(g, "results_consistent");
  REQUIRE(c);
  CHECK(c->detail.find("seed") != std::string::npos);

  LabResults two = parse_results(kStart + kStart + kPassCheck + kEnd, 42);
  CHECK(any_contains(two.inconsistencies, "2 `start` records"));

  // A seed too large for 64 bits, or not a number, is not the run's seed either.
  LabResults big = parse_results(R"({"type":"start","lab":"x","seed":18446744073709551616})" "\n" + kPassCheck + kEnd, 42);
  CHECK(any_contains(big.inconsistencies, "seed"));
}

TEST_CASE("a results file is read up to 16 MB, and up to 100000 records", "[results][limits]") {
  wbtest::TempDir tmp;
  // 17 MB of metrics after a start: only the first 16 MB are read, and that is said.
  const std::string line = R"({"type":"metric","name":"m","value":1})" "\n";
  {
    std::ofstream out(tmp.path / "big.jsonl", std::ios::binary);
    out << kStart;
    for (std::size_t n = 0; n * line.size() < (17u << 20); ++n) out << line;
    out << kEnd;
  }
  LabResults big = read_results_file(tmp.path / "big.jsonl", 42);
  CHECK(any_contains(big.protocol_problems, "only the first 16 MB were read"));
  CHECK_FALSE(big.ended);  // the `end` record was past the limit
  CHECK(big.metrics.size() <= 100000);

  // 100001 small records: the rest after 100000 is not read, and that is said.
  std::string many = kStart;
  for (int i = 0; i < 100005; ++i) many += "{\"type\":\"param\",\"name\":\"p\",\"value\":1}\n";
  many += kEnd;
  LabResults r = parse_results(many, 42);
  CHECK(any_contains(r.protocol_problems, "more than 100000 records"));
  CHECK_FALSE(r.ended);
}
