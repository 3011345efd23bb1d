// TODOs in functions no check runs (runner/src/dev/exercised.hpp).
#include "dev/exercised.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../support/text_checks.hpp"

using namespace workbook;
using wbtest::any_contains;

namespace {

// A pipeline lab in miniature: a kernel, a launcher the learner completes, a serial
// launcher (complete), a struct with a member function, a lambda, a macro with braces.
const std::string kStarter =
    "#define CHECK(x) do { if (!(x)) { abort(); } } while (0)\n"   // 1
    "namespace {\n"                                                 // 2
    "struct Host {\n"                                               // 3
    "  float* a = nullptr;\n"                                       // 4
    "  int size() const { return 1; }\n"                            // 5
    "};\n"                                                          // 6
    "}\n"                                                           // 7
    "template <class T>\n"                                          // 8
    "__global__ void add(const T* a, T* c, int n)\n"                // 9
    "{\n"                                                           // 10
    "  // TODO: one thread per element; guard i < n.\n"             // 11
    "}\n"                                                           // 12
    "void enqueue_serial(float* c, int n) {\n"                      // 13
    "  add<float><<<(n + 255) / 256, 256>>>(nullptr, c, n);\n"      // 14
    "  const char* s = \"{ not a brace }\";\n"                      // 15
    "}\n"                                                           // 16
    "// TODO: cut the work into segments (the comment above the function).\n"  // 17
    "void enqueue_pipeline(float* c, int n, int segments) {\n"      // 18
    "  auto each = [&](int k) { if (k < 0) { return; } };\n"        // 19
    "  for (int k = 0; k < segments; ++k) { each(k); }\n"           // 20
    "}\n"                                                           // 21
    "int main() {\n"                                                // 22
    "  enqueue_serial(nullptr, 1000003);\n"                         // 23
    "  enqueue_pipeline(nullptr, 1000003, 4);\n"                    // 24
    "  return 0;\n"                                                 // 25
    "}\n";                                                          // 26

using Exercised = std::vector<std::pair<std::string, std::vector<std::string>>>;

// kStarter with a TODO comment at the end of each of `lines` (1-based).
std::string with_todos_at(const std::vector<int>& lines) {
  std::istringstream in(kStarter);
  std::string out, text;
  for (int line = 1; std::getline(in, text); ++line) {
    out += text;
    if (std::find(lines.begin(), lines.end(), line) != lines.end()) out += " // TODO: probe";
    out += '\n';
  }
  return out;
}

std::vector<std::string> problems(const std::string& text, const Exercised& ex, bool python = false) {
  return unexercised_todo_problems(python ? "labs/m/k.py" : "labs/m/k.cu", text, python, "modules/m/module.yaml (lab k)",
                                   ex);
}
}  // namespace

TEST_CASE("functions: kernels, templates, members and free functions, not lambdas or macros", "[dev]") {
  // Every key of `exercised:` that is no function is a problem: here the lambda, the macro and the struct.
  Exercised ex;
  for (const char* name : {"size", "add", "enqueue_serial", "enqueue_pipeline", "main", "each", "CHECK", "Host"})
    ex.push_back({name, {"c_ok"}});
  CHECK(problems(kStarter, ex) ==
        std::vector<std::string>{"modules/m/module.yaml (lab k): exercised.each: no function each in labs/m/k.cu",
                                 "modules/m/module.yaml (lab k): exercised.CHECK: no function CHECK in labs/m/k.cu",
                                 "modules/m/module.yaml (lab k): exercised.Host: no function Host in labs/m/k.cu"});
  // Where each function's lines end: a TODO on a line belongs to the function that holds it,
  // one outside every function to the next function.
  const auto sites = todo_sites(with_todos_at({5, 8, 12, 16, 19, 21}), false);
  std::vector<std::pair<int, std::string>> owners;
  for (const auto& s : sites) owners.emplace_back(s.line, s.function);
  CHECK(owners == std::vector<std::pair<int, std::string>>{
                      {5, "size"},
                      {8, "add"},                // the template line
                      {11, "add"},
                      {12, "add"},               // its closing brace
                      {16, "enqueue_serial"},    // the quoted braces on line 15 count for nothing
                      {17, "enqueue_pipeline"},
                      {19, "enqueue_pipeline"},  // inside the lambda: the lambda is no function
                      {21, "enqueue_pipeline"}});
}

TEST_CASE("functions in extern \"C\", kernels with attributes, constructors and destructors", "[dev]") {
  // The scanner is diff/function_split's: a `{` in a member initializer list is no body,
  // __launch_bounds__(...) no name, and a destructor is named by its class.
  const std::string text =
      "extern \"C\" {\n"                                          // 1
      "void f(float* a) { /* TODO: f */ }\n"                      // 2
      "}\n"                                                       // 3
      "__global__ void __launch_bounds__(256) k(float* a) {\n"    // 4
      "  // TODO: k\n"                                            // 5
      "}\n"                                                       // 6
      "struct Buf {\n"                                            // 7
      "  explicit Buf(int n) : n_{n} { /* TODO: allocate */ }\n"  // 8
      "  ~Buf() { /* TODO: free */ }\n"                           // 9
      "  int n_;\n"                                               // 10
      "};\n";                                                     // 11
  std::vector<std::pair<int, std::string>> owners;
  for (const auto& s : todo_sites(text, false)) owners.emplace_back(s.line, s.function);
  CHECK(owners == std::vector<std::pair<int, std::string>>{{2, "f"}, {5, "k"}, {8, "Buf"}, {9, "Buf"}});
}

TEST_CASE("a TODO belongs to the function around it, or to the next one when above it", "[dev]") {
  const auto sites = todo_sites(kStarter, false);
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].line == 11);
  CHECK(sites[0].function == "add");
  CHECK(sites[1].line == 17);
  CHECK(sites[1].function == "enqueue_pipeline");
}

TEST_CASE("prose that mentions TODOs is not a TODO", "[dev]") {
  const std::string text =
      "/* Lab: complete the two TODOs.\n"
      "   Your TODOs, in order: the kernel, then the launcher. */\n"
      "void f() {}\n";
  CHECK(todo_sites(text, false).empty());
}

TEST_CASE("every TODO-bearing function declared as exercised passes", "[dev]") {
  const Exercised ex{{"add", {"serial_odd"}}, {"enqueue_pipeline", {"pipe_odd", "pipe_odd_bounds"}}};
  CHECK(problems(kStarter, ex).empty());
}

TEST_CASE("a TODO in a function the manifest does not map to a check fails, naming the function and the file", "[dev]") {
  const Exercised ex{{"add", {"serial_odd"}}};
  const auto p = problems(kStarter, ex);
  REQUIRE(p.size() == 1);
  CHECK(p[0].rfind("labs/m/k.cu:17: the TODO in enqueue_pipeline is run by no declared check", 0) == 0);
  CHECK(any_contains(p, "modules/m/module.yaml (lab k)"));
}

TEST_CASE("a TODO in a function nothing calls fails even when declared", "[dev]") {
  const std::string text =
      "__global__ void used(float* c, int n) { if (n) c[0] = 1; }\n"
      "__global__ void orphan(float* c, int n) {\n"
      "  // TODO: write it\n"
      "}\n"
      "int main() { used<<<1, 1>>>(nullptr, 1); /* orphan is only named in a comment */ }\n";
  const auto p = problems(text, {{"orphan", {"c_ok"}}});
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("orphan holds a TODO but nothing in the starter calls it") != std::string::npos);
  CHECK(p[0].rfind("labs/m/k.cu:3:", 0) == 0);
}

TEST_CASE("an exercised name that is no function of the starter fails", "[dev]") {
  const Exercised ex{{"add", {"a"}}, {"enqueue_pipeline", {"b"}}, {"enqueue_pipline", {"b"}}};
  const auto p = problems(kStarter, ex);
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "modules/m/module.yaml (lab k): exercised.enqueue_pipline: no function enqueue_pipline in labs/m/k.cu");
}

TEST_CASE("a TODO after the last function fails", "[dev]") {
  const auto p = problems("int main() { return 0; }\n// TODO: the end\n", {});
  REQUIRE(p.size() == 1);
  CHECK(p[0].rfind("labs/m/k.cu:2: a TODO after the last function", 0) == 0);
}

TEST_CASE("Python: a TODO in a def's body belongs to that def", "[dev]") {
  const std::string text =
      "import triton\n"
      "\n"
      "@triton.jit\n"
      "def add_kernel(a, b, c, n, BLOCK: tl.constexpr):\n"
      "    # TODO: the body\n"
      "    pass\n"
      "\n"
      "def launch(a, b, c, n):\n"
      "    def grid(meta):\n"
      "        # TODO: the grid\n"
      "        return (1,)\n"
      "    add_kernel[grid](a, b, c, n, BLOCK=1024)\n"
      "\n"
      "launch(1, 2, 3, 4)\n";
  const auto sites = todo_sites(text, true);
  REQUIRE(sites.size() == 2);
  CHECK(sites[0].function == "add_kernel");
  CHECK(sites[1].function == "launch");  // grid is local to launch
  CHECK(problems(text, {{"add_kernel", {"c_ok"}}, {"launch", {"c_ok"}}}, true).empty());
  CHECK(problems(text, {{"add_kernel", {"c_ok"}}}, true).size() == 1);
}

TEST_CASE("exercised may name only checks the lab reports", "[dev]") {
  const Exercised ex{{"enqueue_pipeline", {"pipe_odd", "memcheck_quick"}},
                     {"destroy_streams", {"cuda_error_only"}},
                     {"copy_peer", {"p2p_copy_ok"}},
                     {"wait_pipeline", {"pipe_od"}}};
  const std::string solution = "int main() { if (peers) wb::check(\"p2p_copy_ok\", ok); }\n";
  const auto with_memcheck = unknown_exercised_checks("m.yaml (lab k)", ex, {"pipe_odd"}, true, solution);
  REQUIRE(with_memcheck.size() == 1);
  CHECK(with_memcheck[0].rfind("m.yaml (lab k): exercised.wait_pipeline: 'pipe_od' is no check the lab reports", 0) == 0);
  // memcheck_quick is a check only of a lab that asks for the memcheck pass
  const auto without = unknown_exercised_checks("m.yaml (lab k)", ex, {"pipe_odd"}, false, solution);
  CHECK(without.size() == 2);
  CHECK(any_contains(without, "exercised.enqueue_pipeline: 'memcheck_quick'"));
}
