// The stand-in toolchain of the toolchain tests: the files of tests/fixtures/toolchain/
// (fake_nvcc.sh, the texts users posted) and fake host compilers that only answer
// --version. Shared by the unit and end-to-end tests.
#pragma once

#include <filesystem>
#include <string>

#include "files.hpp"
#include "test_paths.hpp"

namespace wbtest {

inline std::filesystem::path toolchain_fixture(const std::string& name) {
  return std::filesystem::path(WORKBOOK_FIXTURE_DIR) / "toolchain" / name;
}

// A fake gcc or g++ at <dir>/<name>, whose --version line is `line`.
inline std::filesystem::path fake_gcc(const std::filesystem::path& dir, const std::string& name, const std::string& line) {
  return write_script(dir, name, "echo '" + line + "'\n");
}

}  // namespace wbtest
