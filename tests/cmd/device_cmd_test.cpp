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
#include "../support/files.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using wbtest::read_file;

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
    std::string err = read_file(dir / "err");
    CHECK(err.find("no NVIDIA GPU") != std::string::npos);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_CASE("workbook device where CUDA cannot use the GPU nvidia-smi lists: a sentence, the CUDA error only with --verbose",
          "[e2e][device]") {
  const std::string nvcc = WORKBOOK_NVCC_PATH;
  std::error_code ec;
  if (nvcc.empty() || fs::exists("/dev/nvidia0", ec)) {
    WARN("skipped: needs nvcc (to build the probe) and a machine without an NVIDIA driver");
    return;
  }
  fs::path dir = fs::temp_directory_path() / ("wb-device-nodriver-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto run = [&](const std::string& args) {
    // WORKBOOK_GPU_NAME stands for nvidia-smi listing a GPU; there is no driver behind it.
    std::string cmd = "WORKBOOK_GPU_NAME='Tesla T4' WORKBOOK_NVCC=" + nvcc + " WORKBOOK_WORKSPACE=" + (dir / "ws").string() +
                      " NO_COLOR=1 " + WORKBOOK_BINARY + " device " + args + " --content " + WORKBOOK_SOURCE_DIR + " >" +
                      (dir / "out").string() + " 2>" + (dir / "err").string();
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  CHECK(run("") == 2);
  std::string err = read_file(dir / "err");
  INFO(err);
  CHECK(err.find("error: nvidia-smi lists Tesla T4, but CUDA cannot use it: ") != std::string::npos);
  CHECK(err.find("hint: ") != std::string::npos);
  CHECK(err.find("cudaError") == std::string::npos);  // the raw text stays behind --verbose

  CHECK(run("--verbose") == 2);
  CHECK(read_file(dir / "err").find("cudaError") != std::string::npos);

  CHECK(run("--json") == 2);
  const std::string out = read_file(dir / "out");
  INFO(out);
  CHECK(out.find("\"detail\"") != std::string::npos);
  CHECK(out.find("cudaError") != std::string::npos);  // in detail, for a bug report
  CHECK(out.find("\"error\": \"nvidia-smi lists Tesla T4, but CUDA cannot use it") != std::string::npos);
  fs::remove_all(dir, ec);
}
