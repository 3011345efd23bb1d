// A fixture course (tests/fixtures/<name>) copied into `content` with what every course
// holds beside its modules: the lab harness (labs/common) and the spec sheets
// (data/gpus.yaml). The e2e tests' FixtureCourse and the in-process pipeline tests use it.
#pragma once

#include <filesystem>
#include <string>

#include "test_paths.hpp"

namespace wbtest {

inline void copy_fixture_course(const std::filesystem::path& content, const std::string& fixture = "course") {
  namespace fs = std::filesystem;
  const fs::path source = WORKBOOK_SOURCE_DIR;
  fs::copy(fs::path(WORKBOOK_FIXTURE_DIR) / fixture, content, fs::copy_options::recursive);
  fs::create_directories(content / "labs");
  fs::copy(source / "labs/common", content / "labs/common", fs::copy_options::recursive);
  fs::create_directories(content / "data");
  fs::copy_file(source / "data/gpus.yaml", content / "data/gpus.yaml");
}

}  // namespace wbtest
