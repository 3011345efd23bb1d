// Recognising nvcc's host-compiler refusals and CUDA's header clashes in the texts users
// posted (tests/fixtures/toolchain/README.md), in a build and in the one-file probe; and
// a real nvcc with ccbin set to the system g++.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "../support/files.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"
#include "../support/text_checks.hpp"
#include "../support/toolchain_fixture.hpp"
#include "build/lab_build.hpp"
#include "build/toolchain_config.hpp"
#include "build/toolchain_problem.hpp"
#include "exec/process.hpp"

namespace fs = std::filesystem;
using workbook::Toolchain;
using wbtest::contains;
using wbtest::read_file;
using wbtest::ScopedEnv;
using wbtest::toolchain_fixture;

namespace {

Toolchain laptop(const std::string& release, const std::string& host_version) {
  Toolchain tc;
  tc.nvcc = "/usr/local/cuda/bin/nvcc";
  tc.version = "Build cuda_" + release;
  tc.release = release;
  tc.host = {"/usr/bin/gcc", "gcc (GCC) " + host_version + " (Red Hat)", host_version, "gcc"};
  tc.config_file = "/home/me/workbook/toolchain.yaml";
  return tc;
}

}  // namespace

TEST_CASE("each host-compiler refusal users posted is recognised, with the newest gcc the release takes",
          "[toolchain_problem]") {
  struct Case {
    const char* file;
    int newest;
  };
  for (const Case& c : {Case{"gcc_later_than_12.txt", 12}, Case{"gcc_later_than_13.txt", 13}, Case{"gcc_later_than_15.txt", 15}}) {
    INFO(c.file);
    const Toolchain tc = laptop("12.4", "16.1.1");
    auto p = workbook::diagnose_toolchain(read_file(toolchain_fixture(c.file)), tc, "2.43");
    REQUIRE(p);
    CHECK(p->kind == "host_compiler_unsupported");
    REQUIRE(p->newest_supported);
    CHECK(*p->newest_supported == c.newest);
    CHECK(contains(p->evidence, "unsupported GNU version!"));
    CHECK(p->reason == "the toolchain, not your code: nvcc 12.4 refuses gcc 16.1.1 as its host compiler");
    CHECK(contains(p->explanation, "nvcc 12.4 (/usr/local/cuda/bin/nvcc) refuses gcc 16.1.1 (/usr/bin/gcc, nvcc's default)"));
    CHECK(contains(p->explanation, "takes gcc " + std::to_string(c.newest) + " or older"));
    const std::string n = std::to_string(c.newest);
    REQUIRE(p->fixes.size() == 3);
    CHECK(contains(p->fixes[0], "sudo dnf install gcc" + n + "-c++"));
    CHECK(contains(p->fixes[0], "sudo apt install g++-" + n));
    CHECK(contains(p->fixes[0], "`ccbin: /usr/bin/g++-" + n + "` in /home/me/workbook/toolchain.yaml"));
    CHECK(contains(p->fixes[1], "`allow_unsupported: true`"));
    CHECK(contains(p->fixes[2], "Colab"));
    CHECK(contains(p->fixes[2], "--slurm"));
    const std::string shown = workbook::render_toolchain_problem(*p);
    CHECK(shown.rfind("This is the toolchain, not your code.\n", 0) == 0);
    CHECK(contains(shown, "    1. install a g++ that CUDA 12.4 supports"));
  }
}

TEST_CASE("CUDA's math headers clashing with glibc are recognised in nvcc's and gcc's wording", "[toolchain_problem]") {
  for (const char* file : {"math_exception_spec_edg.txt", "math_exception_spec_gcc.txt"}) {
    INFO(file);
    auto p = workbook::diagnose_toolchain(read_file(toolchain_fixture(file)), laptop("12.8", "14.2.1"), "2.41");
    REQUIRE(p);
    CHECK(p->kind == "cuda_header_conflict");
    CHECK(contains(p->evidence, "exception specifi"));
    CHECK(p->reason == "the toolchain, not your code: CUDA 12.8's math headers clash with this system's C library");
    CHECK(contains(p->explanation, "(glibc 2.41)"));
    CHECK(contains(p->explanation, "gcc 14.2.1 (/usr/bin/gcc"));
    CHECK(contains(p->fixes[0], "newer CUDA toolkit"));
  }
}

TEST_CASE("an error in the lab itself is not taken for the toolchain's", "[toolchain_problem]") {
  const Toolchain tc = laptop("13.0", "12.2.0");
  CHECK_FALSE(workbook::diagnose_toolchain("/w/labs/module01/x.cu(3): error: identifier \"foo\" is undefined\n", tc, "2.36"));
  // A clash of exception specifications in the learner's own declarations names no CUDA header.
  CHECK_FALSE(workbook::diagnose_toolchain(
      "/w/labs/module01/x.cu(4): error: exception specification is incompatible with that of previous function \"f\" "
      "(declared at line 2 of /w/labs/module01/x.cu)\n",
      tc, "2.36"));
  CHECK_FALSE(workbook::diagnose_toolchain("", tc, ""));
}

TEST_CASE("a refused build is a compile error that says it is the toolchain, below nvcc's own lines", "[toolchain_problem][build]") {
  wbtest::TempDir tmp;
  std::ofstream(tmp.path / "lab.cu") << "int main() { return 0; }\n";
  ScopedEnv refuse("FAKE_NVCC_REFUSE", "gcc_later_than_13");
  Toolchain tc = laptop("12.4", "14.2.1");
  tc.nvcc = toolchain_fixture("fake_nvcc.sh");
  workbook::BuildRequest req;
  req.source = tmp.path / "lab.cu";
  req.display_name = "labs/module01/lab.cu";
  req.arch = "sm_86";
  req.cache_dir = tmp.path / "cache";
  auto r = workbook::build_lab(req, &tc);
  CHECK_FALSE(r.ok);
  REQUIRE(r.toolchain_problem);
  CHECK(r.toolchain_problem->kind == "host_compiler_unsupported");
  const auto error_at = r.diagnostics.find("#error -- unsupported GNU version!");
  const auto explained_at = r.diagnostics.find("This is the toolchain, not your code.");
  REQUIRE(error_at != std::string::npos);
  REQUIRE(explained_at != std::string::npos);
  CHECK(error_at < explained_at);
  // A host (fixture) lab is never explained as a CUDA toolchain problem.
  std::ofstream(tmp.path / "bad.cpp") << "int main() { return missing; }\n";
  req.source = tmp.path / "bad.cpp";
  req.language = workbook::Language::host;
  CHECK_FALSE(workbook::build_lab(req, nullptr).toolchain_problem);
}

TEST_CASE("the one-file probe tells a working pair from a refused one, and remembers a pass", "[toolchain_problem]") {
  wbtest::TempDir tmp;
  Toolchain tc = laptop("13.0", "16.1.1");
  tc.nvcc = toolchain_fixture("fake_nvcc.sh");
  {
    ScopedEnv refuse("FAKE_NVCC_REFUSE", "gcc_later_than_15");
    auto bad = workbook::check_toolchain(tc, tmp.path / "checks");
    CHECK_FALSE(bad.ok);
    REQUIRE(bad.problem);
    CHECK(bad.problem->kind == "host_compiler_unsupported");
    CHECK(*bad.problem->newest_supported == 15);
    CHECK(contains(bad.output, "gcc versions later than 15"));
    auto again = workbook::check_toolchain(tc, tmp.path / "checks");  // a failure is tried again
    CHECK_FALSE(again.ok);
    CHECK_FALSE(again.cached);
  }
  auto good = workbook::check_toolchain(tc, tmp.path / "checks");
  CHECK(good.ok);
  CHECK_FALSE(good.cached);
  CHECK(workbook::check_toolchain(tc, tmp.path / "checks").cached);
  tc.allow_unsupported = true;  // other flags: checked anew
  CHECK_FALSE(workbook::check_toolchain(tc, tmp.path / "checks").cached);
}

TEST_CASE("a real nvcc with ccbin pointing at the system g++ builds a fixture .cu and passes the probe", "[toolchain_problem][cuda]") {
  std::optional<Toolchain> tc = workbook::find_nvcc();
  if (!tc && fs::exists("/usr/local/cuda/bin/nvcc")) {
    ScopedEnv nvcc("WORKBOOK_NVCC", "/usr/local/cuda/bin/nvcc");
    tc = workbook::find_nvcc();
  }
  if (!tc) {  // Catch2 v2 has no SKIP
    WARN("skipped: no nvcc on PATH or in /usr/local/cuda/bin");
    return;
  }
  auto gxx = workbook::find_in_path("g++");
  REQUIRE(gxx);
  workbook::ToolchainSettings s;
  s.ccbin = gxx->string();
  s.ccbin_from = "--ccbin";
  workbook::apply_toolchain_settings(*tc, s, "/nowhere/toolchain.yaml");
  CHECK(tc->host.family == "gcc");
  CHECK_FALSE(tc->host.version.empty());
  wbtest::TempDir tmp;
  workbook::BuildRequest req;
  req.source = toolchain_fixture("probe_lab.cu");
  req.display_name = "tests/fixtures/toolchain/probe_lab.cu";
  req.arch = "sm_86";
  req.cache_dir = tmp.path / "cache";
  auto r = workbook::build_lab(req, &*tc);
  INFO(r.raw_output);
  REQUIRE(r.ok);
  CHECK_FALSE(r.toolchain_problem);
  workbook::ProcessOptions o;
  o.argv = {r.binary.string()};
  auto ran = workbook::run_process(o);  // its host part runs without a GPU
  CHECK(ran.exited_ok());
  CHECK(ran.out == "host side ok\n");
  auto check = workbook::check_toolchain(*tc, tmp.path / "checks");
  INFO(check.output);
  CHECK(check.ok);
}
