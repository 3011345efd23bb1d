// Deterministic mutation fuzzing of everything that reads untrusted text: the manifest
// and exercise loaders (seeded with the real content), the results reader, the
// expression evaluator and the answer parser. A target passes when no input crashes it
// or escapes with anything but the runner's own Error (which main() turns into a
// message and an exit code).
//
// The harness and how to run it longer: tests/support/fuzz.hpp. More targets (journal
// import, the results file, the batch script): fuzz_io_test.cpp. Every crash found
// becomes a regression test next to the code it crashed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/fuzz.hpp"
#include "../support/temp_dir.hpp"
#include "content/exercises.hpp"
#include "content/manifest_load.hpp"
#include "model/expr.hpp"
#include "grade/results.hpp"
#include "learn/answer_check.hpp"
#include "util/error.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using wbfuzz::fuzz;
using wbfuzz::seeds;

TEST_CASE("fuzz: the manifest loader reports problems, never crashes", "[fuzz]") {
  wbtest::TempDir tmp;
  const fs::path file = tmp.path / "modules/module05/module.yaml";
  fs::create_directories(file.parent_path());
  fuzz("manifest", seeds("modules", "module.yaml"), [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    Problems p;
    read_module(file, 5, tmp.path, p);
  });
}

TEST_CASE("fuzz: the exercise loader reports problems, never crashes", "[fuzz]") {
  wbtest::TempDir tmp;
  const fs::path file = tmp.path / "module05.yaml";
  fuzz("exercises", seeds("exercises", ".yaml"), [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    Problems p;
    read_exercises(file, 5, "exercises/module05.yaml", p);
  });
}

TEST_CASE("fuzz: the results reader takes any bytes", "[fuzz]") {
  const std::vector<std::string> corpus = {
      "{\"type\":\"start\",\"lab\":\"module01/x\",\"seed\":7,\"quick\":false}\n"
      "{\"type\":\"param\",\"name\":\"N\",\"value\":1024}\n"
      "{\"type\":\"metric\",\"name\":\"t_ms\",\"value\":1.5,\"unit\":\"ms\",\"samples\":10,\"min\":1,\"max\":2,\"spread\":0.1}\n"
      "{\"type\":\"check\",\"name\":\"ok\",\"pass\":true,\"value\":0,\"limit\":1e-5,\"detail\":\"fine\"}\n"
      "{\"type\":\"error\",\"where\":\"x.cu:1\",\"message\":\"boom\"}\n"
      "{\"type\":\"end\",\"pass\":true}\n"};
  fuzz("results", corpus, [](const std::string& text) { parse_results(text); });
}

TEST_CASE("fuzz: the expression evaluator throws Error or returns", "[fuzz]") {
  const std::vector<std::string> corpus = {
      "naive_floor_ms / 0.85", "max(conv_ms, ceil(N / 256) * block_clk) / 0.25 + 2 * launch_us / 1e3",
      "N + 2 * r * (nb - 1) - (nb > 1 ? max(0, r - (N - (nb - 1) * TILE)) : 0)", "sqrt(-1)", "1/0", "count > 500",
      "log(0) * 2^1024"};
  const Figures scope{{"naive_floor_ms", 0.3}, {"conv_ms", 0.1}, {"N", 1024}, {"block_clk", 1e-6}, {"launch_us", 5},
                      {"r", 2},  {"nb", 4},  {"TILE", 256}, {"count", 3}};
  fuzz("expr", corpus, [&](const std::string& text) { evaluate(text, scope); });
}

TEST_CASE("fuzz: the answer parser reads any typed line", "[fuzz]") {
  const std::vector<std::string> corpus = {
      "2*2048^3 = 1.72e10 reads, 68.7 GB", "1.72 x 10^10", "t_ms = 0.42, speedup = 1.5", "1,000,000 elements",
      "\xe2\x88\x92" "3.5 %", "about 2-3x", "0.75%", "1500 us", std::string(2000, '9')};
  std::vector<NumericAnswer> expected(2);
  expected[0].name = "a";
  expected[0].value = 1.72e10;
  expected[1].name = "b";
  expected[1].value = 68.7;
  fuzz("answers", corpus, [&](const std::string& text) { learn::check_answer(text, expected); });
}
