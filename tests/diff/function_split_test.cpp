// Tests for diff/function_split: kernels, device and host functions, templates, types,
// and the things that must not fool a brace counter (comments, strings, macros).
#include <catch2/catch.hpp>

#include "diff/function_split.hpp"

using workbook::diff::blank_non_code;
using workbook::diff::code_spans;
using workbook::diff::CodeSpan;
using workbook::diff::Piece;
using workbook::diff::PieceKind;
using workbook::diff::split_lines;
using workbook::diff::split_pieces;

namespace {

std::vector<std::string> names(const std::vector<Piece>& pieces) {
  std::vector<std::string> out;
  for (const auto& p : pieces) out.push_back(p.name);
  return out;
}

const Piece& piece(const std::vector<Piece>& pieces, const std::string& name) {
  for (const auto& p : pieces)
    if (p.name == name) return p;
  FAIL("no piece " << name);
  return pieces.front();
}

}  // namespace

TEST_CASE("split: kernels, device and host functions in file order, with their lines", "[diff]") {
  const std::string text =
      "#include <cstdio>\n"                                   // 1
      "#define BLOCK 256\n"                                   // 2
      "\n"                                                    // 3
      "// Adds two vectors.\n"                                // 4
      "__global__ void __launch_bounds__(256) add(const float* a, float* b, int n) {\n"  // 5
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"    // 6
      "  if (i < n) { b[i] += a[i]; }\n"                      // 7
      "}\n"                                                   // 8
      "\n"                                                    // 9
      "__device__ __forceinline__ float twice(float x) { return 2 * x; }\n"  // 10
      "__host__ __device__ int both(int x) { return x; }\n"  // 11
      "int main(int argc, char** argv) {\n"                   // 12
      "  return 0;\n"                                         // 13
      "}\n";                                                  // 14
  auto pieces = split_pieces(text);
  REQUIRE(names(pieces) == std::vector<std::string>{"(file scope)", "add", "twice", "both", "main"});
  CHECK(pieces[0].kind == PieceKind::file_scope);
  CHECK(pieces[0].line_numbers == std::vector<int>{1, 2, 3, 9});
  const Piece& add = piece(pieces, "add");
  CHECK(add.kind == PieceKind::kernel);
  CHECK(add.first_line == 4);  // the comment directly above belongs to it
  CHECK(add.lines.size() == 5);
  CHECK(add.lines.back() == "}");
  CHECK(piece(pieces, "twice").kind == PieceKind::device);
  CHECK(piece(pieces, "both").kind == PieceKind::host);  // __host__ __device__: compiled for both
  CHECK(piece(pieces, "main").kind == PieceKind::host);
  CHECK(piece(pieces, "main").line_numbers == std::vector<int>{12, 13, 14});
}

TEST_CASE("split: templates, namespaces, types, operators and overloads", "[diff]") {
  const std::string text =
      "namespace wb {\n"
      "template <typename T, int N = 4>\n"
      "__global__ void scale(T* x, T k) { x[threadIdx.x] *= k; }\n"
      "}  // namespace wb\n"
      "struct __align__(16) Params { int n; float k; };\n"
      "enum class Mode { fast, slow };\n"
      "struct Less { bool operator()(int a, int b) const { return a < b; } };\n"
      "float Matrix::at(int r, int c) const { return data[r * cols + c]; }\n"
      "Matrix& Matrix::operator+=(const Matrix& o) { return *this; }\n"
      "Matrix::Matrix(int r) : rows{r}, cols(r) { data = new float[r * r]; }\n"
      "static const int kTable[] = {1, 2, 3};\n"
      "int f(int x) { return x; }\n"
      "int f(float x) { return 1; }\n";
  auto pieces = split_pieces(text);
  CHECK(names(pieces) == std::vector<std::string>{"(file scope)", "scale", "struct Params", "enum Mode", "struct Less",
                                                  "Matrix::at", "Matrix::operator+=", "Matrix::Matrix", "f", "f #2"});
  CHECK(piece(pieces, "scale").kind == PieceKind::kernel);
  CHECK(piece(pieces, "scale").first_line == 2);  // the template line is part of it
  CHECK(piece(pieces, "struct Params").kind == PieceKind::type);
  // the initializer stays at file scope, with the namespace lines
  CHECK(piece(pieces, "(file scope)").line_numbers == std::vector<int>{1, 4, 11});
}

TEST_CASE("split: default arguments, explicit specializations and inline namespaces", "[diff]") {
  const std::string text =
      "inline namespace v1 {\n"
      "void run(Opts o = {}) {\n"
      "  go(o);\n"
      "}\n"
      "}\n"
      "template <> void add<float>(float* a) {}\n";
  auto pieces = split_pieces(text);
  CHECK(names(pieces) == std::vector<std::string>{"(file scope)", "run", "add"});
  CHECK(piece(pieces, "run").line_numbers == std::vector<int>{2, 3, 4});  // not just the default's braces
}

TEST_CASE("code_spans: with members, a type's functions are spans and the type is none", "[diff]") {
  const std::string code = blank_non_code(
      "struct Buf {\n"                       // 1
      "  Buf(int n) : n_{n} {\n"             // 2
      "  }\n"                                // 3
      "  int size() const { return n_; }\n"  // 4
      "  int n_;\n"                          // 5
      "};\n"                                 // 6
      "void f() { auto l = [] {}; }\n");     // 7
  auto spans = [&](bool members) {
    std::vector<std::string> out;
    for (const CodeSpan& s : code_spans(code, members))
      out.push_back(s.name + " " + std::to_string(s.first) + "-" + std::to_string(s.last));
    return out;
  };
  CHECK(spans(false) == std::vector<std::string>{"struct Buf 1-6", "f 7-7"});
  CHECK(spans(true) == std::vector<std::string>{"Buf 2-3", "size 4-4", "f 7-7"});
}

TEST_CASE("split: braces in comments, strings, characters and macros do not count", "[diff]") {
  const std::string text =
      "#define OPEN_LOOP for (int i = 0; i < 4; ++i) {\n"
      "#define WRAP(x) \\\n"
      "  do { x; } while (0)\n"
      "/* a comment with a { brace\n"
      "   over two lines } */\n"
      "void a() {\n"
      "  const char* s = \"}{ \\\" }\";  // and a } here\n"
      "  char c = '{';\n"
      "  const char* raw = R\"x(})\" })x\";\n"
      "  int big = 1'000'000;\n"
      "  WRAP(puts(\"{\"));\n"
      "}\n"
      "void b() {}\n";
  auto pieces = split_pieces(text);
  REQUIRE(names(pieces) == std::vector<std::string>{"(file scope)", "a", "b"});
  CHECK(piece(pieces, "a").line_numbers == std::vector<int>{4, 5, 6, 7, 8, 9, 10, 11, 12});  // with its comment
  CHECK(piece(pieces, "b").line_numbers == std::vector<int>{13});
  CHECK(piece(pieces, "(file scope)").line_numbers == std::vector<int>{1, 2, 3});  // the macros
}

TEST_CASE("blank_non_code keeps offsets and lines and blanks only what is not code", "[diff]") {
  const std::string text = "int x = 1; // c {\n\"a{\" '}' /* } */ y\n";
  const std::string code = blank_non_code(text);
  REQUIRE(code.size() == text.size());
  CHECK(code == "int x = 1;       \n\"  \" ' '         y\n");
  CHECK(split_lines("a\r\nb\n") == std::vector<std::string>{"a", "b"});
  CHECK(split_lines("").empty());
  CHECK(split_pieces("").empty());
}
