// Tests for the manifest's `examiner:` block (content/examiner): read with its words,
// ceilings and Amdahl facts; figures and Amdahl's speed-up must be metrics of the lab,
// expressions may name only what the lab's expressions may, a bound needs words, and an
// unknown key is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "content/examiner.hpp"
#include "content/manifest_load.hpp"
#include "../support/one_lab_module.hpp"
#include "../support/problems.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;
using wbtest::has_problem;

namespace {

const char* kLabKeys =
    "    checks: [ok]\n"
    "    params:\n      - {name: N, default: 1024}\n"
    "    metrics:\n"
    "      - {name: kernel_ms, unit: ms}\n"
    "      - {name: kernel_gbps, unit: GB/s}\n"
    "    derived:\n"
    "      - {name: speedup, expr: \"2 / kernel_ms\", unit: x}\n";

Module load_with_examiner(const wbtest::TempDir& root, const std::string& block, Problems& p) {
  return wbtest::read_one_lab_module(root, std::string(kLabKeys) + block, p);
}

}  // namespace

TEST_CASE("examiner: a full block is read", "[manifest][examiner]") {
  wbtest::TempDir root;
  Problems p;
  Module m = load_with_examiner(root,
                                "    examiner:\n"
                                "      bound: memory\n"
                                "      figures: [kernel_gbps, kernel_ms]\n"
                                "      intensity: \"1 / 12\"\n"
                                "      words: {memory: [Global-Memory traffic], copies: [PCIe copy]}\n"
                                "      ceilings: {dram_gbps: GB/s, \"12*N/dram_gbps/1e6\": ms}\n"
                                "      amdahl: {speedup: speedup, unchanged: \"0.25\", words: [the copies]}\n",
                                p);
  INFO(wbtest::problems_text(p));
  REQUIRE(p.empty());
  REQUIRE(m.labs.at(0).examiner);
  const ExplainSpec& e = *m.labs[0].examiner;
  CHECK(e.bound == "memory");
  CHECK(e.figures == std::vector<std::string>{"kernel_gbps", "kernel_ms"});
  CHECK(e.intensity == "1 / 12");
  REQUIRE(e.ceilings);
  REQUIRE(e.ceilings->size() == 2);
  CHECK((*e.ceilings)[1].unit == "ms");
  REQUIRE(e.amdahl);
  CHECK(e.amdahl->words == std::vector<std::string>{"the copies"});
  // The lab's words come first and are normalised; the runner's own follow.
  const ResourceWords words = resource_words(e);
  REQUIRE(words.at(0).first == "memory");
  CHECK(words[0].second.front() == "global memory traffic");
  CHECK(std::find(words[0].second.begin(), words[0].second.end(), "dram") != words[0].second.end());
}

TEST_CASE("examiner: unknown metric names and expression names are refused", "[manifest][examiner]") {
  wbtest::TempDir root;
  Problems p;
  load_with_examiner(root,
                     "    examiner:\n"
                     "      bound: memory\n"
                     "      figures: [kernel_gbps, no_such_figure]\n"
                     "      intensity: \"flops / bytes\"\n"
                     "      amdahl: {speedup: not_a_metric, words: [copies]}\n",
                     p);
  CHECK(has_problem(p, {"examiner.figures: 'no_such_figure' is not a metric"}));
  CHECK(has_problem(p, {"examiner.intensity: 'flops / bytes' uses 'flops'"}));
  CHECK(has_problem(p, {"examiner.amdahl.speedup: 'not_a_metric' is not a metric"}));
}

TEST_CASE("examiner: a bound without words, a bad unit and an unknown key are problems", "[manifest][examiner]") {
  wbtest::TempDir root;
  Problems p;
  load_with_examiner(root,
                     "    examiner:\n"
                     "      bound: warp drive\n"
                     "      figures: [kernel_ms]\n"
                     "      ceilings: {dram_gbps: furlongs}\n"
                     "      model: roofline\n",
                     p);
  CHECK(has_problem(p, {"examiner.bound: 'warp drive' has no words"}));
  CHECK(has_problem(p, {"'furlongs' is not a unit"}));
  CHECK(has_problem(p, {"examiner.model"}));
}

TEST_CASE("examiner: a lab's own resource with its words is a bound", "[manifest][examiner]") {
  wbtest::TempDir root;
  Problems p;
  Module m = load_with_examiner(root,
                                "    examiner:\n"
                                "      bound: guard\n"
                                "      figures: [kernel_ms]\n"
                                "      words: {guard: [bounds check, if (i < n)]}\n",
                                p);
  INFO(wbtest::problems_text(p));
  REQUIRE(p.empty());
  CHECK(m.labs.at(0).examiner->bound == "guard");
  CHECK_FALSE(m.labs.at(0).examiner->ceilings);  // not declared: the bound's defaults
  CHECK(default_ceilings("memory").at(0).expr == "dram_gbps");
  CHECK(default_ceilings("guard").empty());
}
