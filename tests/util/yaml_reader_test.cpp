// Tests for util/yaml_reader: problems as file:line: field: what, strict typed reads,
// unknown keys, and files that are missing, empty or not YAML (never an exception).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/yaml_reader.hpp"
#include "util/error.hpp"

#include "../support/problems.hpp"
#include "../support/temp_dir.hpp"

namespace fs = std::filesystem;
using workbook::MapReader;
using workbook::Problems;
using wbtest::has_problem;
using wbtest::problems_text;

namespace {

using wbtest::TempDir;

}  // namespace

TEST_CASE("a problem is written file:line: field: what", "[yaml_reader]") {
  Problems p;
  CHECK(p.empty());
  p.add("m.yaml", 3, "labs[0].id", "is required");
  p.add("m.yaml", 0, "title", "is missing");
  p.add("m.yaml", 7, "", "is not valid YAML");
  REQUIRE(p.list().size() == 3);
  CHECK(p.list()[0] == "m.yaml:3: labs[0].id: is required");
  CHECK(p.list()[1] == "m.yaml: title: is missing");
  CHECK(p.list()[2] == "m.yaml:7: is not valid YAML");
  CHECK_FALSE(p.empty());
}

TEST_CASE("throw_if_any throws a ContentError with every problem, and nothing when there are none", "[yaml_reader]") {
  Problems none;
  CHECK_NOTHROW(none.throw_if_any());
  Problems p;
  p.add("a.yaml", 1, "x", "one");
  p.add("a.yaml", 2, "y", "two");
  try {
    p.throw_if_any();
    FAIL("no exception");
  } catch (const workbook::ContentError& e) {
    CHECK(e.problems() == p.list());
    CHECK(e.code() == workbook::Exit::usage);
    CHECK(std::string(e.what()) == "a.yaml:1: x: one\na.yaml:2: y: two");
  }
}

TEST_CASE("unknown keys are reported with their line and the keys allowed there", "[yaml_reader]") {
  YAML::Node n = YAML::Load("title: x\ncolour: blue\nsize: 3\nmodule: 1\n");
  Problems p;
  MapReader r(n, "f.yaml", "", p);
  CHECK(r.str("title", true) == std::optional<std::string>("x"));
  CHECK(r.integer("module", true) == std::optional<long long>(1));
  r.finish();
  REQUIRE(p.list().size() == 2);
  CHECK(has_problem(p, {"f.yaml:2: colour: unknown key", "allowed here: module, title"}));
  CHECK(has_problem(p, {"f.yaml:3: size: unknown key"}));
}

TEST_CASE("unknown keys of a nested map carry the field path", "[yaml_reader]") {
  YAML::Node n = YAML::Load("labs:\n  - id: a\n    tilte: oops\n");
  Problems p;
  MapReader top(n, "f.yaml", "", p);
  YAML::Node labs = top.node("labs");
  REQUIRE(labs.IsSequence());
  MapReader lab(labs[0], "f.yaml", "labs[0]", p);
  CHECK(lab.str("id", true) == std::optional<std::string>("a"));
  lab.finish();
  top.finish();
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {"f.yaml:3: labs[0].tilte: unknown key"}));
}

TEST_CASE("values of the wrong type are reported, each on its own line", "[yaml_reader]") {
  YAML::Node n = YAML::Load(
      "title: [a, b]\n"       // 1: not a scalar
      "size: abc\n"           // 2: not a number
      "count: 2.5\n"          // 3: not whole
      "flag: maybe\n"         // 4: not a boolean
      "steps: one\n"          // 5: not a list
      "items:\n"              // 6
      "  - fine\n"            // 7
      "  - {a: 1}\n"          // 8: not text
      "ok: yes\n");           // 9
  Problems p;
  MapReader r(n, "f.yaml", "lab", p);
  CHECK_FALSE(r.str("title", true));
  CHECK_FALSE(r.number("size", true));
  CHECK_FALSE(r.integer("count", true));
  CHECK_FALSE(r.boolean("flag", true));
  CHECK(r.str_list("steps", true).empty());
  CHECK(r.str_list("items", true) == std::vector<std::string>{"fine"});
  CHECK(r.boolean("ok", true) == std::optional<bool>(true));
  r.finish();
  INFO(problems_text(p));
  CHECK(p.list().size() == 6);
  CHECK(has_problem(p, {"f.yaml:1: lab.title: must be a single value"}));
  CHECK(has_problem(p, {"f.yaml:2: lab.size: must be a number, got 'abc'"}));
  CHECK(has_problem(p, {"f.yaml:3: lab.count: must be a whole number, got 2.5"}));
  CHECK(has_problem(p, {"f.yaml:4: lab.flag: must be true or false, got 'maybe'"}));
  CHECK(has_problem(p, {"f.yaml:5: lab.steps: must be a list"}));
  CHECK(has_problem(p, {"f.yaml:8: lab.items[1]: must be text"}));
}

TEST_CASE("typed reads return the values they find", "[yaml_reader]") {
  YAML::Node n = YAML::Load("a: 1e-4\nb: 1024\nc: false\nd: [x, y]\ne: hello\n");
  Problems p;
  MapReader r(n, "f.yaml", "", p);
  CHECK(r.number("a", true) == Approx(1e-4));
  CHECK(r.integer("b", true) == std::optional<long long>(1024));
  CHECK(r.boolean("c", true) == std::optional<bool>(false));
  CHECK(r.str_list("d", true) == std::vector<std::string>{"x", "y"});
  CHECK(r.str("e", false) == std::optional<std::string>("hello"));
  CHECK(r.has("a"));
  CHECK_FALSE(r.has("zzz"));
  CHECK(r.line("c") == 3);
  CHECK(r.path("e") == "e");
  r.finish();
  CHECK(p.empty());
}

TEST_CASE("a missing required key is reported at the map's line, an optional one is not", "[yaml_reader]") {
  YAML::Node n = YAML::Load("outer:\n  inner: 1\n");
  Problems p;
  MapReader r(n["outer"], "f.yaml", "outer", p);
  CHECK_FALSE(r.str("title", false));
  CHECK_FALSE(r.str("name", true));
  CHECK(r.str_list("steps", false).empty());
  CHECK(r.integer("inner", true) == std::optional<long long>(1));
  r.finish();
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {"f.yaml:2: outer.name: is required"}));
}

TEST_CASE("a map that is a list or absent is one problem, and reads on it are quiet", "[yaml_reader]") {
  Problems p;
  {
    YAML::Node list = YAML::Load("- a\n- b\n");
    MapReader r(list, "f.yaml", "labs[0]", p);
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.str("id", true));  // no second problem for the same map
    r.finish();
  }
  {
    MapReader r(YAML::Node(), "g.yaml", "", p);
    CHECK_FALSE(r.ok());
    CHECK(r.str_list("x", true).empty());
    r.finish();
  }
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 2);
  CHECK(has_problem(p, {"f.yaml:1: labs[0]: must be a mapping"}));
  CHECK(has_problem(p, {"g.yaml: (top level): is missing or empty"}));
}

TEST_CASE("load_yaml_file: invalid YAML is a problem with a line, never an exception", "[yaml_reader]") {
  TempDir dir;
  auto file = dir.write("bad.yaml", "title: ok\nlabs:\n  - id: [unclosed\n  - other: 1\n");
  Problems p;
  YAML::Node n;
  REQUIRE_NOTHROW(n = workbook::load_yaml_file(file, p));
  CHECK_FALSE(workbook::present(n));
  REQUIRE(p.list().size() == 1);
  CHECK(p.list()[0].rfind(file.string() + ":", 0) == 0);
  CHECK(p.list()[0].find("is not valid YAML") != std::string::npos);
  // The line is a real line of the file (1-based), not 0.
  CHECK(p.list()[0].find(file.string() + ": ") == std::string::npos);
}

TEST_CASE("load_yaml_file: tabs, duplicate-looking junk and binary bytes never throw", "[yaml_reader]") {
  TempDir dir;
  for (const std::string& text : {std::string("a: b: c\n"), std::string("\tkey: 1\n"), std::string("{{{{"),
                                 std::string("key: \"unterminated\n"), std::string("\x00\x01\xff", 3)}) {
    auto file = dir.write("x.yaml", text);
    Problems p;
    CHECK_NOTHROW(workbook::load_yaml_file(file, p));
  }
}

TEST_CASE("load_yaml_file: an empty file gives a null node and no problem, a missing one a problem", "[yaml_reader]") {
  TempDir dir;
  auto empty = dir.write("empty.yaml", "");
  Problems p;
  YAML::Node n = workbook::load_yaml_file(empty, p);
  CHECK(p.empty());
  CHECK_FALSE(workbook::present(n));
  MapReader r(n, "empty.yaml", "", p);  // the reader then says the file is empty
  CHECK_FALSE(r.ok());
  REQUIRE(p.list().size() == 1);
  CHECK(p.list()[0] == "empty.yaml: (top level): is missing or empty");

  Problems q;
  workbook::load_yaml_file(dir.path / "nope.yaml", q);
  REQUIRE(q.list().size() == 1);
  CHECK(q.list()[0].find("nope.yaml: cannot be read") != std::string::npos);
}

TEST_CASE("scalar_number accepts plain numbers only", "[yaml_reader]") {
  auto num = [](const std::string& s) { return workbook::scalar_number(YAML::Load("v: " + s)["v"]); };
  CHECK(num("1e-4") == Approx(1e-4));
  CHECK(num("1024") == Approx(1024));
  CHECK(num("0.5") == Approx(0.5));
  CHECK(num("-3") == Approx(-3));
  CHECK_FALSE(num("abc"));
  CHECK_FALSE(num("1.5x"));
  CHECK_FALSE(num("2*N"));
  CHECK_FALSE(num("inf"));
  CHECK_FALSE(num("nan"));
  CHECK_FALSE(num("''"));
  CHECK_FALSE(workbook::scalar_number(YAML::Load("[1, 2]")));
}

TEST_CASE("line_of is 1-based and 0 for an undefined node", "[yaml_reader]") {
  YAML::Node n = YAML::Load("a: 1\n\nb: 2\n");
  CHECK(workbook::line_of(n["b"]) == 3);
  const YAML::Node& c = n;
  CHECK(workbook::line_of(c["zzz"]) == 0);
}

TEST_CASE("a ',' where a value should start is a problem, not yaml-cpp's endless loop", "[yaml_reader]") {
  // yaml-cpp's LoadAll looped for ever on these, allocating gigabytes (found by fuzzing an
  // experiment file: ", measure, then explain." alone on a line at the top).
  for (const std::string& text : {std::string(", measure, then explain.\n"), std::string("x: 1\n---\n, y\n"),
                                 std::string("- x\n, y\n"), std::string("\n\n,")}) {
    INFO(text);
    Problems p;
    const YAML::Node node = load_yaml_text(text, p, "experiments/x.yaml");
    CHECK_FALSE(node.IsDefined());
    REQUIRE(p.list().size() == 1);
    CHECK(p.list()[0].find("is not valid YAML: a ',' where a value should start") != std::string::npos);
  }
  Problems p;
  CHECK(load_yaml_text("a: [1, 2]\nb: x\n  , y\n", p, "ok.yaml").IsDefined());  // ',' inside [ ] or a scalar is fine
  CHECK(p.empty());
}
