// The recorded profiler outputs in tests/fixtures/profile (see its README.md).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../support/test_paths.hpp"

namespace wbtest {

inline std::filesystem::path profile_fixture_path(const std::string& name) {
  return std::filesystem::path(WORKBOOK_FIXTURE_DIR) / "profile" / name;
}

inline std::string profile_fixture(const std::string& name) {
  std::ifstream in(profile_fixture_path(name), std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace wbtest
