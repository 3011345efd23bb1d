// End-to-end tests of `workbook watch`: the real binary watches the fixture's failing
// lab, the test saves a fixed copy (as an editor would, by rename) and sees it pass;
// --manual-run fed Enter and q from a pipe, with --json lines; a pass that moves on to
// the lab `workbook next` points to; and Ctrl-C while it waits (exit 130, nothing left
// unfinished in the journal).
#include <algorithm>
#include <csignal>

#include "../support/lines.hpp"
#include "e2e_support.hpp"

using e2e::FixtureCourse;
using e2e::journal_value;
using nlohmann::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The test's own safety limits: a lab's first build takes 2 s on an idle machine, but
// much longer on a loaded one.
constexpr double kWatchLimit_s = 90;

// `workbook ARGS` started in the background: stdout and stderr to files, stdin a pipe
// the test writes to (or /dev/null).
struct Watcher {
  pid_t pid = 0;
  int input = -1;  // the pipe's write end, -1 when stdin is /dev/null
  fs::path out_file, err_file;
  e2e::CommandResult result;

  Watcher(const FixtureCourse& c, const std::vector<std::string>& args, bool pipe_in) {
    static std::atomic<int> n{0};
    const int id = n++;
    out_file = c.tmp.path / ("watch-stdout-" + std::to_string(id));
    err_file = c.tmp.path / ("watch-stderr-" + std::to_string(id));
    std::vector<std::string> argv{WORKBOOK_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> envv = e2e::make_env(c.env());
    auto argv_c = e2e::c_strings(argv);
    auto env_c = e2e::c_strings(envv);
    int fds[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (pipe_in) {
      REQUIRE(::pipe(fds) == 0);
      posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
      posix_spawn_file_actions_addclose(&fa, fds[0]);
      posix_spawn_file_actions_addclose(&fa, fds[1]);
    } else {
      posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    }
    posix_spawn_file_actions_addopen(&fa, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int rc = ::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data());
    posix_spawn_file_actions_destroy(&fa);
    if (pipe_in) {
      ::close(fds[0]);
      input = fds[1];
    }
    REQUIRE(rc == 0);
  }
  ~Watcher() {
    if (input >= 0) ::close(input);
    if (result.exit_code == -1 && result.signal == 0) {  // not waited for: a failed REQUIRE
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }
  void type(const std::string& text) const {
    REQUIRE(::write(input, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  }
  const e2e::CommandResult& finish(double limit_s = kWatchLimit_s) {
    e2e::wait_child(pid, limit_s, result);
    result.out = e2e::read_file(out_file);
    result.err = e2e::read_file(err_file);
    return result;
  }
};

// The verdicts of the lab's runs, oldest first ("NULL": not finished); none while the
// journal (or its schema) is not there yet.
std::vector<std::string> verdicts(const FixtureCourse& c, const std::string& lab) {
  std::vector<std::string> rows;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(c.journal().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 2000);
    const std::string sql = "SELECT COALESCE(verdict, 'NULL') FROM runs WHERE lab = '" + lab + "' ORDER BY id";
    const int rc = sqlite3_exec(
        db, sql.c_str(),
        [](void* p, int, char** v, char**) {
          static_cast<std::vector<std::string>*>(p)->push_back(v[0] ? v[0] : "NULL");
          return 0;
        },
        &rows, nullptr);
    if (rc != SQLITE_OK) rows.clear();
  }
  sqlite3_close(db);
  return rows;
}

// Waits until the lab has `count` finished runs.
void wait_for_runs(const FixtureCourse& c, const std::string& lab, std::size_t count) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(kWatchLimit_s);
  while (std::chrono::steady_clock::now() < until) {
    const auto v = verdicts(c, lab);
    if (v.size() >= count && std::count(v.begin(), v.end(), "NULL") == 0) return;
    std::this_thread::sleep_for(20ms);
  }
  FAIL("no " << count << " finished runs of " << lab);
}

// Saves the reference solution over the learner's copy, by rename as vim or VS Code do.
void save_fixed_copy(const FixtureCourse& c, const std::string& file) {
  const fs::path tmp = c.lab_copy("." + file + ".swp");
  e2e::write_file(tmp, e2e::read_file(c.content / "solutions/module01" / file));
  fs::rename(tmp, c.lab_copy(file));
}

}  // namespace

TEST_CASE("watch --once: a failing copy, then a fixed save: PASS and exit 0", "[e2e][watch]") {
  FixtureCourse c;
  Watcher w(c, {"watch", "module01/fail_lab", "--once"}, false);
  wait_for_runs(c, "module01/fail_lab", 1);
  save_fixed_copy(c, "fail_lab.cpp");
  const auto& r = w.finish();
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(verdicts(c, "module01/fail_lab") == std::vector<std::string>{"fail", "pass"});
  CHECK(r.out.find("Watching labs/module01/fail_lab.cpp") != std::string::npos);
  CHECK(r.out.find("Running module01/fail_lab again") != std::string::npos);
  CHECK(r.out.find("module01/fail_lab passes.") != std::string::npos);
  CHECK(journal_value(c.journal(), "SELECT COUNT(*) FROM predictions") == "0");  // none asked
}

TEST_CASE("watch --manual-run from a pipe: Enter runs again, JSON lines, a fixed copy passes", "[e2e][watch]") {
  FixtureCourse c;
  Watcher w(c, {"watch", "module01/fail_lab", "--manual-run", "--once", "--json"}, true);
  w.type("\n");  // read once the first run is done: a second run of the same copy
  wait_for_runs(c, "module01/fail_lab", 2);
  save_fixed_copy(c, "fail_lab.cpp");  // a save alone does nothing here: Enter does
  std::this_thread::sleep_for(700ms);
  CHECK(verdicts(c, "module01/fail_lab").size() == 2);
  w.type("\n");
  const auto& r = w.finish();
  SHOW(r);
  CHECK(r.exit_code == 0);
  std::vector<json> lines;
  std::istringstream out(r.out);
  for (std::string line; std::getline(out, line);) lines.push_back(json::parse(line, nullptr, false));
  REQUIRE(lines.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    REQUIRE_FALSE(lines[i].is_discarded());
    CHECK(lines[i]["lab"] == "module01/fail_lab");
    CHECK(lines[i]["verdict"] == (i < 2 ? "fail" : "pass"));
  }
}

TEST_CASE("watch --manual-run: q after a failing run ends with that run's exit code", "[e2e][watch]") {
  FixtureCourse c;
  Watcher w(c, {"watch", "module01/fail_lab", "--manual-run"}, true);
  w.type("\nq\n");
  const auto& r = w.finish();
  SHOW(r);
  CHECK(r.exit_code == 1);
  CHECK(verdicts(c, "module01/fail_lab") == std::vector<std::string>{"fail", "fail"});
  CHECK(r.out.find("Enter runs module01/fail_lab again") != std::string::npos);
}

TEST_CASE("watch: a pass moves on to next's lab, and Ctrl-C while waiting ends it with 130", "[e2e][watch]") {
  FixtureCourse c;
  const json next = c.run_json({"next", "--json"});
  REQUIRE(next["next"]["lab"] == "module01/pass_lab");
  Watcher w(c, {"watch", "--poll"}, false);
  wait_for_runs(c, "module01/fail_lab", 1);  // pass_lab passed, then fail_lab failed
  std::this_thread::sleep_for(200ms);
  ::kill(w.pid, SIGINT);
  const auto& r = w.finish();
  SHOW(r);
  CHECK(r.exit_code == 130);
  CHECK(verdicts(c, "module01/pass_lab") == std::vector<std::string>{"pass"});
  CHECK(verdicts(c, "module01/fail_lab") == std::vector<std::string>{"fail"});
  CHECK(r.out.find("module01/pass_lab passes.") != std::string::npos);
  CHECK(r.out.find("Next: module01/fail_lab") != std::string::npos);
  CHECK(r.out.find("(polling every 0.5 s)") != std::string::npos);
  CHECK(r.out.find("Stopped.") != std::string::npos);
}

TEST_CASE("watch: Ctrl-C while the lab runs records it as interrupted and ends with 130", "[e2e][watch]") {
  FixtureCourse c;
  Watcher w(c, {"watch", "module01/hang_lab"}, false);
  const fs::path results = c.workspace / ".workbook/runs/run-1.jsonl";  // the lab writes it as it starts
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(kWatchLimit_s);
  while (!fs::exists(results) && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(20ms);
  REQUIRE(fs::exists(results));
  ::kill(w.pid, SIGINT);  // within the lab's 3 s limit
  const auto& r = w.finish();
  SHOW(r);
  CHECK(r.exit_code == 130);
  CHECK(verdicts(c, "module01/hang_lab") == std::vector<std::string>{"interrupted"});
  CHECK(r.out.find("Waiting for your next save") == std::string::npos);
}

TEST_CASE("watch's report holds the GPU clock and throttle lines that run's does", "[e2e][watch]") {
  FixtureCourse c;
  // A GPU (WORKBOOK_GPU_NAME) whose nvidia-smi reads a power-capped clock.
  const std::string path = e2e::path_with_fake_nvidia_smi(c.tmp.path / "smi-bin", "",
                                                          "echo '1410, 5001, 1590, 5001, 0x0000000000000004, 70, 300, P0'\n");
  const std::map<std::string, std::string> env{{"PATH", path}, {"WORKBOOK_GPU_NAME", "Fake GPU"}};
  const auto run = c.run({"run", "module01/pass_lab", "--no-predict"}, env);
  SHOW(run);
  REQUIRE(run.exit_code == 0);
  const auto watched = c.run({"watch", "module01/pass_lab", "--once"}, env);
  SHOW(watched);
  REQUIRE(watched.exit_code == 0);
  for (const std::string line : {"GPU before the run: SM 1410 MHz (max 1590)", "GPU after the run:  SM 1410 MHz",
                                 "the GPU was throttled before the run (sw_power_cap)"}) {
    CHECK(run.out.find(line) != std::string::npos);
    CHECK(watched.out.find(line) != std::string::npos);
  }
  // At 80 columns the runner's lines fold, the clock lines too (over 90 columns here, 108
  // on an H100: seen there 2026-12-05).
  std::map<std::string, std::string> narrow = env;
  narrow["COLUMNS"] = "80";
  const auto folded = c.run({"run", "module01/pass_lab", "--no-predict"}, narrow);
  CHECK(folded.out.find("GPU before the run: SM 1410 MHz (max 1590)") != std::string::npos);
  for (const auto& l : wbtest::lines_of(folded.out)) {
    if (l.rfind("[", 0) == 0) continue;  // the lab's own records: whole in a pipe (folded on a terminal)
    INFO(l);
    CHECK(wbtest::columns(l) <= 80);
  }
}
