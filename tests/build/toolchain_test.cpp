// Tests for build/toolchain: arch forms, nvidia-smi parsing and nvcc discovery, using
// small stand-in programs put on PATH.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "build/toolchain.hpp"
#include "util/error.hpp"

#include "../support/files.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using workbook::resolve_arch;

namespace {

using wbtest::ScopedEnv;
using wbtest::TempDir;
using wbtest::write_script;

}  // namespace

TEST_CASE("resolve_arch keeps every valid forced form", "[toolchain]") {
  for (const char* arch : {"sm_75", "sm_86", "sm_90", "sm_90a", "sm_100f", "sm_120", "compute_90", "compute_90a",
                           "native"}) {
    INFO(arch);
    CHECK(resolve_arch(std::string(arch)) == arch);
  }
}

TEST_CASE("release_outside_supported: CUDA 12.4 to 13.x is in, older and newer releases say why", "[toolchain]") {
  for (const char* inside : {"12.4", "12.8", "12.9", "13.0", "13.2", "13.10"}) {
    INFO(inside);
    CHECK_FALSE(workbook::release_outside_supported(inside));
  }
  for (const char* unknown : {"", "13", "release 12.2", "12.2.1", "99999999999.1"}) {
    INFO(unknown);
    CHECK_FALSE(workbook::release_outside_supported(unknown));
  }
  for (const char* old : {"12.3", "12.0", "11.8", "10.2"}) {
    INFO(old);
    const auto why = workbook::release_outside_supported(old);
    REQUIRE(why);
    CHECK(why->find(std::string("nvcc ") + old + " is older than the labs support (CUDA 12.4 to 13.x)") == 0);
    CHECK(why->find("install CUDA 12.4 or newer") != std::string::npos);
  }
  const auto newer = workbook::release_outside_supported("14.0");
  REQUIRE(newer);
  CHECK(newer->find("nvcc 14.0 is newer than the labs were written for (CUDA 12.4 to 13.x)") == 0);
  CHECK(newer->find("a call CUDA 14 changed") != std::string::npos);
  CHECK(newer->find("docs/cuda-versions.md") != std::string::npos);
}

TEST_CASE("resolve_arch keeps a list of architectures for one nvcc", "[toolchain]") {
  for (const char* arch : {"sm_75,sm_86,sm_90", "sm_86,sm_75", "sm_90a,compute_90", "sm_75,sm_120"}) {
    INFO(arch);
    CHECK(resolve_arch(std::string(arch)) == arch);
    CHECK(workbook::is_valid_arch_list(arch));
    CHECK_FALSE(workbook::is_valid_arch(arch));  // -arch= takes one
  }
  CHECK(workbook::is_valid_arch_list("native"));
  CHECK(workbook::is_valid_arch_list("sm_90"));
}

TEST_CASE("nvcc_arch_flags: one -arch for one architecture, a -gencode each for several", "[toolchain]") {
  using V = std::vector<std::string>;
  CHECK(workbook::nvcc_arch_flags("") == V{"-arch=native"});
  CHECK(workbook::nvcc_arch_flags("native") == V{"-arch=native"});
  CHECK(workbook::nvcc_arch_flags("sm_90") == V{"-arch=sm_90"});
  CHECK(workbook::nvcc_arch_flags("sm_75,sm_86,sm_90") ==
        V{"-gencode=arch=compute_75,code=sm_75", "-gencode=arch=compute_86,code=sm_86",
          "-gencode=arch=compute_90,code=sm_90"});
  CHECK(workbook::nvcc_arch_flags("sm_90a,compute_120") ==
        V{"-gencode=arch=compute_90a,code=sm_90a", "-gencode=arch=compute_120,code=compute_120"});
}

TEST_CASE("resolve_arch rejects malformed forced values with a hint", "[toolchain]") {
  for (const char* arch : {"", "sm90", "90", "9.0", "sm_9", "SM_90", "sm_90 ", " sm_90", "sm_90b", "sm_1000",
                           "-arch=sm_90", "sm_90;rm -rf /", "compute_", "Native", "sm_75,", ",sm_75", "sm_75,,sm_90",
                           "sm_75, sm_90", "sm_75,native", "native,sm_90", "sm_75,sm_75", "sm_75;sm_90"}) {
    INFO(arch);
    CHECK_THROWS_AS(resolve_arch(std::string(arch)), workbook::UsageError);
  }
  try {
    resolve_arch(std::string("sm90"));
    FAIL("expected a UsageError");
  } catch (const workbook::UsageError& e) {
    CHECK(std::string(e.what()).find("sm90") != std::string::npos);
    CHECK(e.hint().find("sm_86") != std::string::npos);
  }
}

TEST_CASE("resolve_arch without --arch gives a detected sm_NN or native", "[toolchain]") {
  std::string arch = resolve_arch(std::nullopt);
  CHECK(workbook::is_valid_arch(arch));
  CHECK((arch == "native" || arch.rfind("sm_", 0) == 0));
}

TEST_CASE("arch_from_compute_cap", "[toolchain]") {
  CHECK(workbook::arch_from_compute_cap("9.0") == "sm_90");
  CHECK(workbook::arch_from_compute_cap("8.6") == "sm_86");
  CHECK(workbook::arch_from_compute_cap(" 7.5\n") == "sm_75");
  CHECK(workbook::arch_from_compute_cap("12.0") == "sm_120");
  CHECK_FALSE(workbook::arch_from_compute_cap("[N/A]").has_value());
  CHECK_FALSE(workbook::arch_from_compute_cap("9").has_value());
  CHECK_FALSE(workbook::arch_from_compute_cap("").has_value());
}

TEST_CASE("detect_gpu_arch reads the first GPU from nvidia-smi", "[toolchain]") {
  TempDir tmp;
  ScopedEnv path("PATH", tmp.path.string());

  CHECK_FALSE(workbook::detect_gpu_arch().has_value());  // no nvidia-smi on PATH

  write_script(tmp.path, "nvidia-smi",
               "[ \"$1\" = --query-gpu=compute_cap ] && [ \"$2\" = --format=csv,noheader ] || exit 9\n"
               "echo 9.0; echo 8.6\n");
  CHECK(workbook::detect_gpu_arch() == "sm_90");
  CHECK(resolve_arch(std::nullopt) == "sm_90");
  CHECK(resolve_arch(std::string("sm_75")) == "sm_75");  // forced wins over detected

  write_script(tmp.path, "nvidia-smi", "echo 'NVIDIA-SMI has failed' >&2; exit 9\n");
  CHECK_FALSE(workbook::detect_gpu_arch().has_value());
  CHECK(resolve_arch(std::nullopt) == "native");
}

TEST_CASE("find_nvcc honours WORKBOOK_NVCC and reads the version", "[toolchain]") {
  TempDir tmp;
  auto fake = write_script(tmp.path, "nvcc",
                           "[ \"$1\" = --version ] || exit 9\n"
                           "echo 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
                           "echo 'Cuda compilation tools, release 13.0, V13.0.88'\n"
                           "echo 'Build cuda_13.0.r13.0/compiler.36424714_0'\n"
                           "echo\n");
  {
    ScopedEnv forced("WORKBOOK_NVCC", fake.string());
    auto tc = workbook::find_nvcc();
    REQUIRE(tc.has_value());
    CHECK(tc->nvcc == fake);
    CHECK(tc->version == "Build cuda_13.0.r13.0/compiler.36424714_0");
    CHECK(tc->release == "13.0");
  }
  {
    ScopedEnv forced("WORKBOOK_NVCC", (tmp.path / "missing-nvcc").string());
    CHECK_THROWS_AS(workbook::find_nvcc(), workbook::UsageError);
  }
  {
    auto broken = write_script(tmp.path, "broken-nvcc", "exit 1\n");
    ScopedEnv forced("WORKBOOK_NVCC", broken.string());
    CHECK_THROWS_AS(workbook::find_nvcc(), workbook::UsageError);
  }
  {
    // Without WORKBOOK_NVCC, PATH comes first.
    ScopedEnv forced("WORKBOOK_NVCC", std::nullopt);
    ScopedEnv path("PATH", tmp.path.string());
    auto tc = workbook::find_nvcc();
    REQUIRE(tc.has_value());
    CHECK(tc->nvcc == fake);
  }
}

TEST_CASE("find_nvcc finds the real toolkit when CMake did", "[toolchain][cuda]") {
  std::string configured = WORKBOOK_NVCC_PATH;
  if (configured.empty() || configured.find("NOTFOUND") != std::string::npos) return;
  ScopedEnv forced("WORKBOOK_NVCC", configured);
  auto tc = workbook::find_nvcc();
  REQUIRE(tc.has_value());
  CHECK(tc->version.rfind("Build cuda_", 0) == 0);
  CHECK_FALSE(tc->release.empty());
}

TEST_CASE("arch_for_gpu: --arch wins, else the known compute capability", "[toolchain]") {
  using workbook::arch_for_gpu;
  CHECK(arch_for_gpu(std::string("sm_75"), "9.0") == "sm_75");
  CHECK(arch_for_gpu(std::nullopt, "9.0") == "sm_90");
  CHECK(arch_for_gpu(std::nullopt, "12.0") == "sm_120");
  CHECK_THROWS_AS(arch_for_gpu(std::string("sm9"), "9.0"), workbook::UsageError);
}

TEST_CASE("cupti_library finds the toolkit's libcupti beside its nvcc, or nothing", "[toolchain]") {
  wbtest::TempDir tmp;
  workbook::Toolchain tc;
  tc.nvcc = tmp.path / "cuda/bin/nvcc";
  CHECK(workbook::cupti_library(tc).empty());
  std::filesystem::create_directories(tmp.path / "cuda/extras/CUPTI/lib64");
  std::ofstream(tmp.path / "cuda/extras/CUPTI/lib64/libcupti.so") << "x";
  CHECK(workbook::cupti_library(tc) == tmp.path / "cuda/extras/CUPTI/lib64/libcupti.so");
  std::filesystem::create_directories(tmp.path / "cuda/lib64");
  std::ofstream(tmp.path / "cuda/lib64/libcupti.so") << "x";
  CHECK(workbook::cupti_library(tc) == tmp.path / "cuda/lib64/libcupti.so");
}
