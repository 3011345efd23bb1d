// End-to-end tests of the command line's smaller promises: unknown commands get a
// suggestion; `dev check` shows its rows as they happen and says when nothing ran;
// `device --json` without a GPU is JSON; `init ""` and `--file DIR` are explained; long
// texts wrap at word boundaries; a binary built elsewhere finds the content from the
// current folder.
#include <algorithm>
#include <regex>

#include "e2e_support.hpp"
#include "learn_support.hpp"
#include "../support/lines.hpp"
#include "../support/test_paths.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using nlohmann::json;
namespace fs = std::filesystem;
using wbtest::columns;
using wbtest::lines_of;

namespace {

// The lines from the one that holds `from` (exclusive) up to the first that holds `to`.
std::vector<std::string> lines_between(const std::string& text, const std::string& from, const std::string& to) {
  std::vector<std::string> out;
  bool in = false;
  for (const auto& l : lines_of(text)) {
    if (in && l.find(to) != std::string::npos) break;
    if (in) out.push_back(l);
    if (!in && l.find(from) != std::string::npos) in = true;
  }
  return out;
}

// Joins wrapped lines back into one text (each line trimmed, one space between).
std::string unwrap(const std::vector<std::string>& lines) {
  std::string s;
  for (auto l : lines) {
    l.erase(0, l.find_first_not_of(' '));
    if (!l.empty()) s += (s.empty() ? "" : " ") + l;
  }
  return s;
}

// Runs `binary` with `args` in the folder `cwd`, stdin /dev/null, output to files.
CommandResult run_in(const fs::path& cwd, const fs::path& binary, const std::vector<std::string>& args,
                     const std::map<std::string, std::string>& env, const fs::path& scratch) {
  std::vector<std::string> argv{binary.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> envv = e2e::make_env(env);
  auto argv_c = e2e::c_strings(argv);
  auto env_c = e2e::c_strings(envv);
  fs::path out = scratch / "cwd-stdout", err = scratch / "cwd-stderr";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data());
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE(rc == 0);
  CommandResult r;
  e2e::wait_child(pid, 60, r);
  r.out = e2e::read_file(out);
  r.err = e2e::read_file(err);
  return r;
}

}  // namespace

TEST_CASE("cli e2e: an unknown command says so and suggests the nearest", "[e2e][cli]") {
  FixtureCourse c;
  CommandResult r = c.run({"lsit"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: unknown command 'lsit'") != std::string::npos);
  CHECK(r.err.find("did you mean 'list'?") != std::string::npos);
  CHECK(r.err.find("workbook --help") != std::string::npos);

  r = c.run({"--no-color", "exercise", "14"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown command 'exercise'") != std::string::npos);
  CHECK(r.err.find("did you mean 'exercises'?") != std::string::npos);

  r = c.run({"--content", c.content.string(), "frobnicate"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(r.err.find("did you mean") == std::string::npos);

  // Known commands and --help are untouched.
  CHECK(c.run({"list"}).exit_code == 0);
  CHECK(c.run({"--help"}).exit_code == 0);
}

TEST_CASE("cli e2e: dev check prints each row as it happens, even into a pipe, and says when nothing ran",
          "[e2e][cli][dev]") {
  FixtureCourse c;
  std::vector<std::string> argv{WORKBOOK_BINARY, "dev", "check", "--only", "module01/fail_lab", "--only",
                                "module01/pass_lab"};
  std::vector<std::string> envv = e2e::make_env(c.env());
  auto argv_c = e2e::c_strings(argv);
  auto env_c = e2e::c_strings(envv);
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data());
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  REQUIRE(rc == 0);

  // The first row must come through the pipe while the other five builds still run.
  std::string out;
  bool running_at_first_row = false;
  auto t0 = std::chrono::steady_clock::now();
  char buf[4096];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, 50) > 0) {
      ssize_t got = ::read(fds[0], buf, sizeof buf);
      if (got <= 0) break;  // end of output: the check ended
      out.append(buf, static_cast<std::size_t>(got));
      if (out.find("module01/") != std::string::npos) {
        siginfo_t info{};  // still running? (asked without reaping it)
        running_at_first_row = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                               info.si_pid == 0;
        break;
      }
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > 120) break;
  }
  for (;;) {  // the rest
    ssize_t got = ::read(fds[0], buf, sizeof buf);
    if (got <= 0) break;
    out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(fds[0]);
  CommandResult r;
  e2e::wait_child(pid, 120, r);
  r.out = out;
  SHOW(r);
  CHECK(running_at_first_row);
  CHECK(r.exit_code == 0);
  CHECK(std::count(out.begin(), out.end(), '\n') >= 7);  // device line, 6 rows, summary
  CHECK(out.find("6 passed, 0 failed") != std::string::npos);
  CHECK(out.find("compiled only: nothing was run") != std::string::npos);

  // The report records the --only labs in its command line, and that nothing ran.
  fs::path report = c.tmp.path / "report.md";
  r = c.run({"dev", "check", "--only", "module01/pass_lab", "--report", report.string()});
  SHOW(r);
  CHECK(r.exit_code == 0);
  std::string md = e2e::read_file(report);
  INFO(md);
  CHECK(md.find("`workbook dev check --only module01/pass_lab --report ") != std::string::npos);
  CHECK(md.find("(compiled only: nothing was run)") != std::string::npos);

  // Its own report it rewrites; a file it did not write (a report joined by hand) it
  // refuses before compiling anything, and replaces only with --force.
  CHECK(md.rfind("<!-- written by `workbook dev check --report`", 0) == 0);
  r = c.run({"dev", "check", "--only", "module01/pass_lab", "--report", report.string()});
  CHECK(r.exit_code == 0);
  fs::path joined = c.tmp.path / "joined.md";
  e2e::write_file(joined, "# Validation on the H200\n\nJoined by hand.\n");
  r = c.run({"dev", "check", "--only", "module01/pass_lab", "--report", joined.string()});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("was not written by `workbook dev check --report`") != std::string::npos);
  CHECK(r.err.find("--force") != std::string::npos);
  CHECK(r.out.find("passed") == std::string::npos);  // refused before the check ran
  CHECK(e2e::read_file(joined) == "# Validation on the H200\n\nJoined by hand.\n");
  r = c.run({"dev", "check", "--only", "module01/pass_lab", "--report", joined.string(), "--force"});
  CHECK(r.exit_code == 0);
  CHECK(e2e::read_file(joined).find("# Validation report") != std::string::npos);

  // An --only that names no lab is an error before anything compiles, not "0 passed".
  r = c.run({"dev", "check", "--only", "module01/pas_lab"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: module01 has no lab 'pas_lab'") != std::string::npos);
  CHECK(r.err.find("did you mean module01/pass_lab?") != std::string::npos);  // one letter off
  CHECK(r.out.find("passed") == std::string::npos);
  r = c.run({"dev", "check", "--only", "module01"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: dev check --only module01 names a module, not a lab") != std::string::npos);

  // Host code built without -O3 is for a compile-only check: with --run it is refused.
  r = c.run({"dev", "check", "--run", "--unoptimized-host", "--only", "module01/pass_lab"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: --unoptimized-host goes with a compile-only check, not with --run") != std::string::npos);
  r = c.run({"dev", "check", "--unoptimized-host", "--only", "module01/pass_lab"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find(" passed, 0 failed") != std::string::npos);
}

TEST_CASE("cli e2e: device --json without a GPU prints JSON (exit 2)", "[e2e][cli]") {
  FixtureCourse c;
  // No fake GPU, and a PATH without nvidia-smi, so no GPU is found on any machine.
  fs::path empty_bin = c.tmp.path / "empty-bin";
  fs::create_directories(empty_bin);
  CommandResult r = c.run({"device", "--json"}, {{"WORKBOOK_GPU_NAME", ""}, {"PATH", empty_bin.string()}});
  SHOW(r);
  CHECK(r.exit_code == 2);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["gpu"].is_null());
  CHECK(j["error"].get<std::string>().find("no NVIDIA GPU") != std::string::npos);
  CHECK(r.err.find("no NVIDIA GPU") != std::string::npos);
  // Without --json: the usual error.
  r = c.run({"device"}, {{"WORKBOOK_GPU_NAME", ""}, {"PATH", empty_bin.string()}});
  CHECK(r.exit_code == 2);
  CHECK(r.out.rfind("Toolchain: ", 0) == 0);  // only the toolchain line (issue 27), which needs no GPU
  CHECK(r.err.find("error: no NVIDIA GPU") != std::string::npos);
}

TEST_CASE("cli e2e: a typo in a nested command suggests the nearest, as at the top level", "[e2e][cli]") {
  FixtureCourse c;
  CommandResult r = c.run({"journal", "exprot", "out.json"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: unknown command 'exprot' after `workbook journal` (it has export or import)") != std::string::npos);
  CHECK(r.err.find("hint: did you mean 'export'? `workbook journal --help` says what each does") != std::string::npos);
  CHECK(r.err.find("A subcommand is required") == std::string::npos);
  CHECK_FALSE(fs::exists(c.tmp.path / "out.json"));

  r = c.run({"dev", "chek", "--only", "module01/pass_lab"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("did you mean 'check'?") != std::string::npos);

  r = c.run({"journal"});  // none given: which there are
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("`workbook journal` needs a command: export or import") != std::string::npos);

  r = c.run({"journal", "import"});  // a known one with its own usage error is left to it
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("files is required") != std::string::npos);
}

TEST_CASE("cli e2e: init \"\" is an error, not the default workspace", "[e2e][cli]") {
  FixtureCourse c;
  CommandResult r = c.run({"init", ""});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("init: the folder name is empty") != std::string::npos);
  CHECK_FALSE(fs::exists(c.workspace / "labs"));  // nothing was copied into the default workspace
}

TEST_CASE("cli e2e: --file on a directory says it is a directory", "[e2e][cli]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict", "--file", c.starter("").string()});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is a directory, not a source file") != std::string::npos);
  CHECK(r.err.find("no such file") == std::string::npos);
}

TEST_CASE("cli e2e: long steps and answers wrap at word boundaries to the width", "[e2e][cli][wrap]") {
  // A long step in the fixture manifest.
  FixtureCourse c;
  const std::string step =
      "Predict how many numbers are summed, then run it and compare the measured count with your "
      "prediction before you read the next section of the reading.";
  fs::path manifest = c.content / "modules/module01/module.yaml";
  std::string text = e2e::read_file(manifest);
  const std::string from = "goal: \"Sums 1..N and checks it.\"\n    source: pass_lab.cpp\n    language: host\n    steps: [\"Run it.\"]";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(),
               "goal: \"Sums 1..N and checks it.\"\n    source: pass_lab.cpp\n    language: host\n    steps: [\"" + step + "\"]");
  e2e::write_file(manifest, text);
  CommandResult r = c.run({"show", "module01/pass_lab"}, {{"COLUMNS", "40"}});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  auto step_lines = lines_between(r.out, "Sums 1..N", "Parameters");
  step_lines.erase(std::remove(step_lines.begin(), step_lines.end(), ""), step_lines.end());
  REQUIRE(step_lines.size() > 2);
  for (const auto& l : step_lines) CHECK(columns(l) <= 40);
  CHECK(unwrap(step_lines) == "1. " + step);
  CHECK(step_lines[0].rfind("  1. Predict", 0) == 0);
  CHECK(step_lines[1].rfind("     summed", 0) == 0);  // continuation lines hang under the text

  // Exercises: the model answer; follow: the problem.
  learn_e2e::LearnCourse lc;
  auto env = lc.env();
  env["COLUMNS"] = "40";
  r = learn_e2e::run_with_input({"exercises", "11", "--item", "why-coalesce"}, env, "my answer\n3\n", lc.tmp.path);
  SHOW(r);
  auto answer = lines_between(r.out, "Model answer", "Key points");
  REQUIRE(answer.size() > 2);
  for (const auto& l : answer) CHECK(columns(l) <= 40);
  CHECK(unwrap(answer) ==
        "A warp's 32 loads to consecutive addresses are served by a few wide memory transactions instead of 32 "
        "separate ones.");
  env["COLUMNS"] = "30";
  r = learn_e2e::run_with_input({"follow", "11"}, env, "4\n", lc.tmp.path);
  SHOW(r);
  auto problem = lines_between(r.out, "Sizing a grid", "Step 1/3");
  REQUIRE(problem.size() >= 2);
  for (const auto& l : problem) CHECK(columns(l) <= 30);
  CHECK(unwrap(problem) == "Cover n = 1000 elements with blocks of 256 threads.");
}

TEST_CASE("cli e2e: a binary built outside the checkout finds the content above the current folder", "[e2e][cli]") {
  FixtureCourse c;
  // A copy of the binary where no content lies above it.
  fs::path bin = c.tmp.path / "elsewhere" / "bin";
  fs::create_directories(bin);
  fs::copy_file(WORKBOOK_BINARY, bin / "workbook");
  fs::permissions(bin / "workbook", fs::perms::owner_all);
  std::map<std::string, std::string> env{{"WORKBOOK_WORKSPACE", c.workspace.string()}, {"NO_COLOR", "1"}};
  CommandResult r = run_in(c.content / "modules" / "module01", bin / "workbook", {"list"}, env, c.tmp.path);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("module01/pass_lab") != std::string::npos);
  // Outside any content: still the clear error.
  r = run_in(c.tmp.path, bin / "workbook", {"list"}, env, c.tmp.path);
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cannot find the workbook content") != std::string::npos);
}
