// Tests for content validation (issue 10): manifests and exercise banks that used to be
// accepted are rejected, each problem as file:line: field: what, with the file named
// relative to the content root.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "content/exercises.hpp"
#include "content/manifest_load.hpp"
#include "specs/gpu_specs.hpp"
#include "util/yaml_reader.hpp"

#include "../support/problems.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using wbtest::has_problem;
using wbtest::problems_text;

namespace {

// A content root with one lab's sources and, with `sheets`, the real data/gpus.yaml.
struct Root : wbtest::TempDir {
  explicit Root(bool sheets = false) {
    put("labs/module05/lab.cu", "// starter\n");
    put("solutions/module05/lab.cu", "// solution\n");
    if (sheets) {
      fs::create_directories(path / "data");
      fs::copy_file(fs::path(WORKBOOK_SOURCE_DIR) / "data/gpus.yaml", path / "data/gpus.yaml");
    }
  }
  void put(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel, std::ios::binary) << text;
  }
  // A load's problems; with the sheets, of a manifest that loads clean, those dev check
  // adds too (its values with the T4 sheet's figures).
  Problems load(const std::string& yaml) const {
    put("modules/module05/module.yaml", yaml);
    Problems p;
    const Module m = read_module(path / "modules/module05/module.yaml", 5, path, p);
    if (p.empty() && fs::exists(path / "data/gpus.yaml")) {
      const auto specs = load_gpu_specs(path / "data/gpus.yaml");
      check_module_beyond_manifest(m, path, find_gpu(specs, "t4"), p);
    }
    return p;
  }
  Problems load_bank(const std::string& yaml) const {
    put("exercises/module05.yaml", yaml);
    Problems p;
    read_exercises(path / "exercises/module05.yaml", 5, "exercises/module05.yaml", p);
    return p;
  }
};

// A valid manifest; each piece can be replaced to make it bad. Lines in comments.
struct Manifest {
  std::string id = "lab";
  std::string steps = "[\"Run it.\"]";
  std::string param = "{name: N, default: 1024, quick: 64}";
  std::string vars = "{bytes: \"4*N\"}";
  std::string metric_n = "{name: n, unit: count, expected: {equals: \"N\"}}";
  std::string prediction_prompt = "\"How many?\"";
  std::string after_steps;  // inserted after line 11
  std::string tail;         // appended at the end (line 21 on)
  std::string text() const {
    return "format_version: 1\n"                                                       // 1
           "module: 5\n"                                                               // 2
           "title: \"Test module\"\n"                                                  // 3
           "objectives:\n"                                                             // 4
           "  - \"one\"\n"                                                             // 5
           "labs:\n"                                                                   // 6
           "  - id: " + id + "\n"                                                      // 7
           "    title: \"A lab\"\n"                                                    // 8
           "    goal: \"Goal.\"\n"                                                     // 9
           "    source: lab.cu\n"                                                      // 10
           "    steps: " + steps + "\n"                                                // 11
           + after_steps +
           "    params:\n"                                                             // 12
           "      - " + param + "\n"                                                   // 13
           "    checks: [ok]\n"                                                        // 14
           "    vars: " + vars + "\n"                                                  // 15
           "    metrics:\n"                                                            // 16
           "      - {name: t_ms, unit: ms, expected: {min: \"bytes / (dram_gbps*1e9) * 1e3\"}}\n"  // 17
           "      - " + metric_n + "\n"                                                // 18
           "    predictions:\n"                                                        // 19
           "      - {id: guess, kind: number, metric: n, prompt: " + prediction_prompt + "}\n"  // 20
           + tail;
  }
};

const char* kFile = "modules/module05/module.yaml";

std::string at(int line) { return std::string(kFile) + ":" + std::to_string(line) + ": "; }

}  // namespace

TEST_CASE("content validation: the base manifest loads clean, with and without spec sheets", "[content][validation]") {
  Root plain, sheets(true);
  Problems a = plain.load(Manifest{}.text());
  INFO(problems_text(a));
  CHECK(a.empty());
  Problems b = sheets.load(Manifest{}.text());
  INFO(problems_text(b));
  CHECK(b.empty());
}

TEST_CASE("content validation: an expected min above its max", "[content][validation]") {
  Root root(true);
  Manifest m;
  m.metric_n = "{name: n, unit: count, expected: {min: \"2*N\", max: \"N\"}}";  // needs no device figures
  Problems p = root.load(m.text());
  INFO(problems_text(p));
  CHECK(has_problem(p, {at(18), "labs.lab.metrics.n.expected", "min (2048) is above max (1024)"}));

  Manifest t4;  // only with the T4 sheet's figures
  t4.metric_n = "{name: n, unit: count, expected: {min: \"dram_gbps\", max: \"dram_gbps / 2\"}}";
  Problems q = root.load(t4.text());
  INFO(problems_text(q));
  CHECK(has_problem(q, {at(18), "labs.lab.metrics.n.expected", "min (320) is above max (160)", "T4"}));

  Manifest ok;  // min == max is a point, not a problem
  ok.metric_n = "{name: n, unit: count, expected: {min: \"N\", max: \"N\"}}";
  CHECK(root.load(ok.text()).empty());
}

TEST_CASE("content validation: a check named like a metric (one namespace in the results)", "[content][validation]") {
  Root root;
  Manifest m;
  m.metric_n = "{name: ok, unit: count, expected: {equals: \"N\"}}";  // the check is also called ok
  m.tail = "";
  std::string text = m.text();
  text.replace(text.find("metric: n,"), 10, "metric: ok,");
  Problems p = root.load(text);
  INFO(problems_text(p));
  CHECK(has_problem(p, {at(7), "labs[0].checks: 'ok' is also a metric's name"}));
}

TEST_CASE("content validation: an empty id or prompt, and an empty step list", "[content][validation]") {
  Root root;
  Manifest empty_id;
  empty_id.id = "\"\"";
  CHECK(has_problem(root.load(empty_id.text()), {at(7), "labs[0].id: must not be empty"}));
  Manifest blank_prompt;
  blank_prompt.prediction_prompt = "\"  \"";
  Problems p = root.load(blank_prompt.text());
  INFO(problems_text(p));
  CHECK(has_problem(p, {at(20), "labs[0].predictions[0].prompt: must not be empty"}));
  Manifest no_steps;
  no_steps.steps = "[]";
  Problems q = root.load(no_steps.text());
  INFO(problems_text(q));
  CHECK(has_problem(q, {at(11), "labs[0].steps: ", "at least one"}));
}

TEST_CASE("content validation: a duplicate key and a second document", "[content][validation]") {
  Root root;
  Manifest twice;
  twice.after_steps = "    title: \"Again\"\n";  // line 12
  Problems p = root.load(twice.text());
  INFO(problems_text(p));
  CHECK(has_problem(p, {at(12), "labs[0].title: ", "appears twice", "line 8"}));

  Manifest two_docs;
  two_docs.tail = "---\nformat_version: 1\n";  // the second document starts at line 21
  Problems q = root.load(two_docs.text());
  INFO(problems_text(q));
  CHECK(has_problem(q, {at(21), "second YAML document"}));
}

TEST_CASE("content validation: a division by zero in vars, at default parameters", "[content][validation]") {
  Root root(true);
  Manifest plain;  // no device figure needed
  plain.vars = "{bytes: \"4*N\", per: \"N / (N - 1024)\"}";
  Problems p = root.load(plain.text());
  INFO(problems_text(p));
  CHECK(has_problem(p, {at(15), "labs.lab.vars.per: ", "not a finite number"}));

  Manifest t4;  // with the T4 sheet's figures: sm_count is 40
  t4.vars = "{bytes: \"4*N\", per_sm: \"N / (sm_count - 40)\"}";
  Problems q = root.load(t4.text());
  INFO(problems_text(q));
  CHECK(has_problem(q, {at(15), "labs.lab.vars.per_sm: ", "not a finite number", "T4"}));
}

TEST_CASE("content validation: parameter values must be whole numbers in range", "[content][validation]") {
  Root root;
  for (const std::string& param : {std::string("{name: N, default: 1024, quick: 1e30}"),
                                   std::string("{name: N, default: 1.5, quick: 64}"),
                                   std::string("{name: N, default: 1e16, quick: 64}")}) {
    INFO(param);
    Manifest m;
    m.param = param;
    Problems p = root.load(m.text());
    INFO(problems_text(p));
    CHECK(has_problem(p, {at(13), "labs[0].params[0].", "whole number"}));
  }
}

TEST_CASE("content validation: YAML syntax errors name the content-relative file and the field", "[content][validation]") {
  Root root;
  Manifest m;
  m.param = "{name: N, default: 1024, quick: 64";  // unclosed flow map
  Problems p = root.load(m.text());
  INFO(problems_text(p));
  REQUIRE(p.list().size() == 1);
  CHECK(p.list()[0].rfind(kFile + std::string(":"), 0) == 0);  // not the absolute path
  CHECK(p.list()[0].find(root.path.string()) == std::string::npos);
  CHECK(p.list()[0].find("is not valid YAML") != std::string::npos);
  CHECK(p.list()[0].find(": labs[0].") != std::string::npos);

  Manifest colon;
  colon.after_steps = "    title: a: b\n";  // line 12
  Problems q = root.load(colon.text());
  INFO(problems_text(q));
  REQUIRE(q.list().size() == 1);
  CHECK(q.list()[0].rfind(at(12) + "labs[0].title: is not valid YAML", 0) == 0);
}

TEST_CASE("content validation: exercise banks reject empty ids, prompts and step lists", "[content][validation]") {
  Root root;
  const std::string bank =
      "format_version: 1\n"                                  // 1
      "module: 5\n"                                          // 2
      "items:\n"                                             // 3
      "  - id: \"\"\n"                                       // 4
      "    kind: recall\n"                                   // 5
      "    prompt: \"\"\n"                                   // 6
      "    answer: \"a\"\n"                                  // 7
      "worked_examples:\n"                                   // 8
      "  - id: ex\n"                                         // 9
      "    title: \"T\"\n"                                   // 10
      "    problem: \"P\"\n"                                 // 11
      "    steps: []\n"                                      // 12
      "  - id: ex2\n"                                        // 13
      "    title: \"T\"\n"                                   // 14
      "    problem: \"P\"\n"                                 // 15
      "    steps:\n"                                         // 16
      "      - {prompt: \"\", answer: \"x\"}\n"              // 17
      "    problem: \"again\"\n";                            // 18
  Problems p = root.load_bank(bank);
  INFO(problems_text(p));
  CHECK(has_problem(p, {"exercises/module05.yaml:4: items[0].id: must not be empty"}));
  CHECK(has_problem(p, {"exercises/module05.yaml:6: items[0].prompt: must not be empty"}));
  CHECK(has_problem(p, {"exercises/module05.yaml:12: worked_examples[0].steps: ", "at least one"}));
  CHECK(has_problem(p, {"exercises/module05.yaml:17: worked_examples[1].steps[0].prompt: must not be empty"}));
  CHECK(has_problem(p, {"exercises/module05.yaml:18: worked_examples[1].problem: ", "appears twice"}));
}
