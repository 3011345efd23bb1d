// Tests for content/manifest_load: the real module manifest loads clean; a malformed one
// reports every problem as file:line: field: what; sources, expressions and prediction
// metrics are cross-checked.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "content/manifest_load.hpp"
#include "../support/problems.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using workbook::Module;
using workbook::Problems;
using workbook::read_module;
using wbtest::has_problem;
using wbtest::problems_text;

namespace {

// A unique temporary content root, removed at the end of the test.
struct TempRoot {
  fs::path path;
  TempRoot() {
    static std::atomic<int> n{0};
    path = fs::temp_directory_path() / ("wb-manifest-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::create_directories(path);
  }
  ~TempRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const fs::path& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel, std::ios::binary) << text;
  }
  // Writes modules/module05/module.yaml and, unless told not to, the lab's starter and solution.
  fs::path manifest(const std::string& yaml, bool with_sources = true) const {
    if (with_sources) {
      write("labs/module05/lab.cu", "// starter\n");
      write("solutions/module05/lab.cu", "// solution\n");
    }
    write("modules/module05/module.yaml", yaml);
    return path / "modules/module05/module.yaml";
  }
};

// A valid manifest with one lab; `extra` is appended to the lab's keys (indented 4).
// Line numbers: the lab's keys start at line 7 ("  - id: lab"); `extra` starts at line 19.
std::string manifest_text(const std::string& extra = "") {
  return "format_version: 1\n"                               // 1
         "module: 5\n"                                       // 2
         "title: \"Test module\"\n"                          // 3
         "objectives:\n"                                     // 4
         "  - \"one\"\n"                                     // 5
         "labs:\n"                                           // 6
         "  - id: lab\n"                                     // 7
         "    title: \"A lab\"\n"                            // 8
         "    goal: \"Goal.\"\n"                             // 9
         "    source: lab.cu\n"                              // 10
         "    steps: [\"Run it.\"]\n"                        // 11
         "    params:\n"                                     // 12
         "      - {name: N, default: 1024, quick: 64}\n"     // 13
         "    checks: [ok]\n"                                // 14
         "    vars: {bytes: \"4*N\"}\n"                      // 15
         "    metrics:\n"                                    // 16
         "      - {name: t_ms, unit: ms, expected: {min: \"bytes / (dram_gbps*1e9) * 1e3\"}}\n"  // 17
         "      - {name: n, unit: count, expected: {equals: \"N\"}}\n"  // 18
         + extra;
}

}  // namespace

TEST_CASE("the real module14 manifest loads with no problems", "[manifest]") {
  fs::path root = WORKBOOK_SOURCE_DIR;
  Problems p;
  Module m = read_module(root / "modules/module14/module.yaml", 14, root, p);
  INFO(problems_text(p));
  CHECK(p.empty());
  CHECK(m.number == 14);
  CHECK(m.id == "module14");
  CHECK_FALSE(m.title.empty());
  CHECK_FALSE(m.objectives.empty());
  auto lab = std::find_if(m.labs.begin(), m.labs.end(), [](const auto& l) { return l.name == "tiled_gemm"; });
  REQUIRE(lab != m.labs.end());
  CHECK(lab->id == "module14/tiled_gemm");
  CHECK(lab->source == "tiled_gemm.cu");
  CHECK(lab->language == workbook::LabLanguage::cuda);
  CHECK(lab->timeout_s == 120);
  CHECK_FALSE(lab->checks.empty());
  CHECK_FALSE(lab->metrics.empty());
  CHECK_FALSE(lab->derived.empty());
  CHECK_FALSE(lab->predictions.empty());
  REQUIRE(lab->params.size() >= 1);
  CHECK(lab->params[0].name == "N");
  CHECK(lab->params[0].default_value == 1024);
  CHECK(lab->params[0].quick == std::optional<double>(512));
}

TEST_CASE("the fixture course's manifest loads with no problems", "[manifest]") {
  fs::path root = fs::path(WORKBOOK_FIXTURE_DIR) / "course";
  Problems p;
  Module m = read_module(root / "modules/module01/module.yaml", 1, root, p);
  INFO(problems_text(p));
  CHECK(p.empty());
  REQUIRE(m.labs.size() == 7);
  const auto& pass = m.labs[0];
  CHECK(pass.id == "module01/pass_lab");
  CHECK(pass.language == workbook::LabLanguage::host);
  CHECK(pass.timeout_s == 20);
  REQUIRE(pass.vars.size() == 1);
  CHECK(pass.vars[0].expr == "2*N");
  REQUIRE(pass.predictions.size() == 3);
  CHECK(pass.predictions[0].kind == workbook::PredictionKind::number);
  CHECK(pass.predictions[1].kind == workbook::PredictionKind::choice);
  CHECK(pass.predictions[1].choices == std::vector<std::string>{"a sum", "a product"});
  CHECK(pass.predictions[2].kind == workbook::PredictionKind::yesno);
  CHECK(pass.predictions[2].answer_expr == "count > 500");
  REQUIRE(pass.metrics.size() == 2);
  REQUIRE(pass.metrics[1].reference);
  CHECK(pass.metrics[1].reference->gpu == "t4");
  CHECK(pass.metrics[1].expected->max_expr == "sm_count * 100");
  CHECK(m.labs[3].timeout_s == 3);
}

TEST_CASE("bad_course module03 reports every BAD line as file:line: field: what", "[manifest]") {
  fs::path root = fs::path(WORKBOOK_FIXTURE_DIR) / "bad_course";
  fs::path file = root / "modules/module03/module.yaml";
  Problems p;
  REQUIRE_NOTHROW(read_module(file, 3, root, p));
  INFO(problems_text(p));
  const std::string f = "modules/module03/module.yaml";

  // Every line marked BAD has at least one problem on that line.
  std::ifstream in(file);
  std::set<int> bad_lines;
  int no = 0;
  for (std::string line; std::getline(in, line);) {
    ++no;
    if (line.find("# BAD") != std::string::npos) bad_lines.insert(no);
  }
  REQUIRE(bad_lines.size() >= 7);
  for (int line : bad_lines) {
    INFO("BAD line " << line);
    CHECK(has_problem(p, {f + ":" + std::to_string(line) + ": "}));
  }
  // ...and no problem is reported on a line that is fine (nothing spurious, no line 0).
  static const std::regex where("^" + f + ":([0-9]+): [a-z_\\[\\]0-9.A-Z-]+: .+");
  for (const auto& line : p.list()) {
    INFO(line);
    std::smatch m;
    REQUIRE(std::regex_match(line, m, where));
    CHECK(bad_lines.count(std::stoi(m[1])) == 1);
  }

  CHECK(has_problem(p, {f + ":3: module: says 4 but the file is in module03"}));
  CHECK(has_problem(p, {f + ":5: objectives: must be a list"}));
  CHECK(has_problem(p, {f + ":6: colour: unknown key"}));
  CHECK(has_problem(p, {f + ":8: labs[0].id: must be [a-z][a-z0-9_]*"}));
  CHECK(has_problem(p, {f + ":11: labs[0].source: must be a plain file name"}));
  CHECK(has_problem(p, {f + ":17: ", "expected.min: expression uses unknown name 'bytes'"}));
  CHECK(has_problem(p, {f + ":17: ", "expected.min: expression uses unknown name 'dram_gbpss'"}));
  CHECK(has_problem(p, {f + ":19: labs[0].predictions[0].kind: must be number, choice or yesno, got 'guess'"}));
}

TEST_CASE("a minimal manifest written here loads clean (the base of the cases below)", "[manifest]") {
  TempRoot root;
  Problems p;
  Module m = read_module(root.manifest(manifest_text()), 5, root.path, p);
  INFO(problems_text(p));
  CHECK(p.empty());
  REQUIRE(m.labs.size() == 1);
  CHECK(m.labs[0].id == "module05/lab");
  CHECK(m.labs[0].language == workbook::LabLanguage::cuda);
  CHECK(m.labs[0].timeout_s == 60);
  CHECK(m.labs[0].metrics[0].expected->min_expr == "bytes / (dram_gbps*1e9) * 1e3");
  CHECK(m.labs[0].metrics[0].expected->line == 17);
}

TEST_CASE("a lab whose source is missing is reported for labs/ and solutions/", "[manifest]") {
  TempRoot root;
  root.write("solutions/module05/lab.cu", "// only the solution\n");
  Problems p;
  read_module(root.manifest(manifest_text(), /*with_sources=*/false), 5, root.path, p);
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {"modules/module05/module.yaml:10: labs[0].source: labs/module05/lab.cu does not exist"}));

  TempRoot bare;
  Problems q;
  read_module(bare.manifest(manifest_text(), false), 5, bare.path, q);
  INFO(problems_text(q));
  CHECK(q.list().size() == 2);
  CHECK(has_problem(q, {":10: labs[0].source: solutions/module05/lab.cu does not exist"}));
}

TEST_CASE("an expression naming an unknown figure is reported with its line", "[manifest]") {
  TempRoot root;
  Problems p;
  read_module(root.manifest(manifest_text("    derived:\n"                                                  // 19
                                          "      - name: gbps\n"                                            // 20
                                          "        expr: \"bytes / t_ms / 1e6\"\n"                         // 21
                                          "        expected: {max: \"dram_gbs * 1.1\"}\n")),               // 22
              5, root.path, p);
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {"modules/module05/module.yaml:22: labs.lab.metrics.gbps.expected.max: "
                        "expression uses unknown name 'dram_gbs'"}));
}

TEST_CASE("a derived metric may use reported metrics, a var may not use a later var", "[manifest]") {
  TempRoot root;
  Problems ok;
  read_module(root.manifest(manifest_text("    derived:\n      - {name: gbps, expr: \"bytes / t_ms / 1e6\"}\n")), 5,
              root.path, ok);
  INFO(problems_text(ok));
  CHECK(ok.empty());

  // vars are evaluated in order: `a` cannot use `b`, which is defined after it.
  std::string text = manifest_text();
  text.replace(text.find("vars: {bytes: \"4*N\"}"), std::string("vars: {bytes: \"4*N\"}").size(),
               "vars: {a: \"b*2\", b: \"4*N\", bytes: \"a\"}");
  Problems p;
  read_module(root.manifest(text), 5, root.path, p);
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {":15: labs.lab.vars.a: expression uses unknown name 'b'"}));
}

TEST_CASE("an expression with a syntax error is a problem, not an exception", "[manifest]") {
  TempRoot root;
  Problems p;
  REQUIRE_NOTHROW(read_module(root.manifest(manifest_text("    derived:\n      - {name: x, expr: \"t_ms * (2\"}\n")), 5,
                              root.path, p));
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {":20: labs.lab.derived.x: expression 't_ms * (2'"}));
}

TEST_CASE("a prediction scored against a metric that does not exist is reported", "[manifest]") {
  TempRoot root;
  Problems p;
  read_module(root.manifest(manifest_text(
                  "    predictions:\n"                                                                     // 19
                  "      - {id: guess, kind: number, unit: ms, metric: t_ms, prompt: \"How long?\"}\n"      // 20
                  "      - {id: other, kind: number, unit: ms, metric: nope_ms, prompt: \"And this?\"}\n")),  // 21
              5, root.path, p);
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(has_problem(p, {"modules/module05/module.yaml:21: labs.lab.predictions.other.metric: "
                        "'nope_ms' is not a metric or derived metric of this lab"}));
}

TEST_CASE("choice and yes/no predictions need exactly one valid answer", "[manifest]") {
  TempRoot root;
  Problems p;
  read_module(root.manifest(manifest_text(
                  "    predictions:\n"                                                                         // 19
                  "      - {id: a, kind: choice, prompt: \"?\", choices: [up, down], answer: sideways}\n"      // 20
                  "      - {id: b, kind: choice, prompt: \"?\", choices: [up, down]}\n"                        // 21
                  "      - {id: c, kind: yesno, prompt: \"?\", answer: maybe}\n"                               // 22
                  "      - {id: d, kind: yesno, prompt: \"?\", answer: yes, answer_expr: \"N > 1\"}\n"         // 23
                  "      - {id: e, kind: choice, prompt: \"?\", choices: [only], answer_expr: \"zz\"}\n"       // 24
                  "      - {id: f, kind: yesno, prompt: \"?\", answer_expr: \"t_ms > 1\"}\n")),                // 25
              5, root.path, p);
  INFO(problems_text(p));
  CHECK(has_problem(p, {":20: labs[0].predictions[0].answer: 'sideways' is not one of the choices"}));
  CHECK(has_problem(p, {":21: labs[0].predictions[1]", "give exactly one of `answer` and `answer_expr`"}));
  CHECK(has_problem(p, {":22: labs[0].predictions[2].answer: must be yes or no"}));
  CHECK(has_problem(p, {":23: labs[0].predictions[3].answer: give exactly one"}));
  CHECK(has_problem(p, {":24: labs[0].predictions[4].choices: needs at least two options"}));
  CHECK(has_problem(p, {":24: labs.lab.predictions.e.answer_expr: expression uses unknown name 'zz'"}));
  CHECK(p.list().size() == 6);  // f is fine: answer_expr may use reported metrics
}

TEST_CASE("duplicate names, a reserved parameter and bad build options are reported", "[manifest]") {
  TempRoot root;
  std::string text = manifest_text(
      "    build: {flags: [\"-O3\", \"O2\"], libs: [\"cublas\"]}\n"  // 19
      "    derived:\n"                                            // 20
      "      - {name: t_ms, expr: \"n\"}\n");                    // 21
  text.replace(text.find("checks: [ok]"), std::string("checks: [ok]").size(), "checks: [ok, ok]");
  text.replace(text.find("- {name: N, default: 1024, quick: 64}"), std::string("- {name: N, default: 1024, quick: 64}").size(),
               "- {name: seed, default: 1}");
  Problems p;
  read_module(root.manifest(text), 5, root.path, p);
  INFO(problems_text(p));
  CHECK(has_problem(p, {":19: labs[0].build.flags: 'O2' is not a compiler option"}));
  CHECK(has_problem(p, {":19: labs[0].build.libs: 'cublas' must be written -lNAME"}));
  CHECK(has_problem(p, {":7: labs[0].metrics/derived/vars: 't_ms' appears twice"}));
  CHECK(has_problem(p, {":7: labs[0].checks: 'ok' appears twice"}));
  CHECK(has_problem(p, {":13: labs[0].params[0].name: must be", "reserved seed or quick"}));
}

TEST_CASE("a Python lab has a .py source and no build options, and a .py source needs language python", "[manifest]") {
  TempRoot root;
  root.write("labs/module05/lab.py", "print('starter')\n");
  root.write("solutions/module05/lab.py", "print('solution')\n");
  auto with = [&](const std::string& lines) {
    std::string text = manifest_text(lines);
    text.replace(text.find("source: lab.cu"), std::string("source: lab.cu").size(), "source: lab.py");
    return text;
  };
  {
    Problems p;
    Module m = read_module(root.manifest(with("    language: python\n")), 5, root.path, p);
    INFO(problems_text(p));
    CHECK(p.empty());
    REQUIRE(m.labs.size() == 1);
    CHECK(m.labs[0].language == workbook::LabLanguage::python);
    CHECK(std::string(workbook::to_string(m.labs[0].language)) == "python");
  }
  {
    Problems p;
    read_module(root.manifest(with("")), 5, root.path, p);
    INFO(problems_text(p));
    CHECK(has_problem(p, {"labs[0].source: a .py source needs `language: python`"}));
  }
  {
    Problems p;
    read_module(root.manifest(with("    language: python\n    build: {flags: [\"-O3\"]}\n")), 5, root.path, p);
    INFO(problems_text(p));
    CHECK(has_problem(p, {"labs[0].build.flags: a Python lab is not compiled with flags or libraries"}));
  }
  {
    Problems p;
    read_module(root.manifest(manifest_text("    language: python\n")), 5, root.path, p);  // lab.cu
    INFO(problems_text(p));
    CHECK(has_problem(p, {"labs[0].source: a Python lab's source must be a .py file"}));
  }
}

TEST_CASE("format_version, module number and timeout are checked", "[manifest]") {
  TempRoot root;
  std::string text = manifest_text("    timeout_s: 0\n    language: rust\n");
  text.replace(text.find("format_version: 1"), 17, "format_version: 2");
  text.replace(text.find("module: 5"), 9, "module: 6");
  Problems p;
  read_module(root.manifest(text), 5, root.path, p);
  INFO(problems_text(p));
  CHECK(has_problem(p, {":1: format_version: is 2, this runner reads version 1"}));
  CHECK(has_problem(p, {":2: module: says 6 but the file is in module05"}));
  CHECK(has_problem(p, {":19: labs[0].timeout_s: must be between 0 and 3600 seconds"}));
  CHECK(has_problem(p, {":20: labs[0].language: must be cuda, host or python"}));
  CHECK(p.list().size() == 4);
}

TEST_CASE("an empty manifest, a list, or broken YAML is reported and never throws", "[manifest]") {
  TempRoot root;
  for (const auto& [text, expect] : std::vector<std::pair<std::string, std::string>>{
           {"", "modules/module05/module.yaml: is empty"},
           {"# only a comment\n", "modules/module05/module.yaml: is empty"},
           {"- a\n- b\n", "(top level): must be a mapping"},
           {"title: [unclosed\n", "is not valid YAML"},
       }) {
    INFO("text: " << text);
    Problems p;
    Module m;
    REQUIRE_NOTHROW(m = read_module(root.manifest(text), 5, root.path, p));
    INFO(problems_text(p));
    CHECK(m.labs.empty());
    REQUIRE(p.list().size() == 1);
    CHECK(p.list()[0].find(expect) != std::string::npos);
  }
}

TEST_CASE("required keys of the module and of a lab are reported missing", "[manifest]") {
  TempRoot root;
  Problems p;
  read_module(root.manifest("format_version: 1\nmodule: 5\nlabs:\n  - id: lab\n    source: lab.cu\n"), 5, root.path, p);
  INFO(problems_text(p));
  CHECK(has_problem(p, {":1: title: is required"}));
  CHECK(has_problem(p, {":1: objectives: is required"}));
  CHECK(has_problem(p, {":4: labs[0].title: is required"}));
  CHECK(has_problem(p, {":4: labs[0].goal: is required"}));
  CHECK(has_problem(p, {":4: labs[0].steps: is required"}));
  CHECK(has_problem(p, {":4: labs[0].checks: is required"}));
  CHECK(p.list().size() == 6);
}

// --- variants -------------------------------------------------------------------------

TEST_CASE("variants load with their kind and edits when every edit applies to the solution", "[manifest][variants]") {
  TempRoot root;
  root.manifest(manifest_text());
  root.write("solutions/module05/lab.cu", "int grid = (n + 255) / 256;\nif (i < n) c[i] = a[i];\n");
  Problems p;
  Module m = read_module(root.manifest(manifest_text("    variants:\n"                                    // 19
                                                     "      - id: grid_rounds_down\n"                     // 20
                                                     "        kind: wrong\n"                              // 21
                                                     "        what: \"the tail is never computed\"\n"     // 22
                                                     "        edits:\n"                                   // 23
                                                     "          - {from: \"(n + 255) / 256\", to: \"n / 256\"}\n"
                                                     "      - id: slow_one\n"
                                                     "        kind: slow\n"
                                                     "        what: \"x\"\n"
                                                     "        edits: [{from: \"i < n\", to: \"i < n && true\"}]\n"),
                                     false),
                         5, root.path, p);
  INFO(problems_text(p));
  CHECK(p.empty());
  REQUIRE(m.labs.size() == 1);
  REQUIRE(m.labs[0].variants.size() == 2);
  CHECK(m.labs[0].variants[0].id == "grid_rounds_down");
  CHECK(m.labs[0].variants[0].kind == workbook::VariantKind::wrong);
  CHECK(m.labs[0].variants[0].edits.at(0).to == "n / 256");
  CHECK(m.labs[0].variants[1].kind == workbook::VariantKind::slow);
}

TEST_CASE("a variant edit matching the solution zero or two times is dev check's problem, not a load's",
          "[manifest][variants]") {
  TempRoot root;
  root.manifest(manifest_text());
  root.write("solutions/module05/lab.cu", "a = b;\na = b;\nc = d;\n");
  Problems p;
  const Module m = read_module(root.manifest(manifest_text("    variants:\n"                                       // 19
                                                           "      - id: twice\n"                                   // 20
                                                           "        kind: wrong\n"                                 // 21
                                                           "        what: \"x\"\n"                                 // 22
                                                           "        edits:\n"                                      // 23
                                                           "          - {from: \"a = b;\", to: \"a = 0;\"}\n"      // 24
                                                           "      - id: gone\n"                                    // 25
                                                           "        kind: sideways\n"                              // 26
                                                           "        what: \"x\"\n"                                 // 27
                                                           "        edits:\n"                                      // 28
                                                           "          - {from: \"c = d;\", to: \"c = 1;\"}\n"      // 29
                                                           "          - {from: \"c = d;\", to: \"c = 2;\"}\n"),    // 30
                                             false),
                               5, root.path, p);
  INFO(problems_text(p));
  // A load reads no solution: only the manifest's own field is wrong.
  CHECK(p.list().size() == 1);
  CHECK(has_problem(p, {":26: labs[0].variants[1].kind: must be wrong"}));
  Problems q;  // dev check's (content/manifest_load.hpp)
  workbook::check_module_beyond_manifest(m, root.path, nullptr, q);
  INFO(problems_text(q));
  CHECK(q.list().size() == 2);
  CHECK(has_problem(q, {"module.yaml:24: labs.lab.variants.twice.edits[0].from: occurs 2 times in the solution"}));
  CHECK(has_problem(q, {"module.yaml:30: labs.lab.variants.gone.edits[1].from: occurs 0 times in the solution after the earlier edits"}));
}

TEST_CASE("a band's failing side: declared with `fails`, else one end's side, else the unit's", "[manifest][sides]") {
  TempRoot root;
  Problems p;
  const std::string extra =
      "    derived:\n"                                                                          // 19
      "      - {name: ms2, expr: \"t_ms\", unit: ms, expected: {min: \"1\", max: \"2\"}}\n"       // 20
      "      - {name: bw, expr: \"1/t_ms\", unit: GB/s, expected: {min: \"1\", max: \"2\"}}\n"    // 21
      "      - {name: sp, expr: \"2*t_ms\", unit: x, expected: {min: \"1\", max: \"2\"}}\n"       // 22
      "      - {name: sp2, expr: \"3*t_ms\", unit: x, expected: {min: \"1\", max: \"2\", fails: below, hint_other: \"fast\"}}\n"
      "      - {name: top, expr: \"4*t_ms\", unit: x, expected: {max: \"2\"}}\n";
  Module m = read_module(root.manifest(manifest_text(extra)), 5, root.path, p);
  INFO(problems_text(p));
  REQUIRE(p.empty());
  const auto& lab = m.labs[0];
  CHECK(lab.metrics[0].expected->fails == workbook::FailSide::below);  // t_ms: a min alone fails below
  CHECK(lab.metrics[1].expected->fails == workbook::FailSide::both);   // equals
  CHECK(lab.derived[0].expected->fails == workbook::FailSide::above);  // a time
  CHECK(lab.derived[1].expected->fails == workbook::FailSide::below);  // a rate
  CHECK(lab.derived[2].expected->fails == workbook::FailSide::both);   // a ratio says nothing by itself
  CHECK(lab.derived[3].expected->fails == workbook::FailSide::below);
  CHECK(lab.derived[3].expected->hint_other == "fast");
  CHECK(lab.derived[4].expected->fails == workbook::FailSide::above);  // a max alone fails above
}

TEST_CASE("`fails` must be above, below or both, and an `equals` figure cannot be one-sided", "[manifest][sides]") {
  TempRoot root;
  Problems p;
  const std::string extra =
      "    derived:\n"
      "      - {name: sp, expr: \"t_ms\", unit: x, expected: {min: \"1\", max: \"2\", fails: slower}}\n"
      "      - {name: ex, expr: \"n\", unit: count, expected: {equals: \"N\", fails: above}}\n";
  read_module(root.manifest(manifest_text(extra)), 5, root.path, p);
  CHECK(has_problem(p, {"module.yaml:20", "fails", "must be above, below or both, got 'slower'"}));
  CHECK(has_problem(p, {"module.yaml:21", "fails", "fails on both sides"}));
}

TEST_CASE("the real manifests: a vector add's share of the DRAM figure fails only below", "[manifest][sides]") {
  fs::path root = WORKBOOK_SOURCE_DIR;
  Problems p;
  Module m = read_module(root / "modules/module04/module.yaml", 4, root, p);
  INFO(problems_text(p));
  REQUIRE(p.empty());
  const auto& lab = m.labs.front();
  auto find = [&](const std::string& name) {
    for (const auto* list : {&lab.metrics, &lab.derived})
      for (const auto& x : *list)
        if (x.name == name) return x;
    FAIL("no metric " << name);
    return workbook::MetricSpec{};
  };
  CHECK(find("pct_of_bandwidth").expected->fails == workbook::FailSide::below);
  CHECK_FALSE(find("pct_of_bandwidth").expected->hint_other.empty());
  CHECK(find("kernel_us").expected->fails == workbook::FailSide::above);
}

TEST_CASE("an exercised: list holding a map (an unquoted ': ') is a problem, not an exception", "[manifest]") {
  // Found by the manifest fuzz target (seed 11): yaml-cpp's bad conversion escaped the loader.
  TempRoot root;
  Problems p;
  read_module(root.manifest(manifest_text("    exercised:\n"
                                          "      square: [ok_check, cowise: x picks the column]\n"
                                          "      {a: b}: [ok_check]\n")),
              5, root.path, p);
  INFO(problems_text(p));
  CHECK(has_problem(p, {"exercised.square: lists something that is not a check's name"}));
  CHECK(has_problem(p, {"exercised: each key must be a function's name"}));
}
