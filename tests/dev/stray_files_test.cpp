// Tests for dev/stray_files: labs/ and solutions/ hold only the labs' sources.
#include <catch2/catch.hpp>

#include "dev/stray_files.hpp"

#include "../support/temp_dir.hpp"

using workbook::stray_file_problems;

namespace {

void place_content_file(const wbtest::TempDir& dir, const std::string& rel) {
  std::filesystem::create_directories((dir.path / rel).parent_path());
  dir.write(rel, "x");
}

}  // namespace

TEST_CASE("stray files: only the sources the manifests declare lie under labs/ and solutions/", "[dev][stray]") {
  wbtest::TempDir dir;
  for (const char* f : {"labs/common/workbook.cuh", "labs/module14/tiled_gemm.cu", "solutions/module14/tiled_gemm.cu"})
    place_content_file(dir, f);
  const std::map<std::string, std::set<std::string>> sources{{"module14", {"tiled_gemm.cu"}}};
  CHECK(stray_file_problems(dir.path, sources).empty());

  place_content_file(dir, "labs/module14/tiled_gemm.cu.orig");
  place_content_file(dir, "solutions/module15/old.cu");
  place_content_file(dir, "solutions/notes.txt");
  const auto problems = stray_file_problems(dir.path, sources);
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].rfind("labs/module14/tiled_gemm.cu.orig: no lab of modules/module14/module.yaml", 0) == 0);
  CHECK(problems[1].rfind("solutions/module15: not a module folder of a module with labs", 0) == 0);
  CHECK(problems[2].rfind("solutions/notes.txt: not a module folder", 0) == 0);
}
