// The by-hand build line check of `dev check` (runner/src/dev/build_lines.hpp).
#include "dev/build_lines.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace workbook;

namespace {
LabSpec cuda_lab(std::vector<std::string> libs = {}) {
  LabSpec lab;
  lab.id = "module15/matvec";
  lab.source = "matvec.cu";
  lab.language = LabLanguage::cuda;
  lab.libs = std::move(libs);
  return lab;
}
bool mentions(const std::vector<std::string>& problems, const std::string& part) {
  for (const auto& p : problems)
    if (p.find(part) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("a header whose nvcc line compiles its own file with the manifest's libraries is fine", "[dev]") {
  const std::string text =
      "/* Matrix-vector products.\n"
      "Build and run by hand:\n"
      "  nvcc -O3 -arch=native -I labs/common solutions/module15/matvec.cu -o matvec -lcublas && ./matvec\n*/\n";
  CHECK(build_line_problems(cuda_lab({"-lcublas"}), "solutions/module15/matvec.cu", text).empty());
}

TEST_CASE("a solution header that compiles the starter's path is reported with its line", "[dev]") {
  const std::string text = "// x\n//  nvcc -O3 -I labs/common labs/module15/matvec.cu -o matvec -lcublas\n";
  auto problems = build_line_problems(cuda_lab({"-lcublas"}), "solutions/module15/matvec.cu", text);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "solutions/module15/matvec.cu:2: the nvcc line compiles labs/module15/matvec.cu; it should compile this file, "
        "solutions/module15/matvec.cu");
}

TEST_CASE("a missing library, or no build line at all, is a problem", "[dev]") {
  const std::string no_lib = "//  nvcc -O3 -I labs/common labs/module15/matvec.cu -o matvec\n";
  CHECK(mentions(build_line_problems(cuda_lab({"-lcublas"}), "labs/module15/matvec.cu", no_lib), "does not link -lcublas"));
  // -lcublasLt is not -lcublas.
  const std::string other = "//  nvcc labs/module15/matvec.cu -o matvec -lcublasLt\n";
  CHECK(mentions(build_line_problems(cuda_lab({"-lcublas"}), "labs/module15/matvec.cu", other), "does not link -lcublas"));
  const std::string prose = "// Compile it with nvcc and run it.\nint main() {}\n";
  CHECK(mentions(build_line_problems(cuda_lab(), "labs/module15/matvec.cu", prose), "no by-hand build line"));
}

TEST_CASE("host labs (the test fixtures) have no nvcc line to check", "[dev]") {
  LabSpec lab = cuda_lab();
  lab.language = LabLanguage::host;
  CHECK(build_line_problems(lab, "labs/module01/pass_lab.cpp", "int main() {}\n").empty());
}
