// Tests for the manifest's `hints:` (content/manifest_load): a lab's progressive hints are
// read in order; an empty list, too many hints, an entry that is not a text or is blank,
// and a repeated hint are problems on their own line. Every lab of the real content whose
// starter the learner edits has at least two hints, so a new lab cannot forget them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "content/catalog.hpp"
#include "content/lab_id.hpp"
#include "content/manifest_load.hpp"
#include "util/file_text.hpp"
#include "../support/one_lab_module.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;

namespace {

Module load_with_hints(const wbtest::TempDir& root, const std::string& hints, Problems& p) {
  return wbtest::read_one_lab_module(root, "    checks: [ok]\n" + hints, p);
}

}  // namespace

TEST_CASE("manifest hints: a lab's hints are read in order", "[manifest][hint]") {
  wbtest::TempDir root;
  Problems p;
  Module m = load_with_hints(root,
                             "    hints:\n"
                             "      - \"Think about which thread owns which element.\"\n"
                             "      - >-\n"
                             "        The index is blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "        guard it.\n"
                             "      - \"Nearly the code: if (i < n) c[i] = ...\"\n",
                             p);
  INFO(wbtest::problems_text(p));
  REQUIRE(p.empty());
  REQUIRE(m.labs.size() == 1);
  const auto& h = m.labs[0].hints;
  REQUIRE(h.size() == 3);
  CHECK(h[0] == "Think about which thread owns which element.");
  CHECK(h[1] == "The index is blockIdx.x * blockDim.x + threadIdx.x; guard it.");
  CHECK(h[2] == "Nearly the code: if (i < n) c[i] = ...");
}

TEST_CASE("manifest hints: a lab without hints has none", "[manifest][hint]") {
  wbtest::TempDir root;
  Problems p;
  Module m = load_with_hints(root, "", p);
  INFO(wbtest::problems_text(p));
  REQUIRE(p.empty());
  CHECK(m.labs.at(0).hints.empty());
}

TEST_CASE("manifest hints: an empty list or a text instead of a list is a problem", "[manifest][hint]") {
  wbtest::TempDir root;
  Problems p;
  load_with_hints(root, "    hints: []\n", p);
  CHECK(wbtest::problems_text(p).find(":12: labs[0].hints: is empty") != std::string::npos);
  Problems q;
  load_with_hints(root, "    hints: \"just one\"\n", q);
  CHECK(wbtest::problems_text(q).find(":12: labs[0].hints: must be a list of texts") != std::string::npos);
}

TEST_CASE("manifest hints: more than the allowed number is a problem", "[manifest][hint]") {
  wbtest::TempDir root;
  Problems p;
  std::string hints = "    hints:\n";
  for (std::size_t i = 0; i <= kMaxHints; ++i) hints += "      - \"hint " + std::to_string(i + 1) + "\"\n";
  Module m = load_with_hints(root, hints, p);
  const std::string all = wbtest::problems_text(p);
  INFO(all);
  CHECK(all.find(":12: labs[0].hints: has 7 hints, at most 6 are allowed") != std::string::npos);
  CHECK(p.list().size() == 1);
}

TEST_CASE("manifest hints: a wrong type, a blank or a repeated entry is a problem on its line", "[manifest][hint]") {
  wbtest::TempDir root;
  Problems p;
  load_with_hints(root,
                  "    hints:\n"                          // 12
                  "      - \"a fine first hint\"\n"       // 13
                  "      - {idea: \"a map\"}\n"           // 14
                  "      - [\"a\", \"list\"]\n"           // 15
                  "      - \"   \"\n"                     // 16
                  "      - \"a fine first hint\"\n"       // 17
                  "      -\n"                             // 18: null
                  "      - 42\n",                         // 19: a scalar, taken as the text "42"
                  p);
  const std::string all = wbtest::problems_text(p);
  INFO(all);
  CHECK(all.find(":14: labs[0].hints[1]: must be a text") != std::string::npos);
  CHECK(all.find(":15: labs[0].hints[2]: must be a text") != std::string::npos);
  CHECK(all.find(":16: labs[0].hints[3]: is empty") != std::string::npos);
  CHECK(all.find(":17: labs[0].hints[4]: repeats an earlier hint") != std::string::npos);
  CHECK(all.find("labs[0].hints[5]: must be a text") != std::string::npos);
  CHECK(all.find("hints[6]") == std::string::npos);
  CHECK(all.find("hints[0]") == std::string::npos);
  CHECK(all.find(":12: labs[0].hints: has 7 hints, at most 6 are allowed") != std::string::npos);  // 7 entries
  CHECK(p.list().size() == 6);
}

TEST_CASE("every lab of the real content whose starter you edit has at least two hints", "[manifest][hint]") {
  const Catalog catalog{fs::path(WORKBOOK_SOURCE_DIR)};
  int labs = 0;
  for (const auto& m : catalog.load_all()) {
    for (const auto& lab : m.labs) {
      const auto starter = read_file_text(catalog.starter_path(lab));
      const auto solution = read_file_text(catalog.solution_path(lab));
      REQUIRE(starter);
      if (solution && *starter == *solution) continue;  // a demo: nothing for the learner to write
      ++labs;
      INFO(lab.id << " has " << lab.hints.size() << " hints: add a `hints:` list to "
                  << m.file.filename().string() << " (docs/authoring.md, \"Hints\")");
      CHECK(lab.hints.size() >= 2);
      CHECK(lab.hints.size() <= kMaxHints);
    }
  }
  CHECK(labs >= 20);
}
