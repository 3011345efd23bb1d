// The manifest's `memcheck:` and `exercised:` keys (content/manifest_load): the memcheck
// pass a lab asks for, and the checks that run each function the learner writes.
#include <catch2/catch.hpp>

#include <string>

#include "content/manifest_load.hpp"
#include "../support/one_lab_module.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;

namespace {
Module load_with_keys(const wbtest::TempDir& root, const std::string& keys, Problems& p) {
  return wbtest::read_one_lab_module(root, "    checks: [ok, ok_bounds]\n" + keys, p);
}
}  // namespace

TEST_CASE("manifest: memcheck: quick asks for the memcheck pass, absent or none does not", "[manifest][memcheck]") {
  wbtest::TempDir root;
  Problems p;
  CHECK(load_with_keys(root, "    memcheck: quick\n", p).labs.at(0).memcheck);
  CHECK_FALSE(load_with_keys(root, "    memcheck: none\n", p).labs.at(0).memcheck);
  CHECK_FALSE(load_with_keys(root, "", p).labs.at(0).memcheck);
  INFO(wbtest::problems_text(p));
  CHECK(p.empty());
}

TEST_CASE("manifest: memcheck takes quick or none only", "[manifest][memcheck]") {
  wbtest::TempDir root;
  Problems p;
  load_with_keys(root, "    memcheck: full\n", p);
  REQUIRE(p.list().size() == 1);
  CHECK(p.list()[0].find("memcheck") != std::string::npos);
  CHECK(p.list()[0].find("'full'") != std::string::npos);
}

TEST_CASE("manifest: exercised maps functions to checks, in order", "[manifest][exercised]") {
  wbtest::TempDir root;
  Problems p;
  const Module m = load_with_keys(root, "    exercised:\n      kernel: [ok, ok_bounds]\n      launch: [ok]\n", p);
  INFO(wbtest::problems_text(p));
  REQUIRE(p.empty());
  const auto& ex = m.labs.at(0).exercised;
  REQUIRE(ex.size() == 2);
  CHECK(ex[0].first == "kernel");
  CHECK(ex[0].second == std::vector<std::string>{"ok", "ok_bounds"});
  CHECK(ex[1].first == "launch");
}

TEST_CASE("manifest: exercised must be a map of non-empty lists", "[manifest][exercised]") {
  wbtest::TempDir root;
  Problems list_instead;
  load_with_keys(root, "    exercised: [kernel]\n", list_instead);
  REQUIRE(list_instead.list().size() == 1);
  CHECK(list_instead.list()[0].find("exercised") != std::string::npos);
  Problems empty;
  load_with_keys(root, "    exercised:\n      kernel: []\n", empty);
  REQUIRE(empty.list().size() == 1);
  CHECK(empty.list()[0].find("exercised.kernel") != std::string::npos);
}
