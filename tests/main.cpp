// The Catch2 entry point: one translation unit, so the other test files compile fast.
// It also holds the paths the build configured (support/test_paths.hpp).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "support/test_paths.hpp"

namespace workbook_test {
const char* source_dir() { return WB_CFG_SOURCE_DIR; }
const char* fixture_dir() { return WB_CFG_FIXTURE_DIR; }
const char* binary() { return WB_CFG_BINARY; }
const char* nvcc_path() { return WB_CFG_NVCC_PATH; }
const char* warm_build_cache() { return WB_CFG_WARM_BUILD_CACHE; }
const char* experiment_fixture() { return WB_CFG_EXPERIMENT_FIXTURE; }
}  // namespace workbook_test
