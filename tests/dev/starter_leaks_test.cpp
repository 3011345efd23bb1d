// Solution code quoted in a starter's comments (runner/src/dev/starter_leaks.hpp).
#include "dev/starter_leaks.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace workbook;

namespace {
const std::string kSolution =
    "// Kahan's sum.\n"
    "float kahan(const float* x, int n) {\n"
    "  float sum = 0.0f, c = 0.0f;\n"
    "  for (int i = 0; i < n; ++i) {\n"
    "    const float y = x[i] - c;  // the correction first\n"
    "    const float t = sum + y;\n"
    "    c = (t - sum) - y;\n"
    "    sum = t;\n"
    "  }\n"
    "  WB_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));\n"
    "  __syncthreads();\n"
    "  for (size_t r = 0; r < len.size(); ++r) row_ptr[r + 1] = row_ptr[r] + len[r];\n"
    "  const int begin = row_ptr[r], end = row_ptr[r + 1];\n"
    "  return 0;\n"
    "}\n";

std::vector<std::string> leaks(const std::string& starter) {
  return starter_leak_problems("labs/m/k.cu", starter, "solutions/m/k.cu", kSolution, false);
}
}  // namespace

TEST_CASE("a TODO that says what to achieve passes", "[dev]") {
  const std::string starter =
      "float kahan(const float* x, int n) {\n"
      "  // TODO: keep a running compensation for the low-order bits each addition loses,\n"
      "  // and feed it back into the next term (see `workbook hint`).\n"
      "  return 0;\n"
      "}\n";
  CHECK(leaks(starter).empty());
}

TEST_CASE("a comment holding one of the solution's statements is reported with both lines", "[dev]") {
  const std::string starter =
      "float kahan(const float* x, int n) {\n"
      "  // TODO: then update the correction,\n"
      "  //   c   =  (t - sum) - y,\n"
      "  // and carry on.\n"
      "  return 0;\n"
      "}\n";
  const auto problems = leaks(starter);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "labs/m/k.cu:3: a comment gives the solution's code 'c = (t - sum) - y' (solutions/m/k.cu:7); say what to "
        "achieve and why, and move the how to the manifest's hints");
}

TEST_CASE("a statement split over two comment lines, a macro's argument and a loop body are found", "[dev]") {
  const std::string starter =
      "/* TODO: cudaStreamBeginCapture(s,\n"
      "   cudaStreamCaptureModeGlobal), then fill row_ptr:\n"
      "   row_ptr[r+1] = row_ptr[r] + len[r] for every r. */\n"
      "int main() { return 0; }\n";
  const auto problems = leaks(starter);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].rfind("labs/m/k.cu:1: a comment gives the solution's code "
                          "'cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)' (solutions/m/k.cu:10)",
                          0) == 0);
  CHECK(problems[1].find("'row_ptr[r + 1] = row_ptr[r] + len[r]' (solutions/m/k.cu:12)") != std::string::npos);
}

TEST_CASE("trivial lines, code the starter already has, and the solution's own comments are not leaks", "[dev]") {
  const std::string starter =
      "float kahan(const float* x, int n) {\n"
      "  float sum = 0.0f, c = 0.0f;\n"
      "  // sum = 0.0f, c = 0.0f are given above; call __syncthreads(); then return 0;\n"
      "  // the correction first\n"
      "  return 0;\n"
      "}\n";
  CHECK(leaks(starter).empty());
}

TEST_CASE("an assignment quoted without its declared type is found", "[dev]") {
  const auto problems =
      leaks("// TODO: t = sum + y is too short to count, but begin = row_ptr[r], end = row_ptr[r + 1] is not\nint k;\n");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("'begin = row_ptr[r], end = row_ptr[r + 1]' (solutions/m/k.cu:13)") != std::string::npos);
}

TEST_CASE("Python comments are read with #, and a # inside a string is not a comment", "[dev]") {
  const std::string solution = "def add(x, y):\n    out = tl.load(x_ptr + offsets, mask=mask)\n    s = '#x'\n";
  const std::string starter = "def add(x, y):\n    # TODO: out = tl.load(x_ptr + offsets, mask=mask)\n    s = '#x'\n";
  const auto problems = starter_leak_problems("labs/m/a.py", starter, "solutions/m/a.py", solution, true);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].rfind("labs/m/a.py:2: a comment gives the solution's code 'out = tl.load(x_ptr + offsets, "
                          "mask=mask)' (solutions/m/a.py:2)",
                          0) == 0);
}
