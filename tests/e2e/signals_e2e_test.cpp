// End-to-end tests of signals: Ctrl-C, SIGTERM and SIGHUP while a lab runs, and a lab
// child that escapes the time-out kill with setsid. The real binary runs a hanging
// fixture lab (module01/hang_lab, module01/setsid_lab), the test signals it as a
// terminal or a job scheduler would, and then checks the exit, the journal, and that
// no process of the lab is left.
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/prctl.h>

#include <cerrno>
#include <csignal>
#include <optional>
#include <regex>

#include "e2e_support.hpp"
#include "../support/test_paths.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::Running;
using e2e::journal_value;
using e2e::process_exists;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {


// Waits for `pid` (a process of the lab) to be gone, reaping it when it came to this
// test as an orphan (the test is a subreaper while it runs the lab); a process still
// alive after that is a runner bug: it is killed (it is this test's) and false returned.
bool gone_or_kill(pid_t pid) {
  for (int i = 0; i < 1000 && process_exists(pid); ++i) {  // 10 s: a loaded 2-core CI machine
    ::waitpid(pid, nullptr, WNOHANG);
    if (process_exists(pid)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!process_exists(pid)) return true;
  pid_t group = ::getpgid(pid);
  if (group > 1 && group != ::getpgrp()) ::killpg(group, SIGKILL);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, WNOHANG);
  return false;
}

// The hang_lab's grandchild, once the lab has reported it in its results file.
std::optional<pid_t> wait_for_child_pid(const FixtureCourse& c, double limit_s = 60) {
  auto t0 = std::chrono::steady_clock::now();
  const std::regex child(R"re("name":"child_pid"[^}]*"value":([0-9]+))re");
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < limit_s) {
    std::error_code ec;
    for (fs::directory_iterator it(c.workspace / ".workbook/runs", ec), end; !ec && it != end; it.increment(ec)) {
      std::smatch m;
      std::string text = e2e::read_file(it->path());
      if (std::regex_search(text, m, child)) return static_cast<pid_t>(std::stol(m[1]));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return std::nullopt;
}

// Makes this test the reaper of the lab's orphans while it lives.
struct Subreaper {
  Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }
  ~Subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 0); }
};

}  // namespace

TEST_CASE("signals e2e: Ctrl-C while a lab runs: INTERRUPTED, exit 130, no prompt, the run closed", "[e2e][signals]") {
  FixtureCourse c;
  Subreaper reaper;
  // On a terminal, as a learner runs it: the runner would prompt for an explanation.
  Running run(c, {"run", "module01/hang_lab", "--timeout", "60"}, true);
  REQUIRE(run.wait_for_output("now sleep forever"));
  std::smatch m;
  REQUIRE(std::regex_search(run.out, m, std::regex(R"(parent (\d+) and child (\d+))")));
  const pid_t lab = static_cast<pid_t>(std::stol(m[1])), child = static_cast<pid_t>(std::stol(m[2]));
  // Ctrl-C at a terminal reaches the runner's foreground group only (the lab has its
  // own); then the learner types the next line before anything else happens.
  REQUIRE(::kill(run.pid, SIGINT) == 0);
  const std::string typed = "a line typed after Ctrl-C\n";
  REQUIRE(::write(run.master, typed.data(), typed.size()) == static_cast<ssize_t>(typed.size()));
  CommandResult r = run.finish();
  SHOW(r);
  CHECK(r.exit_code == 130);
  CHECK(r.signal == 0);
  CHECK(r.out.find("Verdict: INTERRUPTED") != std::string::npos);
  CHECK(r.out.find("interrupted (Ctrl-C)") != std::string::npos);
  CHECK(r.out.find("RUNTIME") == std::string::npos);
  CHECK(r.out.find("compute-sanitizer") == std::string::npos);
  CHECK(r.out.find("Explain") == std::string::npos);  // no explanation prompt
  CHECK(journal_value(c.journal(), "SELECT verdict FROM runs") == "interrupted");
  CHECK(journal_value(c.journal(), "SELECT detail FROM runs") == "interrupted (Ctrl-C)");
  CHECK(journal_value(c.journal(), "SELECT COUNT(*) FROM explanations") == "0");
  CHECK(gone_or_kill(lab));
  CHECK(gone_or_kill(child));
}

TEST_CASE("signals e2e: Ctrl-C in --json mode gives verdict interrupted and exit 130", "[e2e][signals]") {
  FixtureCourse c;
  Subreaper reaper;
  Running run(c, {"run", "module01/hang_lab", "--timeout", "60", "--json"}, false);
  auto child = wait_for_child_pid(c);
  REQUIRE(child);
  REQUIRE(::kill(run.pid, SIGINT) == 0);
  CommandResult r = run.finish();
  SHOW(r);
  CHECK(r.exit_code == 130);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  CHECK(j["verdict"] == "interrupted");
  CHECK(j["reason"] == "interrupted (Ctrl-C)");
  CHECK(j["next_step"].get<std::string>().find("compute-sanitizer") == std::string::npos);
  CHECK(journal_value(c.journal(), "SELECT verdict FROM runs") == "interrupted");
  CHECK(gone_or_kill(*child));
}

TEST_CASE("signals e2e: SIGTERM and SIGHUP are forwarded to the lab's group, the run is closed, the runner ends by them",
          "[e2e][signals]") {
  for (int sig : {SIGTERM, SIGHUP}) {
    INFO("signal " << sig);
    FixtureCourse c;
    Subreaper reaper;
    Running run(c, {"run", "module01/hang_lab", "--timeout", "60"}, false);
    auto child = wait_for_child_pid(c);
    REQUIRE(child);
    REQUIRE(::kill(run.pid, sig) == 0);
    CommandResult r = run.finish();
    SHOW(r);
    // Whoever sent the signal sees that it was obeyed ...
    CHECK(r.signal == sig);
    CHECK(r.wall_s < 10);
    // ... after the run was recorded and reported, and the lab's whole group was ended.
    CHECK(journal_value(c.journal(), "SELECT verdict FROM runs") == "interrupted");
    CHECK(journal_value(c.journal(), "SELECT detail FROM runs") ==
          (sig == SIGTERM ? "interrupted (SIGTERM)" : "interrupted (SIGHUP: the terminal closed)"));
    CHECK(r.out.find("Verdict: INTERRUPTED") != std::string::npos);
    CHECK(gone_or_kill(*child));
  }
}

TEST_CASE("signals e2e: a lab child that calls setsid is found, killed and reported after the time-out",
          "[e2e][signals][setsid]") {
  FixtureCourse c;
  Subreaper reaper;
  CommandResult r;
  json j = c.run_json({"run", "module01/setsid_lab", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 4);
  CHECK(j["verdict"] == "timeout");
  const std::string summary = j["process"]["summary"];
  CHECK(summary == "timed out after 3 s; 1 process it started had left its process group (setsid) and was killed");
  pid_t child = 0;
  std::stringstream lines(e2e::read_file(c.workspace / ".workbook/runs" /
                                         ("run-" + std::to_string(j["run_id"].get<long long>()) + ".jsonl")));
  for (std::string line; std::getline(lines, line);) {
    json rec = json::parse(line, nullptr, false);
    if (rec.is_object() && rec["type"] == "metric" && rec["name"] == "child_pid") child = rec["value"].get<pid_t>();
  }
  REQUIRE(child > 1);
  CHECK(gone_or_kill(child));
}

TEST_CASE("signals e2e: SIGTERM stops dev check --run at the lab it is running", "[e2e][signals]") {
  FixtureCourse c;
  Subreaper reaper;
  // hang_lab's solution hangs (a 3 s limit); its starter would be run next.
  Running run(c, {"dev", "check", "--run", "--only", "module01/hang_lab"}, false);
  auto child = wait_for_child_pid(c);
  REQUIRE(child);
  REQUIRE(::kill(run.pid, SIGTERM) == 0);
  CommandResult r = run.finish();
  SHOW(r);
  CHECK(r.signal == SIGTERM);
  CHECK(r.out.find("ran: interrupted") != std::string::npos);
  CHECK(r.out.find("Interrupted: the rows after the last one shown were not checked.") != std::string::npos);
  CHECK(r.out.find("starter") == std::string::npos);  // the next row was never started
  CHECK(gone_or_kill(*child));
}

namespace {

// A copy of hang_lab that passes at once: with it in the workspace, `run --compare` runs
// the learner's copy to its end and then hangs in the reference solution.
const char* kQuickHangLab = R"(#include "wb_host.hpp"
int main(int argc, char** argv) {
  wb::init(argc, argv, "module01/hang_lab");
  const long long n = wb::param("N", 1000, 10);
  wb::params_done();
  wb::metric("count", static_cast<double>(n), "count");
  wb::check("never_reached", true, 0.0, 0.0, "this copy ends");
  return wb::finish();
}
)";

// The parent of `pid` (/proc/PID/stat's fourth field), or 0 when it is gone.
pid_t parent_of(pid_t pid) {
  std::string stat = e2e::read_file("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream rest(stat.substr(close + 1));
  char state = 0;
  long ppid = 0;
  rest >> state >> ppid;
  return static_cast<pid_t>(ppid);
}

}  // namespace

TEST_CASE("signals e2e: Ctrl-C or SIGTERM while --compare runs the reference stops it: exit 130 or the signal, run recorded",
          "[e2e][signals][compare]") {
  for (int sig : {SIGINT, SIGTERM}) {
    INFO("signal " << sig);
    FixtureCourse c;
    Subreaper reaper;
    e2e::write_file(c.lab_copy("hang_lab.cpp"), kQuickHangLab);
    Running run(c, {"run", "module01/hang_lab", "--compare", "--no-predict", "--timeout", "60"}, false);
    auto child = wait_for_child_pid(c);  // only the reference reports one
    REQUIRE(child);
    const pid_t lab = parent_of(*child);
    REQUIRE(::kill(run.pid, sig) == 0);
    CommandResult r = run.finish();
    SHOW(r);
    CHECK(r.wall_s < 10);
    if (sig == SIGINT) CHECK(r.exit_code == 130);
    else CHECK(r.signal == SIGTERM);
    // Your run opened first (its predictions), the reference ran next and was stopped, and
    // your copy was then never started: both end interrupted.
    CHECK(e2e::journal_rows(c.journal(), "SELECT variant || ' ' || verdict FROM runs ORDER BY id") ==
          std::vector<std::string>{"starter interrupted", "solution interrupted"});
    CHECK(gone_or_kill(*child));
    if (lab > 1) CHECK(gone_or_kill(lab));
  }
}

TEST_CASE("signals e2e: a SIGKILLed runner takes the lab and its whole group with it (--compare's reference too)",
          "[e2e][signals][compare]") {
  FixtureCourse c;
  Subreaper reaper;
  e2e::write_file(c.lab_copy("hang_lab.cpp"), kQuickHangLab);
  Running run(c, {"run", "module01/hang_lab", "--compare", "--no-predict", "--timeout", "60"}, false);
  auto child = wait_for_child_pid(c);
  REQUIRE(child);
  const pid_t lab = parent_of(*child);
  REQUIRE(lab > 1);
  REQUIRE(::kill(run.pid, SIGKILL) == 0);
  CommandResult r = run.finish();
  CHECK(r.signal == SIGKILL);
  // Before: both slept on (the lab for ever, its child for 10 minutes) with nobody to end them.
  CHECK(gone_or_kill(lab));
  CHECK(gone_or_kill(*child));
}
