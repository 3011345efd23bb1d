// Tests for grade/results: parsing a lab's JSON-lines results file (docs/lab-contract.md).
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "grade/results.hpp"

#include "../support/temp_dir.hpp"
#include "../support/text_checks.hpp"

using workbook::LabResults;
using workbook::parse_results;
using workbook::read_results_file;
using workbook::kMaxProblemLines;
using wbtest::any_contains;

TEST_CASE("every record type of the contract is read", "[results]") {
  LabResults r = parse_results(
      R"J({"type":"start","lab":"module14/tiled_gemm","seed":42,"quick":false}
{"type":"device","name":"NVIDIA H200","cc":"9.0","sms":132,"l2_bytes":62914560,"global_bytes":150000000000}
{"type":"param","name":"N","value":1024}
{"type":"metric","name":"naive_ms","value":2.5,"unit":"ms","samples":9,"min":2.4,"max":2.7,"spread":0.12}
{"type":"metric","name":"n","value":1024,"unit":"count"}
{"type":"check","name":"naive_64","pass":true}
{"type":"check","name":"tiled_64","pass":false,"value":0.5,"limit":0.001,"detail":"max rel error 0.5 at (3, 4)"}
{"type":"error","where":"tiled_gemm.cu:123","message":"an illegal memory access was encountered"}
{"type":"end","pass":false}
)J");
  CHECK(r.protocol_problems.empty());
  CHECK(r.device_name == std::optional<std::string>("NVIDIA H200"));
  CHECK(r.device_cc == std::optional<std::string>("9.0"));
  CHECK(r.params == std::map<std::string, double>{{"N", 1024}});
  REQUIRE(r.metrics.size() == 2);
  const auto* m = r.metric("naive_ms");
  REQUIRE(m);
  CHECK(m->value == 2.5);
  CHECK(m->unit == "ms");
  CHECK(m->samples == std::optional<int>(9));
  CHECK(m->min == std::optional<double>(2.4));
  CHECK(m->max == std::optional<double>(2.7));
  CHECK(m->spread == std::optional<double>(0.12));
  const auto* n = r.metric("n");
  REQUIRE(n);
  CHECK_FALSE(n->samples);
  CHECK_FALSE(n->spread);
  REQUIRE(r.checks.size() == 2);
  CHECK(r.check("naive_64")->pass);
  CHECK_FALSE(r.check("naive_64")->value);
  const auto* c = r.check("tiled_64");
  REQUIRE(c);
  CHECK_FALSE(c->pass);
  CHECK(c->value == std::optional<double>(0.5));
  CHECK(c->limit == std::optional<double>(0.001));
  CHECK(c->detail == "max rel error 0.5 at (3, 4)");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0] == "tiled_gemm.cu:123: an illegal memory access was encountered");
  CHECK(r.ended);
  CHECK_FALSE(r.end_pass);
  CHECK(r.metric("absent") == nullptr);
  CHECK(r.check("absent") == nullptr);
}

TEST_CASE("end pass true is read, a repeated metric name keeps the last value", "[results]") {
  LabResults r = parse_results(
      "{\"type\":\"metric\",\"name\":\"t\",\"value\":1}\n"
      "{\"type\":\"metric\",\"name\":\"t\",\"value\":2}\n"
      "{\"type\":\"check\",\"name\":\"c\",\"pass\":false}\n"
      "{\"type\":\"check\",\"name\":\"c\",\"pass\":true}\n"
      "{\"type\":\"end\",\"pass\":true}\n");
  CHECK(r.protocol_problems.empty());
  CHECK(r.metric("t")->value == 2);
  CHECK(r.check("c")->pass);
  CHECK(r.ended);
  CHECK(r.end_pass);
}

TEST_CASE("malformed lines become protocol problems with their line number", "[results]") {
  LabResults r = parse_results(
      "{\"type\":\"start\",\"lab\":\"x\"}\n"                    // 1
      "this is not json\n"                                     // 2
      "[1, 2, 3]\n"                                            // 3
      "{\"type\":\"metric\",\"value\":1}\n"                    // 4: no name
      "{\"type\":\"check\",\"name\":\"c\"}\n"                  // 5: no pass
      "{\"type\":\"check\",\"name\":\"d\",\"pass\":\"yes\"}\n"  // 6: pass not a bool
      "{\"type\":\"weird\"}\n"                                 // 7
      "{\"name\":\"no_type\"}\n"                               // 8
      "{\"type\":\"metric\",\"name\":\"s\",\"value\":\"3\"}\n"  // 9: value is a string
      "{\"type\":\"metric\",\"name\":\"ok\",\"value\":3}\n"     // 10
      "{\"type\":\"end\",\"pass\":true\n");                    // 11: truncated (the lab died mid-write)
  INFO(r.protocol_problems.size());
  CHECK(any_contains(r.protocol_problems, "line 2: not a JSON object"));
  CHECK(any_contains(r.protocol_problems, "line 3: not a JSON object"));
  CHECK(any_contains(r.protocol_problems, "line 4: metric without a name"));
  CHECK(any_contains(r.protocol_problems, "line 5: check needs a name and a true/false pass"));
  CHECK(any_contains(r.protocol_problems, "line 6: check needs"));
  CHECK(any_contains(r.protocol_problems, "line 7: unknown record type 'weird'"));
  CHECK(any_contains(r.protocol_problems, "line 8: unknown record type ''"));
  CHECK(any_contains(r.protocol_problems, "line 9: metric 's' has no finite value"));
  CHECK(any_contains(r.protocol_problems, "line 11: not a JSON object"));
  CHECK(r.protocol_problems.size() == 9);
  REQUIRE(r.metrics.size() == 1);
  CHECK(r.metrics[0].name == "ok");
  CHECK(r.checks.empty());
  CHECK_FALSE(r.ended);  // the truncated end line does not count
}

TEST_CASE("a null metric value (NaN or infinity in the lab) is a protocol problem, not a metric", "[results]") {
  LabResults r = parse_results("{\"type\":\"metric\",\"name\":\"gflops\",\"value\":null,\"unit\":\"GFLOP/s\"}\n"
                               "{\"type\":\"end\",\"pass\":true}\n");
  CHECK(r.metrics.empty());
  CHECK(r.metric("gflops") == nullptr);
  REQUIRE(r.protocol_problems.size() == 1);
  CHECK(r.protocol_problems[0] == "line 1: metric 'gflops' has no finite value");
  CHECK(r.ended);
}

TEST_CASE("without an end record the results say the lab did not end", "[results]") {
  LabResults r = parse_results("{\"type\":\"start\",\"lab\":\"x\"}\n{\"type\":\"metric\",\"name\":\"count\",\"value\":1000}\n");
  CHECK_FALSE(r.ended);
  CHECK_FALSE(r.end_pass);
  CHECK(r.protocol_problems.empty());
  CHECK(r.metric("count")->value == 1000);
  // An end record whose pass is not a boolean still ends the run, as a failure.
  LabResults e = parse_results("{\"type\":\"end\"}\n");
  CHECK(e.ended);
  CHECK_FALSE(e.end_pass);
}

TEST_CASE("blank lines, CRLF line ends and an empty text are fine", "[results]") {
  LabResults r = parse_results("\n   \n{\"type\":\"metric\",\"name\":\"a\",\"value\":1}\r\n\t\r\n{\"type\":\"end\",\"pass\":true}\r\n");
  CHECK(r.protocol_problems.empty());
  CHECK(r.metrics.size() == 1);
  CHECK(r.ended);
  LabResults empty = parse_results("");
  CHECK(empty.metrics.empty());
  CHECK_FALSE(empty.ended);
  CHECK(empty.protocol_problems.empty());
}

TEST_CASE("read_results_file reads a file, and a missing file reads as no results", "[results]") {
  auto path = std::filesystem::temp_directory_path() / ("wb-results-test-" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(path) << "{\"type\":\"metric\",\"name\":\"x\",\"value\":7}\n{\"type\":\"end\",\"pass\":true}\n";
  LabResults r = workbook::read_results_file(path);
  std::filesystem::remove(path);
  CHECK(r.metric("x")->value == 7);
  CHECK(r.ended);
  LabResults none;
  REQUIRE_NOTHROW(none = workbook::read_results_file(path));
  CHECK_FALSE(none.ended);
  CHECK(none.metrics.empty());
}

TEST_CASE("a skipped check is read as reported and not failed, with its reason", "[results]") {
  LabResults r = parse_results(
      R"J({"type":"check","name":"lines_printed","pass":true,"skipped":true,"detail":"ncu replays each kernel"}
{"type":"check","name":"sum_ok","pass":false}
{"type":"check","name":"odd","pass":false,"skipped":true}
)J");
  REQUIRE(r.checks.size() == 3);
  CHECK(r.checks[0].skipped);
  CHECK(r.checks[0].pass);
  CHECK(r.checks[0].detail == "ncu replays each kernel");
  CHECK_FALSE(r.checks[1].skipped);
  CHECK_FALSE(r.checks[1].pass);
  CHECK(r.checks[2].skipped);  // a skipped check never fails the run, whatever its pass says
  CHECK(r.checks[2].pass);
}

// --- results files written to misbehave (issue 26) --------------------------------------

TEST_CASE("a results file replaced by a FIFO is not waited on", "[results][hostile]") {
  wbtest::TempDir tmp;
  const std::filesystem::path fifo = tmp.path / "results.jsonl";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  LabResults r = read_results_file(fifo);  // an open that blocks would never return
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
  CHECK(any_contains(r.protocol_problems, "the results file is a named pipe, not a regular file"));
  CHECK_FALSE(r.ended);
}

TEST_CASE("a results file over 16 MB says it is over the limit", "[results][hostile][limits]") {
  wbtest::TempDir tmp;
  const std::filesystem::path file = tmp.path / "results.jsonl";
  {
    std::ofstream out(file, std::ios::binary);
    const std::string line = R"({"type":"param","name":"p","value":1})" "\n";
    for (std::size_t n = 0; n * line.size() < (17u << 20); ++n) out << line;
    out << R"({"type":"end","pass":true})" "\n";
  }
  LabResults r = read_results_file(file);
  CHECK(r.over_limit);
  CHECK_FALSE(r.ended);
  CHECK(any_contains(r.protocol_problems, "the results file is over the 16 MB limit (17 MB)"));
  LabResults small = parse_results(R"({"type":"end","pass":true})" "\n");
  CHECK_FALSE(small.over_limit);
}

TEST_CASE("a megabyte of garbage gives a few warnings and a count, not thousands", "[results][hostile]") {
  std::string garbage;
  for (int i = 0; garbage.size() < (1u << 20); ++i) garbage += "not json at all, line " + std::to_string(i) + "\n";
  LabResults r = parse_results(garbage + R"({"type":"end","pass":true})" "\n");
  CHECK(r.protocol_problems.size() == kMaxProblemLines);
  CHECK(any_contains(r.protocol_problems, "line 1: not a JSON object"));
  CHECK(r.protocol_problems.back().find("more problems like these") != std::string::npos);
  CHECK(r.ended);
}

TEST_CASE("a record nested 200,000 deep is a protocol problem, not a crash", "[results][hostile][limits]") {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  LabResults r = parse_results(deep + "\n" + R"({"type":"end","pass":true})" "\n");
  CHECK(any_contains(r.protocol_problems, "line 1: nests more than 64 levels deep"));
  CHECK(r.ended);
}
