// dev/starter_scope: a starter differs from its solution only in the functions the learner
// writes (a TODO in them, or named by the manifest's `exercised:`).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "dev/starter_scope.hpp"

using workbook::starter_scope_problems;

namespace {

const std::string kScopeSolution = R"(// The solution: its own comments.
#include <cstdio>

constexpr int kBlock = 256;

__global__ void scale(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

void launch(float* x, int n) { scale<<<(n + kBlock - 1) / kBlock, kBlock>>>(x, n); }

int main() {
  std::printf("ok\n");
  return 0;
}
)";

// The starter: kernel left to the learner, other comments and layout of its own.
const std::string kScopeStarter = R"(// The starter: the learner writes scale.
#include <cstdio>

constexpr int kBlock = 256;   // threads per block

// TODO: double each element of x below n.
__global__ void scale(float* x, int n) {}

void launch(float* x, int n) {
  scale<<<(n + kBlock - 1) / kBlock, kBlock>>>(x, n);  // one thread an element
}

int main() {
  std::printf("ok\n");
  return 0;
}
)";

std::vector<std::string> scope_problems_of(const std::string& starter, const std::vector<std::string>& declared = {}) {
  return starter_scope_problems("labs/m/lab.cu", starter, "solutions/m/lab.cu", kScopeSolution, declared);
}

std::string scope_replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("starter scope: the TODO's function may differ; comments and layout anywhere", "[starter_scope]") {
  CHECK(scope_problems_of(kScopeStarter).empty());
}

TEST_CASE("starter scope: code outside the learner's functions must be the solution's", "[starter_scope]") {
  SECTION("a constant at file scope") {
    const auto p = scope_problems_of(scope_replaced(kScopeStarter, "kBlock = 256", "kBlock = 128"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].rfind("labs/m/lab.cu: (file scope)", 0) == 0);
    CHECK(p[0].find("solutions/m/lab.cu:") != std::string::npos);
    CHECK(p[0].find("put a TODO in it") != std::string::npos);
  }
  SECTION("a function without a TODO, named with its line in each file") {
    const auto p = scope_problems_of(scope_replaced(kScopeStarter, "(n + kBlock - 1) / kBlock", "n / kBlock"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("launch (line 9) differs from solutions/m/lab.cu:11") != std::string::npos);
  }
  SECTION("a function only the solution has, or only the starter") {
    const auto p = scope_problems_of(scope_replaced(kScopeStarter, "int main() {", "void extra() {}\n\nint main() {"));
    REQUIRE(p.size() == 1);
    CHECK(p[0].find("extra (line") != std::string::npos);
    CHECK(p[0].find("the solution has none") != std::string::npos);
    const std::string solution_helper = scope_replaced(kScopeSolution, "int main() {", "int helper() { return 1; }\n\nint main() {");
    const auto q = starter_scope_problems("labs/m/lab.cu", kScopeStarter, "solutions/m/lab.cu", solution_helper, {});
    REQUIRE(q.size() == 1);
    CHECK(q[0].find("helper (only the solution has it)") != std::string::npos);
  }
}

TEST_CASE("starter scope: a function the manifest's exercised: names may differ without a TODO", "[starter_scope]") {
  const std::string starter = scope_replaced(kScopeStarter, "(n + kBlock - 1) / kBlock", "n / kBlock");
  CHECK_FALSE(scope_problems_of(starter).empty());
  CHECK(scope_problems_of(starter, {"launch"}).empty());
}

TEST_CASE("starter scope: a member defined outside its class is the learner's when its TODO is in it",
          "[starter_scope]") {
  const std::string solution =
      "struct Buf { ~Buf(); float* p; };\n"
      "Buf::~Buf() { cudaFree(p); }\n";
  const std::string starter =
      "struct Buf { ~Buf(); float* p; };\n"
      "Buf::~Buf() {\n"
      "  // TODO: release p.\n"
      "}\n";
  CHECK(starter_scope_problems("labs/m/lab.cu", starter, "solutions/m/lab.cu", solution, {}).empty());
}
