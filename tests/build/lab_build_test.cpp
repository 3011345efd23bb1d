// Tests for build/lab_build: real compiles of tiny host C++ labs (and a CUDA one when nvcc
// is installed), the content-hash cache, and diagnostics cleaning on literal samples.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "build/lab_build.hpp"
#include "build/toolchain.hpp"
#include "exec/process.hpp"
#include "util/error.hpp"

#include "../support/files.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"
#include "../support/text_checks.hpp"
#include "../support/toolchain_fixture.hpp"

namespace fs = std::filesystem;
using workbook::BuildRequest;
using workbook::BuildResult;
using workbook::Language;
using wbtest::contains;
using wbtest::join_words;
using wbtest::write_file;

namespace {

using wbtest::TempDir;

// A host lab: src/hello.cpp including "greeting.hpp" from inc/ and "local.hpp" beside it.
struct HostLab {
  TempDir tmp;
  fs::path src = tmp.path / "labs" / "fixture" / "hello.cpp";
  fs::path inc = tmp.path / "labs" / "common";
  HostLab() {
    write_file(inc / "greeting.hpp", "inline const char* greeting() { return \"hello\"; }\n");
    write_file(src.parent_path() / "local.hpp", "inline int answer() { return 42; }\n");
    write_file(src,
               "#include <cstdio>\n"
               "#include \"greeting.hpp\"\n"
               "#include \"local.hpp\"\n"
               "int main() { std::printf(\"%s %d\\n\", greeting(), answer()); return 0; }\n");
  }
  BuildRequest request() const {
    BuildRequest r;
    r.source = src;
    r.display_name = "labs/fixture/hello.cpp";
    r.include_dirs = {inc};
    r.language = Language::host;
    r.cache_dir = tmp.path / "ws" / ".workbook" / "build";
    r.timeout_s = 120;
    return r;
  }
};

std::string run_binary(const fs::path& binary) {
  workbook::ProcessOptions o;
  o.argv = {binary.string()};
  auto r = workbook::run_process(o);
  REQUIRE(r.exited_ok());
  return r.out;
}

bool has_temp_files(const fs::path& dir) {
  if (!fs::exists(dir)) return false;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a host lab builds, then comes from the cache unchanged", "[build]") {
  HostLab lab;
  auto first = workbook::build_lab(lab.request(), nullptr);
  INFO(first.raw_output);
  REQUIRE(first.ok);
  CHECK_FALSE(first.cached);
  CHECK(first.key.size() == 32);
  CHECK(first.binary == fs::absolute(lab.request().cache_dir) / first.key / "lab");
  CHECK(fs::exists(first.binary));
  CHECK(run_binary(first.binary) == "hello 42\n");
  CHECK(contains(join_words(first.command), "-I" + fs::absolute(lab.inc).lexically_normal().string()));
  CHECK_FALSE(has_temp_files(lab.request().cache_dir));

  auto mtime = fs::last_write_time(first.binary);
  auto second = workbook::build_lab(lab.request(), nullptr);
  CHECK(second.ok);
  CHECK(second.cached);
  CHECK(second.key == first.key);
  CHECK(second.binary == first.binary);
  CHECK(fs::last_write_time(second.binary) == mtime);
}

TEST_CASE("the key follows the inputs, not the paths", "[build]") {
  HostLab lab;
  auto base = workbook::build_lab(lab.request(), nullptr);
  REQUIRE(base.ok);

  SECTION("a changed header in an include dir rebuilds") {
    write_file(lab.inc / "greeting.hpp", "inline const char* greeting() { return \"changed\"; }\n");
    auto r = workbook::build_lab(lab.request(), nullptr);
    REQUIRE(r.ok);
    CHECK_FALSE(r.cached);
    CHECK(r.key != base.key);
    CHECK(run_binary(r.binary) == "changed 42\n");
  }
  SECTION("a new file in an include dir rebuilds") {
    write_file(lab.inc / "sub" / "extra.hpp", "// unused\n");
    auto r = workbook::build_lab(lab.request(), nullptr);
    CHECK(r.key != base.key);
    CHECK_FALSE(r.cached);
  }
  SECTION("a changed header included from the source's directory rebuilds") {
    write_file(lab.src.parent_path() / "local.hpp", "inline int answer() { return 7; }\n");
    auto r = workbook::build_lab(lab.request(), nullptr);
    REQUIRE(r.ok);
    CHECK_FALSE(r.cached);
    CHECK(run_binary(r.binary) == "hello 7\n");
  }
  SECTION("a changed source rebuilds") {
    write_file(lab.src, "#include <cstdio>\nint main() { std::puts(\"new\"); }\n");
    auto r = workbook::build_lab(lab.request(), nullptr);
    REQUIRE(r.ok);
    CHECK(r.key != base.key);
    CHECK(run_binary(r.binary) == "new\n");
  }
  SECTION("a flag or a library changes the key") {
    auto req = lab.request();
    req.flags = {"-DEXTRA=1"};
    auto with_flag = workbook::build_lab(req, nullptr);
    REQUIRE(with_flag.ok);
    CHECK_FALSE(with_flag.cached);
    CHECK(with_flag.key != base.key);
    CHECK(contains(join_words(with_flag.command), "-DEXTRA=1"));

    req = lab.request();
    req.libs = {"-lm"};
    auto with_lib = workbook::build_lab(req, nullptr);
    REQUIRE(with_lib.ok);
    CHECK(with_lib.key != base.key);
    CHECK(with_lib.key != with_flag.key);
    CHECK(with_lib.command.back() == "-lm");
  }
  SECTION("the display name and the location do not change the key") {
    auto req = lab.request();
    req.display_name = "somewhere/else.cpp";
    CHECK(workbook::build_lab(req, nullptr).key == base.key);

    TempDir moved;
    fs::copy(lab.tmp.path / "labs", moved.path / "labs", fs::copy_options::recursive);
    req = lab.request();
    req.source = moved.path / "labs" / "fixture" / "hello.cpp";
    req.include_dirs = {moved.path / "labs" / "common"};
    auto r = workbook::build_lab(req, nullptr);
    CHECK(r.key == base.key);
    CHECK(r.cached);
  }
}

TEST_CASE("a compile error gives ok=false and diagnostics in the learner's terms", "[build]") {
  HostLab lab;
  write_file(lab.src,
             "#include <cstdio>\n"
             "int main() {\n"
             "  return undefined_thing;\n"
             "}\n");
  auto r = workbook::build_lab(lab.request(), nullptr);
  CHECK_FALSE(r.ok);
  CHECK_FALSE(r.cached);
  CHECK_FALSE(fs::exists(r.binary));
  CHECK(contains(r.diagnostics, "labs/fixture/hello.cpp:3: error:"));
  CHECK(contains(r.diagnostics, "undefined_thing"));
  CHECK_FALSE(contains(r.diagnostics, lab.src.string()));
  CHECK(contains(r.raw_output, lab.src.string()));
  CHECK_FALSE(has_temp_files(lab.request().cache_dir));

  // Failures are not cached: the next attempt compiles again.
  auto again = workbook::build_lab(lab.request(), nullptr);
  CHECK_FALSE(again.ok);
  CHECK(contains(again.diagnostics, "labs/fixture/hello.cpp:3: error:"));
}

TEST_CASE("a Python lab is byte-compiled into the cache, and a syntax error is a compile error at its line", "[build][python]") {
  if (!workbook::find_in_path("python3")) {  // Catch2 v2 has no SKIP
    WARN("skipped: no python3 on PATH");
    return;
  }
  TempDir tmp;
  const fs::path src = tmp.path / "labs" / "fixture" / "hello.py";
  write_file(src, "import sys\nprint('hello', len(sys.argv))\n");
  BuildRequest req;
  req.source = src;
  req.display_name = "labs/fixture/hello.py";
  req.language = Language::python;
  req.cache_dir = tmp.path / "ws" / ".workbook" / "build";
  BuildResult first = workbook::build_lab(req, nullptr);
  INFO(first.raw_output);
  REQUIRE(first.ok);
  CHECK(first.binary.filename() == "lab.pyc");
  REQUIRE(first.interpreter.size() == 1);
  workbook::ProcessOptions o;
  o.argv = {first.interpreter[0], first.binary.string(), "x=1"};
  workbook::ProcessResult r = workbook::run_process(o);
  CHECK(r.out == "hello 2\n");
  BuildResult second = workbook::build_lab(req, nullptr);
  CHECK(second.cached);
  CHECK(second.key == first.key);

  write_file(src, "x = 1\n\ndef broken(:\n    pass\n");
  BuildResult bad = workbook::build_lab(req, nullptr);
  CHECK_FALSE(bad.ok);
  CHECK(contains(bad.diagnostics, "labs/fixture/hello.py:3: error: SyntaxError"));
}

TEST_CASE("a harness beside the headers is compiled once and linked, and without one the headers do it", "[build][harness]") {
  HostLab lab;
  // The harness's shape (labs/common/wb_host.hpp): the header declares when linked, defines
  // inline when not; wb_harness.cpp defines once. The texts differ so the test sees which ran.
  write_file(lab.inc / "greeting.hpp",
             "#if defined(WB_HARNESS_LINKED) || defined(WB_HARNESS_IMPL)\n"
             "const char* greeting();\n"
             "#else\n"
             "inline const char* greeting() { return \"hello\"; }\n"
             "#endif\n");
  write_file(lab.inc / "wb_harness.cpp",
             "#define WB_HARNESS_IMPL\n#include \"greeting.hpp\"\nconst char* greeting() { return \"linked\"; }\n");
  auto first = workbook::build_lab(lab.request(), nullptr);
  INFO(first.raw_output << first.diagnostics);
  REQUIRE(first.ok);
  CHECK(run_binary(first.binary) == "linked 42\n");
  const std::string command = join_words(first.command);
  CHECK(contains(command, "-DWB_HARNESS_LINKED"));
  REQUIRE(first.command.back().size() > 12);
  const fs::path object = first.command.back();
  CHECK(object.filename() == "wb_harness.o");
  CHECK(object.parent_path().parent_path() == fs::absolute(lab.request().cache_dir));
  REQUIRE(fs::exists(object));
  const auto compiled_at = fs::last_write_time(object);

  // Another lab with the same compiler and flags links the same object, not compiled again.
  const fs::path other = lab.src.parent_path() / "other.cpp";
  write_file(other, "#include <cstdio>\n#include \"greeting.hpp\"\nint main() { std::puts(greeting()); }\n");
  BuildRequest second_req = lab.request();
  second_req.source = other;
  auto second = workbook::build_lab(second_req, nullptr);
  REQUIRE(second.ok);
  CHECK(run_binary(second.binary) == "linked\n");
  CHECK(second.command.back() == object.string());
  CHECK(fs::last_write_time(object) == compiled_at);
  CHECK_FALSE(has_temp_files(lab.request().cache_dir));

  SECTION("other flags are another object") {
    BuildRequest flagged = lab.request();
    flagged.flags = {"-DEXTRA=1"};
    auto built = workbook::build_lab(flagged, nullptr);
    REQUIRE(built.ok);
    CHECK(built.command.back() != object.string());
  }
  SECTION("a harness that does not compile fails the lab's build, named as the harness") {
    write_file(lab.inc / "wb_harness.cpp", "#define WB_HARNESS_IMPL\nthis is not C++;\n");
    auto broken = workbook::build_lab(lab.request(), nullptr);
    CHECK_FALSE(broken.ok);
    CHECK(contains(broken.diagnostics, "labs/common/wb_harness.cpp:2:"));
    CHECK(contains(join_words(broken.command), " -c "));
    CHECK_FALSE(has_temp_files(lab.request().cache_dir));
  }
  SECTION("content without wb_harness.cpp builds header-only, under another key") {
    fs::remove(lab.inc / "wb_harness.cpp");
    auto alone = workbook::build_lab(lab.request(), nullptr);
    REQUIRE(alone.ok);
    CHECK(run_binary(alone.binary) == "hello 42\n");
    CHECK(alone.key != first.key);
    CHECK_FALSE(contains(join_words(alone.command), "WB_HARNESS"));
  }
}

TEST_CASE("check_only compiles without linking: an empty marker, its own key, no harness object", "[build]") {
  HostLab lab;
  write_file(lab.inc / "wb_harness.cpp", "#define WB_HARNESS_IMPL\nconst char* greeting() { return \"linked\"; }\n");
  BuildRequest req = lab.request();
  req.check_only = true;
  auto checked = workbook::build_lab(req, nullptr);
  INFO(checked.raw_output << checked.diagnostics);
  REQUIRE(checked.ok);
  CHECK(checked.binary.filename() == "compiles");
  CHECK(fs::file_size(checked.binary) == 0);
  const std::string command = join_words(checked.command);
  CHECK(contains(command, " -c "));
  CHECK(contains(command, "-DWB_HARNESS_LINKED"));
  CHECK_FALSE(contains(command, "wb_harness.o"));
  CHECK(workbook::build_lab(req, nullptr).cached);
  BuildRequest linked = lab.request();
  CHECK(workbook::build_lab(linked, nullptr).key != checked.key);

  // A source that compiles and fails only at the link passes the check: what is checked is the compile.
  write_file(lab.src, "int undefined_elsewhere();\nint main() { return undefined_elsewhere(); }\n");
  CHECK(workbook::build_lab(req, nullptr).ok);
  CHECK_FALSE(workbook::build_lab(linked, nullptr).ok);
  write_file(lab.src, "int main() { return not_declared; }\n");
  auto bad = workbook::build_lab(req, nullptr);
  CHECK_FALSE(bad.ok);
  CHECK(contains(bad.diagnostics, "labs/fixture/hello.cpp:1:"));
  CHECK_FALSE(has_temp_files(req.cache_dir));
}

TEST_CASE("a compile that runs past its limit fails with a time-out line", "[build]") {
  HostLab lab;
  auto req = lab.request();
  req.timeout_s = 0.001;
  auto r = workbook::build_lab(req, nullptr);
  CHECK_FALSE(r.ok);
  CHECK(r.timed_out);
  CHECK(contains(r.diagnostics, "timed out"));
  CHECK_FALSE(has_temp_files(req.cache_dir));
}

TEST_CASE("two builds of the same lab at once both succeed", "[build]") {
  HostLab lab;
  BuildResult a, b;
  std::thread other([&] { a = workbook::build_lab(lab.request(), nullptr); });
  b = workbook::build_lab(lab.request(), nullptr);
  other.join();
  REQUIRE(a.ok);
  REQUIRE(b.ok);
  CHECK(a.key == b.key);
  CHECK(run_binary(a.binary) == "hello 42\n");
  CHECK_FALSE(has_temp_files(lab.request().cache_dir));
}

TEST_CASE("build_lab refuses what it cannot build", "[build]") {
  HostLab lab;
  auto req = lab.request();
  req.source = lab.tmp.path / "missing.cpp";
  CHECK_THROWS_AS(workbook::build_lab(req, nullptr), workbook::UsageError);

  req = lab.request();
  req.include_dirs = {lab.tmp.path / "no-such-dir"};
  CHECK_THROWS_AS(workbook::build_lab(req, nullptr), workbook::UsageError);

  req = lab.request();
  req.language = Language::cuda;
  try {
    workbook::build_lab(req, nullptr);
    FAIL("expected a UsageError");
  } catch (const workbook::UsageError& e) {
    CHECK(contains(e.hint(), "WORKBOOK_NVCC"));
  }
}

TEST_CASE("a CUDA lab builds with nvcc for sm_90 and is cached", "[build][cuda]") {
  std::optional<workbook::Toolchain> nvcc;
  std::string configured = WORKBOOK_NVCC_PATH;
  if (!configured.empty() && !contains(configured, "NOTFOUND")) {
    nvcc = workbook::Toolchain();
    nvcc->nvcc = configured;
  }
  if (auto found = workbook::find_nvcc()) nvcc = found;
  if (!nvcc) {
    WARN("nvcc not found: CUDA build test skipped");
    return;
  }
  TempDir tmp;
  auto src = tmp.path / "labs" / "module01" / "hello.cu";
  write_file(src,
             "#include <cstdio>\n"
             "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
             "int main() { std::printf(\"built\\n\"); return 0; }\n");
  BuildRequest req;
  req.source = src;
  req.display_name = "labs/module01/hello.cu";
  req.arch = "sm_90";
  req.language = Language::cuda;
  req.cache_dir = tmp.path / "cache";
  auto r = workbook::build_lab(req, &*nvcc);
  INFO(r.raw_output);
  REQUIRE(r.ok);
  CHECK_FALSE(r.cached);
  CHECK(contains(join_words(r.command), "-arch=sm_90"));
  CHECK(contains(join_words(r.command), "-lineinfo"));
  CHECK(run_binary(r.binary) == "built\n");  // the host part runs without a GPU
  auto again = workbook::build_lab(req, &*nvcc);
  CHECK(again.cached);
  CHECK(again.key == r.key);

  req.arch = "sm_86";
  CHECK(workbook::build_lab(req, &*nvcc).key != r.key);

  req.arch = "sm_90";
  req.check_only = true;  // nvcc -cuda: device code compiled, host code checked, nothing linked
  auto checked = workbook::build_lab(req, &*nvcc);
  INFO(checked.raw_output);
  CHECK(checked.ok);
  CHECK(contains(join_words(checked.command), " -cuda "));
  CHECK(fs::file_size(checked.binary) == 0);
  CHECK(checked.key != r.key);
  req.check_only = false;

  write_file(src, "__global__ void k(int* p) {\n  p[0] = missing_name;\n}\nint main() { return 0; }\n");
  auto bad = workbook::build_lab(req, &*nvcc);
  CHECK_FALSE(bad.ok);
  CHECK(contains(bad.diagnostics, "labs/module01/hello.cu:2: error: identifier \"missing_name\" is undefined"));
  CHECK_FALSE(contains(bad.diagnostics, src.string()));
  req.check_only = true;  // a device-code error fails the check too
  CHECK(contains(workbook::build_lab(req, &*nvcc).diagnostics, "labs/module01/hello.cu:2: error:"));
}

TEST_CASE("a CUDA lab for several architectures is one nvcc with a -gencode each, cached apart", "[build]") {
  wbtest::ScopedEnv nvcc_env("WORKBOOK_NVCC", wbtest::toolchain_fixture("fake_nvcc.sh").string());
  const auto nvcc = workbook::find_nvcc();
  REQUIRE(nvcc);
  TempDir tmp;
  const fs::path log = tmp.path / "nvcc.log";
  wbtest::ScopedEnv log_env("FAKE_NVCC_LOG", log.string());
  auto src = tmp.path / "labs" / "module01" / "hello.cu";
  write_file(src, "int main() { return 0; }\n");
  BuildRequest req;
  req.source = src;
  req.display_name = "labs/module01/hello.cu";
  req.arch = "sm_75,sm_86,sm_90";
  req.language = Language::cuda;
  req.cache_dir = tmp.path / "cache";
  const BuildResult three = workbook::build_lab(req, &*nvcc);
  REQUIRE(three.ok);
  const std::string command = join_words(three.command);
  CHECK(contains(command, "-gencode=arch=compute_75,code=sm_75 -gencode=arch=compute_86,code=sm_86 "
                          "-gencode=arch=compute_90,code=sm_90"));
  CHECK_FALSE(contains(command, "-arch="));
  req.arch = "sm_90";
  const BuildResult one = workbook::build_lab(req, &*nvcc);
  REQUIRE(one.ok);
  CHECK_FALSE(one.cached);  // a single-arch binary is another build
  CHECK(one.key != three.key);
  CHECK(contains(join_words(one.command), "-arch=sm_90"));
  CHECK_FALSE(contains(join_words(one.command), "-gencode"));
  std::ifstream calls(log);
  int compiles = 0;
  for (std::string line; std::getline(calls, line);) ++compiles;
  CHECK(compiles == 2);  // one nvcc for the three architectures, one for sm_90
}

TEST_CASE("clean_diagnostics rewrites nvcc output", "[build][diagnostics]") {
  const std::string raw =
      "/tmp/diag/x.cu(2): error: identifier \"foo\" is undefined\n"
      "  __attribute__((global)) void k(int* p) { int unused; p[0] = foo; }\n"
      "                                                              ^\n"
      "\n"
      "/tmp/diag/x.cu(3): warning #177-D: variable \"y\" was declared but never referenced\n"
      "  int main() { int y; return 0; }\n"
      "                   ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "\n"
      "/work/labs/common/workbook.cuh(10): error: expected a \";\"\n"
      "/tmp/diag/x.cuh(4): error: in a different file\n"
      "1 error detected in the compilation of \"/tmp/diag/x.cu\".\n";
  const std::string expected =
      "labs/module01/x.cu:2: error: identifier \"foo\" is undefined\n"
      "  __attribute__((global)) void k(int* p) { int unused; p[0] = foo; }\n"
      "                                                              ^\n"
      "labs/module01/x.cu:3: warning #177-D: variable \"y\" was declared but never referenced\n"
      "  int main() { int y; return 0; }\n"
      "                   ^\n"
      "/work/labs/common/workbook.cuh:10: error: expected a \";\"\n"
      "/tmp/diag/x.cuh:4: error: in a different file\n"
      "1 error detected in the compilation of \"labs/module01/x.cu\".\n";
  CHECK(workbook::clean_diagnostics(raw, "/tmp/diag/x.cu", "labs/module01/x.cu") == expected);
}

TEST_CASE("clean_diagnostics rewrites gcc output", "[build][diagnostics]") {
  const std::string raw =
      "In file included from /tmp/diag/y.cpp:1:\n"
      "/tmp/diag/y.cpp: In function \xe2\x80\x98int main()\xe2\x80\x99:\n"
      "/tmp/diag/y.cpp:2:37: error: \xe2\x80\x98" "bar\xe2\x80\x99 was not declared in this scope\n"
      "    2 | int main() { int unused = 1; return bar; }\n"
      "      |                                     ^~~\n"
      "/usr/include/c++/12/bits/stl_vector.h:1120:7: note: candidate\n"
      "/usr/bin/ld: /tmp/ccX.o: in function `main':\n"
      "y.cpp:(.text+0x5): undefined reference to `foo'\n"
      "/tmp/diag/y.cpp:7: undefined reference to `bar'\r\n";
  const std::string expected =
      "In file included from labs/fixture/y.cpp:1:\n"
      "labs/fixture/y.cpp: In function \xe2\x80\x98int main()\xe2\x80\x99:\n"
      "labs/fixture/y.cpp:2: error: \xe2\x80\x98" "bar\xe2\x80\x99 was not declared in this scope\n"
      "    2 | int main() { int unused = 1; return bar; }\n"
      "      |                                     ^~~\n"
      "/usr/include/c++/12/bits/stl_vector.h:1120: note: candidate\n"
      "/usr/bin/ld: /tmp/ccX.o: in function `main':\n"
      "y.cpp:(.text+0x5): undefined reference to `foo'\n"
      "labs/fixture/y.cpp:7: undefined reference to `bar'\n";
  CHECK(workbook::clean_diagnostics(raw, "/tmp/diag/y.cpp", "labs/fixture/y.cpp") == expected);
}

TEST_CASE("clean_diagnostics of nothing is nothing", "[build][diagnostics]") {
  CHECK(workbook::clean_diagnostics("", "/a.cu", "a.cu").empty());
  CHECK(workbook::clean_diagnostics("\n\n  \n", "/a.cu", "a.cu").empty());
}

TEST_CASE("a CUDA build from a path nvcc cannot take is explained before the build", "[build][paths]") {
  // nvcc runs its steps through a shell: a $ or ` is expanded and a ' or " breaks its
  // quoting, and the build would fail with an error that names neither. A fake nvcc
  // that always fails stands in: the check must come before it would run.
  workbook::Toolchain fake;
  fake.nvcc = "/bin/false";
  fake.version = "fake nvcc";
  fake.release = "13.0";
  struct Case {
    std::string folder;  // where the whole tree goes
    std::string where;   // which path the message names
    std::string shown;
  };
  for (const Case& k : {Case{"it's mine", "the workspace", "a ' (quote)"}, Case{"cost$HOME", "the workspace", "a $ (dollar)"},
                        Case{"back`tick", "the workspace", "a ` (backquote)"}, Case{"say \"hi\"", "the workspace", "a \" (double quote)"}}) {
    INFO(k.folder);
    HostLab lab;
    auto req = lab.request();
    req.language = Language::cuda;
    req.cache_dir = lab.tmp.path / k.folder / ".workbook" / "build";
    try {
      workbook::build_lab(req, &fake);
      FAIL("expected a UsageError");
    } catch (const workbook::UsageError& e) {
      CHECK(contains(e.what(), "nvcc cannot build from " + k.where));
      CHECK(contains(e.what(), k.shown));
      CHECK(contains(e.what(), k.folder));
      CHECK(contains(e.hint(), "--workspace"));
    }
  }
  // The content folder (-I) and the source file are checked too.
  HostLab lab;
  auto req = lab.request();
  req.language = Language::cuda;
  fs::path odd_inc = lab.tmp.path / "o'brien" / "common";
  fs::create_directories(odd_inc);
  req.include_dirs = {odd_inc};
  try {
    workbook::build_lab(req, &fake);
    FAIL("expected a UsageError");
  } catch (const workbook::UsageError& e) {
    CHECK(contains(e.what(), "the content folder"));
    CHECK(contains(e.hint(), "--content"));
  }
  req = lab.request();
  req.language = Language::cuda;
  req.source = lab.tmp.path / "$lab.cu";
  write_file(req.source, "int main() { return 0; }\n");
  CHECK_THROWS_WITH(workbook::build_lab(req, &fake), Catch::Contains("the source file"));

  // Spaces and backslashes are fine for nvcc: the (fake) compiler runs and fails.
  req = lab.request();
  req.language = Language::cuda;
  req.cache_dir = lab.tmp.path / "my work\\space" / ".workbook" / "build";
  BuildResult r = workbook::build_lab(req, &fake);
  CHECK_FALSE(r.ok);
  // A host build takes any path: g++ runs no shell.
  req = lab.request();
  req.cache_dir = lab.tmp.path / "it's $mine" / ".workbook" / "build";
  CHECK(workbook::build_lab(req, nullptr).ok);
}

TEST_CASE("drop_host_optimisation leaves out nvcc's -O flags of a CUDA lab only", "[build]") {
  BuildRequest cuda;
  cuda.flags = {"-O3", "-lineinfo", "-O2", "--use_fast_math", "-Ofoo"};
  workbook::drop_host_optimisation(cuda);
  CHECK(cuda.flags == std::vector<std::string>{"-lineinfo", "--use_fast_math", "-Ofoo"});
  BuildRequest host;
  host.language = workbook::Language::host;
  host.flags = {"-O3"};
  workbook::drop_host_optimisation(host);
  CHECK(host.flags == std::vector<std::string>{"-O3"});
}
