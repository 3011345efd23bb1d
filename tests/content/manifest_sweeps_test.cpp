// Tests for the manifest's `sweeps:` section (content/manifest_load): a declared sweep is
// read with its values, metrics and unit; a sweep over a parameter or metric the lab
// lacks, or with fractional, repeated or too few values, is a problem on its line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "content/lab_id.hpp"
#include "content/manifest_load.hpp"
#include "../support/one_lab_module.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;

namespace {

Module load_with_sweeps(const wbtest::TempDir& root, const std::string& sweeps, Problems& p) {
  return wbtest::read_one_lab_module(root, "    params:\n      - {name: TILE, default: 256}\n    checks: [ok]\n"
                                       "    metrics:\n      - {name: t_ms, unit: ms}\n" + sweeps, p);
}

}  // namespace

TEST_CASE("manifest sweeps: a declared sweep is read", "[manifest][sweep]") {
  wbtest::TempDir root;
  Problems p;
  Module m = load_with_sweeps(root, "    sweeps:\n      - {param: TILE, values: [32, 64, 128], metrics: [t_ms], unit: threads, doc: \"d\"}\n", p);
  INFO(wbtest::problems_text(p));
  REQUIRE(p.empty());
  REQUIRE(m.labs.size() == 1);
  REQUIRE(m.labs[0].sweeps.size() == 1);
  const SweepSpec& s = m.labs[0].sweeps[0];
  CHECK(s.param == "TILE");
  CHECK(s.values == std::vector<double>{32, 64, 128});
  CHECK(s.metrics == std::vector<std::string>{"t_ms"});
  CHECK(s.unit == "threads");
  CHECK(s.line == 17);
}

TEST_CASE("manifest sweeps: unknown names and bad values are problems", "[manifest][sweep]") {
  wbtest::TempDir root;
  Problems p;
  load_with_sweeps(root,
                   "    sweeps:\n"
                   "      - {param: BLOCK, values: [1, 2]}\n"           // 17
                   "      - {param: TILE, values: [32, 32]}\n"          // 18
                   "      - {param: TILE, values: [1.5, 2]}\n"          // 19
                   "      - {param: TILE, values: [8]}\n"               // 20
                   "      - {param: TILE, values: [8, 16], metrics: [gbps]}\n"  // 21
                   "      - {param: TILE, values: [8, 16], colour: red}\n",     // 22
                   p);
  const std::string all = wbtest::problems_text(p);
  INFO(all);
  CHECK(all.find(":17: labs[0].sweeps[0].param: 'BLOCK' is not one of the lab's params") != std::string::npos);
  CHECK(all.find(":18: labs[0].sweeps[1].values: 32 appears twice") != std::string::npos);
  CHECK(all.find(":19: labs[0].sweeps[2].values: '1.5' is not a whole number") != std::string::npos);
  CHECK(all.find(":20: labs[0].sweeps[3].values: needs at least two values") != std::string::npos);
  CHECK(all.find(":21: labs[0].sweeps[4].metrics: 'gbps' is not a metric") != std::string::npos);
  CHECK(all.find("labs[0].sweeps[5]") != std::string::npos);  // unknown key
}

TEST_CASE("the real content's declared sweeps name real parameters", "[manifest][sweep]") {
  Problems p;
  const fs::path root = WORKBOOK_SOURCE_DIR;
  int declared = 0;
  for (int n : {14, 16, 23}) {
    Module m = read_module(root / "modules" / module_id(n) / "module.yaml", n, root, p);
    for (const auto& lab : m.labs) declared += static_cast<int>(lab.sweeps.size());
  }
  INFO(wbtest::problems_text(p));
  CHECK(p.empty());
  CHECK(declared >= 3);
}
