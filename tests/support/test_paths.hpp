// Where the tests find the sources, the fixtures, the built binary and nvcc. The values
// are compiled into tests/main.cpp only, so the other test files do not depend on the
// checkout's path (their objects are the same in every checkout, and ccache shares them).
#pragma once

namespace workbook_test {
const char* source_dir();   // the repository root
const char* fixture_dir();  // tests/fixtures
const char* binary();       // the built `workbook`
const char* nvcc_path();    // the nvcc CMake found ("" when none)
const char* warm_build_cache();  // the e2e tests' shared build cache (e2e/e2e_support.hpp, BuildCache)
const char* experiment_fixture();  // the stand-in training program (tests/fixtures/experiment)
}  // namespace workbook_test

#define WORKBOOK_SOURCE_DIR (::workbook_test::source_dir())
#define WORKBOOK_FIXTURE_DIR (::workbook_test::fixture_dir())
#define WORKBOOK_BINARY (::workbook_test::binary())
#define WORKBOOK_NVCC_PATH (::workbook_test::nvcc_path())
#define WORKBOOK_WARM_BUILD_CACHE (::workbook_test::warm_build_cache())
#define WORKBOOK_EXPERIMENT_FIXTURE (::workbook_test::experiment_fixture())
