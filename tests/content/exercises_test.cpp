// Tests for content/exercises: the real bank loads clean; variants, duplicate ids and
// numeric answers are validated with file:line problems.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "content/exercises.hpp"

#include "../support/problems.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using workbook::ExerciseBank;
using workbook::Problems;
using workbook::read_exercises;
using wbtest::has_problem;
using wbtest::problems_text;

namespace {

// The bank file every test here writes.
struct BankDir : wbtest::TempDir {
  fs::path write(const std::string& text) const { return wbtest::TempDir::write("module05.yaml", text); }
};

// One apply item with a variant (lines 3..15); `extra` is appended at line 16.
std::string bank_text(const std::string& answers = "        area: \"w*h\"\n", const std::string& extra = "") {
  return "format_version: 1\n"                                   // 1
         "module: 5\n"                                           // 2
         "items:\n"                                              // 3
         "  - id: rect-area\n"                                   // 4
         "    kind: apply\n"                                     // 5
         "    prompt: \"Area of a 3 x 4 rectangle?\"\n"          // 6
         "    answer: \"12\"\n"                                  // 7
         "    numeric:\n"                                        // 8
         "      - {name: area, value: 12, abs_tol: 0.5}\n"       // 9
         "    variant:\n"                                        // 10
         "      params:\n"                                       // 11
         "        w: {values: [2, 3, 5]}\n"                      // 12
         "        h: {min: 1, max: 4, step: 1}\n"                // 13
         "      prompt: \"Area of a {w} x {h} rectangle?\"\n"    // 14
         "      answers:\n"                                      // 15
         + answers + extra;
}

}  // namespace

TEST_CASE("the real exercises/module14.yaml loads clean: 6 items, 1 worked example", "[exercises]") {
  fs::path file = fs::path(WORKBOOK_SOURCE_DIR) / "exercises/module14.yaml";
  Problems p;
  ExerciseBank bank = read_exercises(file, 14, "exercises/module14.yaml", p);
  INFO(problems_text(p));
  CHECK(p.empty());
  CHECK(bank.module == 14);
  REQUIRE(bank.items.size() == 6);
  REQUIRE(bank.worked_examples.size() == 1);
  CHECK(bank.items[0].id == "conv-domains");
  CHECK(bank.items[0].kind == workbook::ItemKind::recall);
  CHECK(bank.items[0].line == 4);
  auto count = std::count_if(bank.items.begin(), bank.items.end(), [](const auto& i) { return i.variant.has_value(); });
  CHECK(count >= 1);
  auto conv = std::find_if(bank.items.begin(), bank.items.end(), [](const auto& i) { return i.id == "conv-read-count"; });
  REQUIRE(conv != bank.items.end());
  CHECK(conv->kind == workbook::ItemKind::apply);
  REQUIRE(conv->variant);
  CHECK(conv->variant->params.size() == 3);
  CHECK(conv->numeric.size() == 3);
  const auto& ex = bank.worked_examples[0];
  CHECK(ex.id == "reads-and-tile-size");
  CHECK(ex.steps.size() == 7);
  REQUIRE_FALSE(ex.steps[0].numeric.empty());
  CHECK(ex.steps[0].numeric[0].name == "naive_reads");
  CHECK(ex.steps[0].numeric[0].value == Approx(1.718e10));
}

TEST_CASE("a small bank with a variant loads clean, min/max/step expands to values", "[exercises]") {
  BankDir dir;
  Problems p;
  ExerciseBank bank = read_exercises(dir.write(bank_text()), 5, "module05.yaml", p);
  INFO(problems_text(p));
  CHECK(p.empty());
  REQUIRE(bank.items.size() == 1);
  const auto& item = bank.items[0];
  REQUIRE(item.numeric.size() == 1);
  CHECK(item.numeric[0].abs_tol == std::optional<double>(0.5));
  CHECK(item.numeric[0].rel_tol == Approx(0.01));
  REQUIRE(item.variant);
  REQUIRE(item.variant->params.size() == 2);
  CHECK(item.variant->params[0].name == "w");
  CHECK(item.variant->params[0].values == std::vector<double>{2, 3, 5});
  CHECK(item.variant->params[1].values == std::vector<double>{1, 2, 3, 4});
  REQUIRE(item.variant->answers.size() == 1);
  CHECK(item.variant->answers[0] == std::make_pair(std::string("area"), std::string("w*h")));
}

TEST_CASE("a variant formula that names an unknown parameter is reported", "[exercises]") {
  BankDir dir;
  Problems p;
  read_exercises(dir.write(bank_text("        area: \"w*depth\"\n")), 5, "module05.yaml", p);
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {"module05.yaml:15: items[0].variant.answers: area: 'depth' is not a parameter"}));
}

TEST_CASE("a variant prompt placeholder and an answer name must be declared", "[exercises]") {
  BankDir dir;
  std::string text = bank_text("        area: \"w*h\"\n        perimeter: \"2*(w+h)\"\n");
  text.replace(text.find("{w} x {h}"), 9, "{w} x {height}");
  Problems p;
  read_exercises(dir.write(text), 5, "module05.yaml", p);
  INFO(problems_text(p));
  CHECK(has_problem(p, {"module05.yaml:14: items[0].variant.prompt: {height} is not a parameter"}));
  CHECK(has_problem(p, {"module05.yaml:15: items[0].variant.answers: 'perimeter' is not one of the item's numeric answers"}));
  CHECK(p.list().size() == 2);
}

TEST_CASE("a variant formula with a syntax error is a problem, not an exception", "[exercises]") {
  BankDir dir;
  Problems p;
  REQUIRE_NOTHROW(read_exercises(dir.write(bank_text("        area: \"w*(h\"\n")), 5, "module05.yaml", p));
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {"module05.yaml:15: items[0].variant.answers: expression 'w*(h'"}));
}

TEST_CASE("duplicate ids are reported, across items and worked examples", "[exercises]") {
  BankDir dir;
  std::string extra =
      "  - id: rect-area\n"                                                // 17
      "    kind: recall\n"                                                 // 18
      "    prompt: \"Again?\"\n"                                           // 19
      "    answer: \"Yes.\"\n"                                             // 20
      "worked_examples:\n"                                                 // 21
      "  - id: rect-area\n"                                                // 22
      "    title: \"t\"\n"                                                 // 23
      "    problem: \"p\"\n"                                               // 24
      "    steps:\n"                                                       // 25
      "      - prompt: \"a\"\n"                                            // 26
      "        answer: \"b\"\n"                                            // 27
      "        numeric:\n"                                                 // 28
      "          - {name: x, value: 1}\n"                                  // 29
      "          - {name: x, value: 2}\n";                                 // 30
  Problems p;
  ExerciseBank bank = read_exercises(dir.write(bank_text("        area: \"w*h\"\n", extra)), 5, "module05.yaml", p);
  INFO(problems_text(p));
  CHECK(bank.items.size() == 2);
  CHECK(has_problem(p, {"module05.yaml:17: items[1].id: 'rect-area' appears twice"}));
  CHECK(has_problem(p, {"module05.yaml:22: worked_examples[0].id: 'rect-area' appears twice"}));
  CHECK(has_problem(p, {"module05.yaml:30: worked_examples[0].steps[0].numeric[1].name: 'x' appears twice"}));
  CHECK(p.list().size() == 3);
}

TEST_CASE("bad kinds, ids, tolerances and a wrong module are reported", "[exercises]") {
  BankDir dir;
  std::string text =
      "format_version: 1\n"                                               // 1
      "module: 6\n"                                                       // 2
      "items:\n"                                                          // 3
      "  - id: Bad_Id\n"                                                  // 4
      "    kind: quiz\n"                                                  // 5
      "    prompt: \"p\"\n"                                               // 6
      "    answer: \"a\"\n"                                               // 7
      "    numeric:\n"                                                    // 8
      "      - {name: x, value: 1, rel_tol: -1}\n"                        // 9
      "      - {name: y, value: big}\n"                                   // 10
      "    hint: \"unknown key\"\n";                                      // 11
  Problems p;
  read_exercises(dir.write(text), 5, "module05.yaml", p);
  INFO(problems_text(p));
  CHECK(has_problem(p, {"module05.yaml:2: module: says 6 but the file is for module 5"}));
  CHECK(has_problem(p, {"module05.yaml:4: items[0].id: must be [a-z0-9-]+"}));
  CHECK(has_problem(p, {"module05.yaml:5: items[0].kind: must be recall, explain or apply"}));
  CHECK(has_problem(p, {"module05.yaml:9: items[0].numeric[0].rel_tol: tolerances must not be negative"}));
  CHECK(has_problem(p, {"module05.yaml:10: items[0].numeric[1].value: must be a number, got 'big'"}));
  CHECK(has_problem(p, {"module05.yaml:11: items[0].hint: unknown key"}));
  CHECK(p.list().size() == 6);
}

TEST_CASE("an exercises file without items, or empty, or not YAML, is reported", "[exercises]") {
  BankDir dir;
  {
    Problems p;
    read_exercises(dir.write("format_version: 1\nmodule: 5\n"), 5, "module05.yaml", p);
    INFO(problems_text(p));
    REQUIRE(p.list().size() == 1);
    CHECK(has_problem(p, {"module05.yaml:1: items: is required"}));
  }
  {
    Problems p;
    REQUIRE_NOTHROW(read_exercises(dir.write("items: [unclosed\n"), 5, "module05.yaml", p));
    INFO(problems_text(p));
    REQUIRE(p.list().size() == 1);
    CHECK(has_problem(p, {"is not valid YAML"}));
  }
  {
    Problems p;
    ExerciseBank bank = read_exercises(dir.write(""), 5, "module05.yaml", p);
    INFO(problems_text(p));
    CHECK(bank.items.empty());
    REQUIRE(p.list().size() == 1);
    CHECK(has_problem(p, {"module05.yaml", "empty"}));
  }
}
