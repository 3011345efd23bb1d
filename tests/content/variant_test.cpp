// Tests for content/variant: edits apply in order, exactly once each; the source is
// written where the runner builds it; unknown ids list the lab's variants.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "content/variant.hpp"
#include "../support/temp_dir.hpp"
#include "util/error.hpp"

using namespace workbook;

namespace {
VariantSpec variant(std::vector<SourceEdit> edits) {
  VariantSpec v;
  v.id = "v";
  v.what = "test";
  v.edits = std::move(edits);
  return v;
}
}  // namespace

TEST_CASE("apply_variant applies each edit in order to the text as it stands", "[variants]") {
  const std::string text = "grid = (n + b - 1) / b;\nif (i < n) c[i] = x;\n";
  VariantSpec v = variant({{"(n + b - 1) / b", "n / b", 3}, {"n / b;", "n / b + 1;", 4}});
  CHECK(apply_variant(text, v, "m.yaml") == "grid = n / b + 1;\nif (i < n) c[i] = x;\n");
}

TEST_CASE("apply_variant refuses an edit that is missing or ambiguous, naming every bad edit", "[variants]") {
  VariantSpec v = variant({{"i < n", "i <= n", 7}, {"nothing here", "x", 8}});
  try {
    apply_variant("if (i < n) a; if (i < n) b;", v, "m.yaml");
    FAIL("no exception");
  } catch (const ContentError& e) {
    REQUIRE(e.problems().size() == 2);
    CHECK(e.problems()[0].find("m.yaml:7: variants.v.edits[0].from: occurs 2 times") != std::string::npos);
    CHECK(e.problems()[1].find("m.yaml:8: variants.v.edits[1].from: occurs 0 times") != std::string::npos);
  }
}

TEST_CASE("write_variant_source writes <lab>.<variant>.<ext> with the edits applied", "[variants]") {
  wbtest::TempDir tmp;
  const auto solution = tmp.path / "lab.cu";
  std::ofstream(solution) << "int x = 1;\n";
  LabSpec lab;
  lab.name = "lab";
  lab.id = "module05/lab";
  lab.variants = {variant({{"x = 1", "x = 2", 1}})};
  const auto out = write_variant_source(lab, lab.variants[0], solution, tmp.path / "variants");
  CHECK(out == tmp.path / "variants" / "lab.v.cu");
  std::ifstream in(out);
  std::stringstream s;
  s << in.rdbuf();
  CHECK(s.str() == "int x = 2;\n");
}

TEST_CASE("find_variant names the lab's variants when the id is unknown", "[variants]") {
  LabSpec lab;
  lab.id = "module05/lab";
  lab.variants = {variant({})};
  CHECK(&find_variant(lab, "v") == &lab.variants[0]);
  try {
    find_variant(lab, "nope");
    FAIL("no exception");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "module05/lab has no variant 'nope'");
    CHECK(e.hint() == "its variants: v");
  }
}
