// End-to-end: `workbook device` on a machine without a GPU (no nvidia-smi on PATH,
// WORKBOOK_GPU_NAME unset) says so and exits 2.
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("workbook device without a GPU: a clear message, exit 2", "[e2e][device]") {
  fs::path dir = fs::temp_directory_path() / ("wb-device-cmd-" + std::to_string(::getpid()));
  fs::create_directories(dir / "empty-bin");
  for (const char* args : {"device", "device --calibrate", "device --json"}) {
    INFO(args);
    // env -i: nothing of ours leaks in (no WORKBOOK_GPU_NAME); PATH holds no nvidia-smi.
    std::string cmd = "/usr/bin/env -i PATH=" + (dir / "empty-bin").string() + " HOME=" + dir.string() +
                      " WORKBOOK_WORKSPACE=" + (dir / "ws").string() + " NO_COLOR=1 " + WORKBOOK_BINARY + " " + args +
                      " --content " + WORKBOOK_SOURCE_DIR + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    int status = std::system(cmd.c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    std::string err = slurp(dir / "err");
    CHECK(err.find("no NVIDIA GPU") != std::string::npos);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}
