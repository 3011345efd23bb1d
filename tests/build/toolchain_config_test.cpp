// toolchain.yaml, WORKBOOK_CCBIN and --ccbin; the host compiler in the build (fake nvcc
// and fake gcc from tests/fixtures/toolchain/).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include "../support/files.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"
#include "../support/text_checks.hpp"
#include "../support/toolchain_fixture.hpp"
#include "build/lab_build.hpp"
#include "build/toolchain_config.hpp"
#include "exec/process.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;
using workbook::Toolchain;
using wbtest::contains;
using wbtest::fake_gcc;
using wbtest::join_words;
using wbtest::ScopedEnv;
using wbtest::toolchain_fixture;
using wbtest::write_file;

namespace {

Toolchain fake_nvcc() {
  ScopedEnv nvcc("WORKBOOK_NVCC", toolchain_fixture("fake_nvcc.sh").string());
  auto tc = workbook::find_nvcc();
  REQUIRE(tc);
  return *tc;
}

}  // namespace

TEST_CASE("toolchain.yaml gives ccbin, allow_unsupported and nvcc_flags with the line each was set on", "[toolchain_config]") {
  wbtest::TempDir tmp;
  const fs::path file = workbook::toolchain_config_path(tmp.path);
  CHECK(file == tmp.path / "toolchain.yaml");
  CHECK_FALSE(workbook::read_toolchain_file(file).ccbin);  // no file: nothing set
  write_file(file, "# my laptop\nccbin: /usr/bin/g++-14\nallow_unsupported: true\nnvcc_flags: [\"-Xcompiler=-Wall\", \"-O3\"]\n");
  auto s = workbook::read_toolchain_file(file);
  REQUIRE(s.ccbin);
  CHECK(*s.ccbin == "/usr/bin/g++-14");
  CHECK(s.ccbin_from == file.string() + ":2");
  CHECK(s.allow_unsupported);
  CHECK(s.allow_from == file.string() + ":3");
  CHECK(s.nvcc_flags == std::vector<std::string>{"-Xcompiler=-Wall", "-O3"});
}

TEST_CASE("a bad toolchain.yaml names file, line and field of every problem", "[toolchain_config]") {
  wbtest::TempDir tmp;
  const fs::path file = tmp.path / "toolchain.yaml";
  write_file(file, "ccbin: \"\"\nallow_unsupported: maybe\nnvcc_flags: [\"-ccbin=/usr/bin/g++\", \"-allow-unsupported-compiler\", \"O3\", \"-arch=sm_86\"]\nccbn: x\n");
  try {
    workbook::read_toolchain_file(file);
    FAIL("expected a ContentError");
  } catch (const workbook::ContentError& e) {
    std::string all;
    for (const auto& p : e.problems()) all += p + "\n";
    INFO(all);
    CHECK(contains(all, file.string() + ":1: ccbin"));
    CHECK(contains(all, file.string() + ":2: allow_unsupported"));
    CHECK(contains(all, "'-ccbin=/usr/bin/g++' sets the host compiler: write `ccbin: PATH` instead"));
    CHECK(contains(all, "'-allow-unsupported-compiler' write `allow_unsupported: true` instead"));
    CHECK(contains(all, "'O3' is not an nvcc flag"));
    CHECK(contains(all, "'-arch=sm_86' is set by the runner"));
    CHECK(contains(all, file.string() + ":4: ccbn"));
  }
}

TEST_CASE("WORKBOOK_CCBIN overrides toolchain.yaml, and --ccbin overrides both", "[toolchain_config]") {
  wbtest::TempDir tmp;
  write_file(tmp.path / "toolchain.yaml", "ccbin: /from/file\n");
  CHECK(*workbook::resolve_toolchain_settings(tmp.path).ccbin == "/from/file");
  {
    ScopedEnv env("WORKBOOK_CCBIN", "/from/env");
    auto s = workbook::resolve_toolchain_settings(tmp.path);
    CHECK(*s.ccbin == "/from/env");
    CHECK(s.ccbin_from == "WORKBOOK_CCBIN");
    workbook::set_ccbin_flag("/from/flag");
    s = workbook::resolve_toolchain_settings(tmp.path);
    workbook::set_ccbin_flag("");
    CHECK(*s.ccbin == "/from/flag");
    CHECK(s.ccbin_from == "--ccbin");
  }
  CHECK(*workbook::resolve_toolchain_settings(tmp.path).ccbin == "/from/file");
}

TEST_CASE("ccbin is resolved and its compiler asked its version, and one that names nothing is explained", "[toolchain_config]") {
  wbtest::TempDir tmp;
  const fs::path gxx = fake_gcc(tmp.path / "bin", "g++-14", "g++ (GCC) 14.3.1 20250808 (Red Hat 14.3.1-3)");
  Toolchain tc = fake_nvcc();
  workbook::ToolchainSettings s;
  s.ccbin = gxx.string();
  s.ccbin_from = "toolchain.yaml:1";
  workbook::apply_toolchain_settings(tc, s, tmp.path / "toolchain.yaml");
  CHECK(tc.ccbin == gxx);
  CHECK(tc.host.path == gxx);
  CHECK(tc.host.version == "14.3.1");
  CHECK(tc.host.family == "gcc");
  CHECK(workbook::toolchain_flags(tc) == std::vector<std::string>{"-ccbin", gxx.string()});
  CHECK(workbook::describe_toolchain(tc) == "nvcc 12.4 (" + toolchain_fixture("fake_nvcc.sh").string() + "), host compiler gcc 14.3.1 (" +
                                               gxx.string() + ", ccbin from toolchain.yaml:1), flags: -ccbin " + gxx.string());

  // A folder: nvcc picks the compiler in it; its g++ is the one asked.
  Toolchain in_dir = fake_nvcc();
  s.ccbin = (tmp.path / "bin").string();
  fake_gcc(tmp.path / "bin", "g++", "g++ (GCC) 13.3.1");
  workbook::apply_toolchain_settings(in_dir, s, tmp.path / "toolchain.yaml");
  CHECK(in_dir.ccbin == tmp.path / "bin");
  CHECK(in_dir.host.version == "13.3.1");

  // Without ccbin the host compiler is nvcc's default, the gcc on PATH.
  Toolchain plain = fake_nvcc();
  workbook::apply_toolchain_settings(plain, {}, tmp.path / "toolchain.yaml");
  CHECK(plain.ccbin.empty());
  CHECK(workbook::toolchain_flags(plain).empty());
  if (auto gcc = workbook::find_in_path("gcc")) CHECK(plain.host.path == *gcc);

  s.ccbin = "g++-99-not-installed";
  s.ccbin_from = "WORKBOOK_CCBIN";
  Toolchain missing = fake_nvcc();
  try {
    workbook::apply_toolchain_settings(missing, s, tmp.path / "toolchain.yaml");
    FAIL("expected a UsageError");
  } catch (const workbook::UsageError& e) {
    CHECK(contains(e.what(), "ccbin `g++-99-not-installed` (set by WORKBOOK_CCBIN) names no compiler"));
    CHECK(contains(e.hint(), "g++"));
  }
}

TEST_CASE("a CUDA build passes -ccbin and the flags, and its cache key holds the host compiler", "[toolchain_config][build]") {
  wbtest::TempDir tmp;
  write_file(tmp.path / "lab.cu", "int main() { return 0; }\n");
  workbook::BuildRequest req;
  req.source = tmp.path / "lab.cu";
  req.display_name = "labs/module01/lab.cu";
  req.arch = "sm_86";
  req.language = workbook::Language::cuda;
  req.cache_dir = tmp.path / "cache";
  auto with_host = [&](const std::string& name, const std::string& line, bool allow) {
    Toolchain tc = fake_nvcc();
    workbook::ToolchainSettings s;
    s.ccbin = fake_gcc(tmp.path / "bin", name, line).string();
    s.ccbin_from = "toolchain.yaml:1";
    s.allow_unsupported = allow;
    s.allow_from = "toolchain.yaml:2";
    s.nvcc_flags = {"-Xcompiler=-Wall"};
    workbook::apply_toolchain_settings(tc, s, tmp.path / "toolchain.yaml");
    return tc;
  };
  const Toolchain g14 = with_host("g++-14", "g++ (GCC) 14.3.1", false);
  auto first = workbook::build_lab(req, &g14);
  INFO(first.raw_output);
  REQUIRE(first.ok);
  CHECK(contains(join_words(first.command), "-ccbin " + g14.ccbin.string() + " -Xcompiler=-Wall -std=c++17"));
  CHECK(first.diagnostics.empty());
  CHECK(workbook::build_lab(req, &g14).cached);

  const Toolchain g13 = with_host("g++-13", "g++ (GCC) 13.3.1", false);
  CHECK(workbook::build_lab(req, &g13).key != first.key);  // another host compiler: another binary

  // allow_unsupported: its own key, and nvcc's warning on every build, cached or not.
  const Toolchain allowed = with_host("g++-14", "g++ (GCC) 14.3.1", true);
  auto fresh = workbook::build_lab(req, &allowed);
  REQUIRE(fresh.ok);
  CHECK(fresh.key != first.key);
  CHECK(contains(join_words(fresh.command), "-allow-unsupported-compiler"));
  CHECK(contains(fresh.diagnostics, "warning: built with -allow-unsupported-compiler (allow_unsupported, toolchain.yaml:2)"));
  CHECK(contains(fresh.diagnostics, "incorrect run time execution"));
  auto cached = workbook::build_lab(req, &allowed);
  CHECK(cached.cached);
  CHECK(cached.diagnostics == fresh.diagnostics);
}
