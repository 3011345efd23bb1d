// Tests for diff/line_diff and diff/piece_diff: the shortest edit script on known small
// cases, identical and empty inputs, hunks with context, and the kernel-by-kernel pairing.
#include <catch2/catch.hpp>

#include "diff/piece_diff.hpp"

using workbook::diff::diff_lines;
using workbook::diff::diff_pieces;
using workbook::diff::Edit;
using workbook::diff::EditOp;
using workbook::diff::make_hunks;
using workbook::diff::PairState;
using workbook::diff::piece_diffs_json;

namespace {

using Lines = std::vector<std::string>;

// The edit script as text: " a" kept, "-a" removed, "+a" added.
std::string script(const Lines& a, const Lines& b) {
  std::string out;
  for (const Edit& e : diff_lines(a, b)) {
    if (e.op == EditOp::same) out += " " + a[static_cast<std::size_t>(e.a)];
    if (e.op == EditOp::removed) out += "-" + a[static_cast<std::size_t>(e.a)];
    if (e.op == EditOp::added) out += "+" + b[static_cast<std::size_t>(e.b)];
  }
  return out;
}

int edits(const Lines& a, const Lines& b) {
  int n = 0;
  for (const Edit& e : diff_lines(a, b)) n += e.op == EditOp::same ? 0 : 1;
  return n;
}

}  // namespace

TEST_CASE("line diff: known small cases", "[diff]") {
  CHECK(script({"a", "b", "c"}, {"a", "x", "c"}) == " a-b+x c");
  CHECK(script({"a", "b", "c"}, {"a", "c"}) == " a-b c");
  CHECK(script({"a", "c"}, {"a", "b", "c"}) == " a+b c");
  CHECK(script({"a", "b"}, {"b", "a"}).size() == 6);
  CHECK(edits({"a", "b"}, {"b", "a"}) == 2);
  // Myers' own example: ABCABBA -> CBABAC takes 5 edits
  CHECK(edits({"A", "B", "C", "A", "B", "B", "A"}, {"C", "B", "A", "B", "A", "C"}) == 5);
}

TEST_CASE("line diff: identical and empty inputs", "[diff]") {
  CHECK(script({"a", "b"}, {"a", "b"}) == " a b");
  CHECK(make_hunks(diff_lines({"a", "b"}, {"a", "b"}), {"a", "b"}, {"a", "b"}).empty());
  CHECK(diff_lines({}, {}).empty());
  CHECK(script({}, {"x", "y"}) == "+x+y");
  CHECK(script({"x", "y"}, {}) == "-x-y");
  auto h = make_hunks(diff_lines({}, {"x"}), {}, {"x"});
  REQUIRE(h.size() == 1);
  CHECK(h[0].a_count == 0);
  CHECK(h[0].b_count == 1);
}

TEST_CASE("hunks: context around changes, far changes apart, near ones together", "[diff]") {
  Lines a, b;
  for (int i = 0; i < 20; ++i) a.push_back("l" + std::to_string(i));
  b = a;
  b[2] = "changed2";
  b[15] = "changed15";
  auto hunks = make_hunks(diff_lines(a, b), a, b, 3);
  REQUIRE(hunks.size() == 2);
  CHECK(hunks[0].a_start == 0);
  CHECK(hunks[0].a_count == 6);  // lines 0..5: two before, the change, three after
  CHECK(hunks[0].lines[2] == std::pair<char, std::string>{'-', "l2"});
  CHECK(hunks[0].lines[3] == std::pair<char, std::string>{'+', "changed2"});
  CHECK(hunks[1].a_start == 12);
  CHECK(hunks[1].b_count == 7);
  b[8] = "changed8";  // within 2 * 3 lines of both: one hunk
  CHECK(make_hunks(diff_lines(a, b), a, b, 3).size() == 1);
}

TEST_CASE("piece diff: pairs by name, says identical / only in yours / only in the reference", "[diff]") {
  const std::string mine =
      "#include <x>\n"
      "__global__ void k(float* x) {\n  x[0] = 1;\n}\n"
      "void helper() {}\n"
      "int main() { return 0; }\n";
  const std::string ref =
      "#include <x>\n"
      "__device__ float sq(float v) { return v * v; }\n"
      "__global__ void k(float* x) {\n  x[0] = sq(2);\n}\n"
      "int main() { return 0; }\n";
  auto d = diff_pieces(mine, ref);
  REQUIRE(d.size() == 5);
  CHECK(d[0].name == "(file scope)");
  CHECK(d[0].state == PairState::identical);
  CHECK(d[1].name == "sq");
  CHECK(d[1].state == PairState::only_reference);
  CHECK(d[1].reference_line == 2);
  CHECK(d[2].name == "k");
  CHECK(d[2].state == PairState::changed);
  REQUIRE(d[2].hunks.size() == 1);
  CHECK(d[2].hunks[0].lines[1] == std::pair<char, std::string>{'-', "  x[0] = 1;"});
  CHECK(d[2].hunks[0].lines[2] == std::pair<char, std::string>{'+', "  x[0] = sq(2);"});
  CHECK(d[3].name == "main");
  CHECK(d[3].state == PairState::identical);
  CHECK(d[4].name == "helper");
  CHECK(d[4].state == PairState::only_yours);
  auto j = piece_diffs_json(d);
  CHECK(j[2]["state"] == "changed");
  CHECK(j[2]["kind"] == "kernel");
  CHECK(j[2]["hunks"][0]["header"] == "@@ -2,3 +3,3 @@");  // file lines: yours from 2, the reference's from 3
  CHECK(j[1]["yours_line"].is_null());
  // a language the splitter does not know: one whole-file piece
  auto whole = diff_pieces("a\nb\n", "a\nc\n", false);
  REQUIRE(whole.size() == 1);
  CHECK(whole[0].name == "(whole file)");
  CHECK(whole[0].state == PairState::changed);
}
