// The learner's laptop, with a fake nvcc that refuses the host compiler the way a real
// one does (tests/fixtures/toolchain/): the run's compile-error view, `workbook device`'s
// toolchain line, toolchain.yaml and --ccbin, and scripts/setup.sh's probe.
#include "e2e_support.hpp"

#include <cstdlib>
#include <fstream>

#include "../support/text_checks.hpp"
#include "../support/toolchain_fixture.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using nlohmann::json;
using wbtest::contains;
using wbtest::toolchain_fixture;
namespace fs = std::filesystem;

namespace {

// A fake g++ named `name` in the course's temp folder, answering --version with `line`.
fs::path fake_gxx(const FixtureCourse& c, const std::string& name, const std::string& line) {
  return wbtest::fake_gcc(c.tmp.path / "bin", name, line);
}

// Fedora 44's situation: CUDA 13.0 and GCC 16 (ggml-org/llama.cpp#22886).
std::map<std::string, std::string> laptop_env(const FixtureCourse& c) {
  return {{"WORKBOOK_NVCC", toolchain_fixture("fake_nvcc.sh").string()},
          {"FAKE_NVCC_RELEASE", "13.0"},
          {"FAKE_NVCC_REFUSE", "gcc_later_than_15"},
          {"FAKE_NVCC_GOOD_CCBIN", (c.tmp.path / "bin" / "g++-15").string()},
          {"WORKBOOK_CCBIN", fake_gxx(c, "g++", "g++ (GCC) 16.1.1 20260501 (Red Hat 16.1.1-1)").string()},
          {"WORKBOOK_GPU_NAME", ""}};
}

}  // namespace

TEST_CASE("e2e: a refused host compiler is a compile error (exit 3) that says it is the toolchain and how to fix it",
          "[e2e][toolchain]") {
  FixtureCourse c;
  add_cuda_lab(c);
  auto env = laptop_env(c);
  CommandResult r = c.run({"run", "module01/gpu_lab", "--no-predict", "--json"}, env);
  SHOW(r);
  CHECK(r.exit_code == 3);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  CHECK(j["verdict"] == "compile_error");
  CHECK(j["compile_error_kind"] == "host_compiler_unsupported");
  CHECK(j["reason"] == "the toolchain, not your code: nvcc 13.0 refuses gcc 16.1.1 as its host compiler");
  const std::string diag = j["build"]["diagnostics"];
  CHECK(contains(diag, "gcc versions later than 15 are not supported!"));
  CHECK(contains(diag, "This is the toolchain, not your code."));
  CHECK(contains(diag, "sudo dnf install gcc15-c++"));
  CHECK(contains(diag, "`ccbin: /usr/bin/g++-15` in " + (c.workspace / "toolchain.yaml").string()));
  CHECK(contains(j["next_step"].get<std::string>(), "set `ccbin`"));

  r = c.run({"run", "module01/gpu_lab", "--no-predict"}, env);
  SHOW(r);
  CHECK(r.exit_code == 3);
  CHECK(contains(r.out, "This is the toolchain, not your code."));
  CHECK(contains(r.out, "Verdict: COMPILE ERROR · the toolchain, not your code: nvcc 13.0 refuses gcc 16.1.1"));

}

TEST_CASE("e2e: ccbin set once in toolchain.yaml (or --ccbin) fixes every build, and allow_unsupported shows nvcc's warning",
          "[e2e][toolchain]") {
  FixtureCourse c;
  add_cuda_lab(c);
  auto env = laptop_env(c);
  env.erase("WORKBOOK_CCBIN");
  const fs::path g15 = fake_gxx(c, "g++-15", "g++-15 (GCC) 15.2.1 20251111 (Red Hat 15.2.1-4)");
  fake_gxx(c, "g++", "g++ (GCC) 16.1.1 20260501 (Red Hat 16.1.1-1)");
  env["PATH"] = (c.tmp.path / "bin").string() + ":" + std::getenv("PATH");  // nvcc's default: the gcc on PATH
  fake_gxx(c, "gcc", "gcc (GCC) 16.1.1 20260501 (Red Hat 16.1.1-1)");

  // With --ccbin the build goes through; no GPU here, so it stops after the build.
  CommandResult r = c.run({"--ccbin", g15.string(), "run", "module01/gpu_lab", "--no-predict", "--json"}, env);
  SHOW(r);
  CHECK(r.exit_code == 2);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  CHECK(j["verdict"] == "not_run");
  CHECK(j["build"]["ok"] == true);
  CHECK(contains(j["build"]["command"].dump(), "\"-ccbin\",\"" + g15.string() + "\""));
  CHECK(j["compile_error_kind"].is_null());

  // Without it, nvcc's default (gcc 16) is refused again.
  r = c.run({"run", "module01/gpu_lab", "--no-predict", "--json"}, env);
  CHECK(r.exit_code == 3);

  // Set once in the workspace's toolchain.yaml.
  e2e::write_file(c.workspace / "toolchain.yaml", "ccbin: " + g15.string() + "\n");
  r = c.run({"run", "module01/gpu_lab", "--no-predict", "--json"}, env);
  SHOW(r);
  CHECK(r.exit_code == 2);

  // allow_unsupported instead: it builds with gcc 16, and the warning is shown.
  e2e::write_file(c.workspace / "toolchain.yaml", "allow_unsupported: true\n");
  r = c.run({"run", "module01/gpu_lab", "--no-predict"}, env);
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.out, "warning: built with -allow-unsupported-compiler (allow_unsupported, " +
                       (c.workspace / "toolchain.yaml").string() + ":1)"));

  // A mistake in the file is named by file and line, before anything runs.
  e2e::write_file(c.workspace / "toolchain.yaml", "ccbin: /usr/bin/g++-15\nallow_unsupported: perhaps\n");
  r = c.run({"run", "module01/gpu_lab", "--no-predict"}, env);
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, (c.workspace / "toolchain.yaml").string() + ":2: allow_unsupported"));
}

TEST_CASE("e2e: workbook device shows the toolchain line and says when the pair is unsupported, also without a GPU",
          "[e2e][toolchain][device]") {
  FixtureCourse c;
  auto env = laptop_env(c);
  CommandResult r = c.run({"device", "--toolchain"}, env);
  SHOW(r);
  CHECK(r.exit_code == 3);
  CHECK(contains(r.out, "Toolchain: nvcc 13.0 (" + toolchain_fixture("fake_nvcc.sh").string() + "), host compiler gcc 16.1.1 ("));
  CHECK(contains(r.out, "ccbin from WORKBOOK_CCBIN), flags: -ccbin "));
  CHECK(contains(r.out, "unsupported pair: "));
  CHECK(contains(r.out, "This is the toolchain, not your code."));

  r = c.run({"device", "--toolchain", "--json"}, env);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  CHECK(j["toolchain"]["release"] == "13.0");
  CHECK(j["toolchain"]["host_version"] == "16.1.1");
  CHECK(j["toolchain"]["works"] == false);
  CHECK(j["toolchain"]["problem_kind"] == "host_compiler_unsupported");

  // The plain `device` says the same before saying there is no GPU.
  r = c.run({"device"}, env);
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.out, "unsupported pair: "));
  CHECK(contains(r.err, "no NVIDIA GPU found"));

  // A supported g++ through ccbin: the pair works; without a GPU, device then says so.
  env["WORKBOOK_CCBIN"] = fake_gxx(c, "g++-15", "g++-15 (GCC) 15.2.1").string();
  r = c.run({"device", "--toolchain"}, env);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "works: a one-file CUDA probe compiles with this pair"));
  r = c.run({"device"}, env);
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.out, "host compiler gcc 15.2.1"));
  CHECK(contains(r.err, "no NVIDIA GPU found"));
  r = c.run({"device", "--json"}, env);
  j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  CHECK(j["gpu"].is_null());
  CHECK(j["toolchain"]["works"] == true);
}

TEST_CASE("e2e: workbook device --toolchain says when nvcc is outside CUDA 12.4 to 13.x, and works on",
          "[e2e][toolchain][device]") {
  FixtureCourse c;
  std::map<std::string, std::string> env = {{"WORKBOOK_NVCC", toolchain_fixture("fake_nvcc.sh").string()},
                                            {"WORKBOOK_CCBIN", fake_gxx(c, "g++", "g++ (GCC) 12.2.0").string()},
                                            {"WORKBOOK_GPU_NAME", ""}};
  env["FAKE_NVCC_RELEASE"] = "12.2";
  CommandResult r = c.run({"device", "--toolchain"}, env);
  SHOW(r);
  CHECK(r.exit_code == 0);  // the pair compiles: a warning, not a failure
  CHECK(contains(r.out, "outside the supported CUDA releases: nvcc 12.2 is older than the labs support (CUDA 12.4 to "
                        "13.x)"));
  CHECK(contains(r.out, "works: a one-file CUDA probe compiles with this pair"));
  r = c.run({"device", "--toolchain", "--json"}, env);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  CHECK(j["toolchain"]["supported_releases"] == "12.4 to 13.x");
  CHECK(j["toolchain"]["in_supported_range"] == false);
  CHECK(contains(j["toolchain"]["outside_range"].get<std::string>(), "install CUDA 12.4 or newer"));

  env["FAKE_NVCC_RELEASE"] = "14.0";
  r = c.run({"device", "--toolchain"}, env);
  SHOW(r);
  CHECK(contains(r.out, "outside the supported CUDA releases: nvcc 14.0 is newer than the labs were written for"));

  for (const char* inside : {"12.4", "13.0"}) {
    env["FAKE_NVCC_RELEASE"] = inside;
    r = c.run({"device", "--toolchain", "--json"}, env);
    j = json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j["toolchain"]["in_supported_range"] == true);
    CHECK(j["toolchain"]["outside_range"].is_null());
    r = c.run({"device", "--toolchain"}, env);
    CHECK_FALSE(contains(r.out, "outside the supported"));
  }
}

TEST_CASE("e2e: scripts/setup.sh --check-toolchain stops with the fix when the pair is refused, and passes a working one",
          "[e2e][toolchain][setup]") {
  FixtureCourse c;
  auto env = c.env(laptop_env(c));
  std::string vars;
  for (const auto& [k, v] : env) vars += k + "='" + v + "' ";
  const fs::path out = c.tmp.path / "setup.out";
  auto run_setup = [&](const std::string& extra) {
    const std::string cmd = "env " + vars + extra + " WORKBOOK_SETUP_RUNNER='" + std::string(WORKBOOK_BINARY) +
                            "' bash '" + std::string(WORKBOOK_SOURCE_DIR) + "/scripts/setup.sh' --check-toolchain >'" +
                            out.string() + "' 2>&1";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  int rc = run_setup("");
  std::string text = e2e::read_file(out);
  INFO(text);
  CHECK(rc == 3);
  CHECK(contains(text, "Checking the CUDA toolchain"));
  CHECK(contains(text, "This is the toolchain, not your code."));
  CHECK(contains(text, "setup.sh: stopped"));
  rc = run_setup("WORKBOOK_CCBIN='" + fake_gxx(c, "g++-15", "g++-15 (GCC) 15.2.1").string() + "'");
  text = e2e::read_file(out);
  INFO(text);
  CHECK(rc == 0);
  CHECK(contains(text, "works: a one-file CUDA probe"));
}
