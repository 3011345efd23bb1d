// End-to-end tests: the real `workbook` binary against a copy of the fixture course
// (host-only labs speaking the lab contract): exit codes, JSON reports, the journal,
// the build cache, workspace commands, and content errors.
#include <sqlite3.h>
#include <sys/prctl.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <set>

#include "e2e_support.hpp"
#include "exec/process.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::journal_rows;
using e2e::journal_value;
using e2e::process_exists;
using e2e::find_by;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {


// The records of a run's results file (<workspace>/.workbook/runs/run-<id>.jsonl).
std::vector<json> results_records(const FixtureCourse& c, long long run_id) {
  fs::path file = c.workspace / ".workbook/runs" / ("run-" + std::to_string(run_id) + ".jsonl");
  INFO(file);
  REQUIRE(fs::is_regular_file(file));
  std::vector<json> out;
  std::stringstream lines(e2e::read_file(file));
  for (std::string line; std::getline(lines, line);) {
    json rec = json::parse(line, nullptr, false);
    REQUIRE(rec.is_object());
    out.push_back(rec);
  }
  return out;
}

}  // namespace

TEST_CASE("e2e: pass_lab passes, with checks, metrics in T4 ranges and graded predictions", "[e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--json", "--predict", "count_guess=900", "--predict", "kind=1",
                       "--predict", "big=yes"},
                      &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["verdict"] == "pass");
  CHECK(j["lab"] == "module01/pass_lab");
  CHECK(j["variant"] == "starter");
  CHECK(j["build"]["ok"] == true);
  CHECK(j["process"]["ran"] == true);
  CHECK(j["params"]["N"] == 1000);
  CHECK(j["device"].get<std::string>().find("Tesla T4") != std::string::npos);
  CHECK(j["run_id"].get<long long>() > 0);
  // The starter was copied into the workspace and that copy was run.
  CHECK(fs::is_regular_file(c.lab_copy("pass_lab.cpp")));
  CHECK(fs::path(j["source"].get<std::string>()) == c.lab_copy("pass_lab.cpp"));

  json check = find_by(j["checks"], "name", "sum_ok");
  CHECK(check["pass"] == true);
  CHECK(check["reported"] == true);
  CHECK(check["required"] == true);

  json count = find_by(j["metrics"], "name", "count");
  CHECK(count["value"] == 1000);
  CHECK(count["expected_min"] == 1000);
  CHECK(count["expected_max"] == 1000);
  CHECK(count["status"] == "in range");
  json ms = find_by(j["metrics"], "name", "sum_ms");
  // The fake GPU is a T4, the workbook's own GPU: at default parameters its figure,
  // widened by 20 %, replaces the model band (0 .. sm_count * 100).
  CHECK(ms["basis"] == "workbook");
  CHECK(ms["expected_min"].get<double>() == Approx(0.00001 / 1.2));
  CHECK(ms["expected_max"].get<double>() == Approx(1.2));
  CHECK(ms["status"] == "in range");
  CHECK(ms["samples"] == 5);
  CHECK(ms["reference"] == "Tesla T4: 1e-05 to 1 ms");  // the reference sheet's name
  json dbl = find_by(j["metrics"], "name", "double_count");
  CHECK(dbl["derived"] == true);
  CHECK(dbl["value"] == 2000);
  CHECK(dbl["status"] == "in range");

  json guess = find_by(j["predictions"], "id", "count_guess");
  CHECK(guess["answer"] == "900");
  CHECK(guess["measured"] == 1000);
  CHECK(guess["factor"].get<double>() == Approx(1000.0 / 900.0));
  CHECK(guess["band"] == "within 1.25x");
  CHECK(guess["score"] == 3);
  CHECK(guess["max_score"] == 3);
  json kind = find_by(j["predictions"], "id", "kind");
  CHECK(kind["answer"] == "a sum");  // "1" is the first choice
  CHECK(kind["correct"] == true);
  json big = find_by(j["predictions"], "id", "big");
  CHECK(big["answer"] == "yes");
  CHECK(big["correct"] == true);  // count = 1000 > 500
  CHECK(big["right_answer"] == "yes");
}

TEST_CASE("e2e: wrong predictions are graded wrong, and -p changes what the lab runs with", "[e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--json", "-p", "N=100", "--predict", "count_guess=1000",
                       "--predict", "kind=a product", "--predict", "big=yes"},
                      &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["params"]["N"] == 100);
  CHECK(find_by(j["metrics"], "name", "count")["value"] == 100);
  CHECK(find_by(j["metrics"], "name", "count")["status"] == "in range");  // equals N follows -p
  json guess = find_by(j["predictions"], "id", "count_guess");
  CHECK(guess["band"] == "off by more than 4x");
  CHECK(guess["score"] == 0);
  CHECK(find_by(j["predictions"], "id", "kind")["correct"] == false);
  json big = find_by(j["predictions"], "id", "big");
  CHECK(big["correct"] == false);  // count = 100 is not above 500
  CHECK(big["right_answer"] == "no");
}

TEST_CASE("e2e: fail_lab fails (exit 1), its solution passes (exit 0)", "[e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/fail_lab", "--json", "--no-predict"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 1);
  CHECK(j["verdict"] == "fail");
  CHECK(j["reason"] == "check 'sum_ok' failed");
  json check = find_by(j["checks"], "name", "sum_ok");
  CHECK(check["pass"] == false);
  CHECK(check["reported"] == true);
  CHECK(check["detail"] == "sum 499500, expected 500500");

  CommandResult s;
  json sol = c.run_json({"run", "module01/fail_lab", "--json", "--solution", "--yes"}, &s);
  SHOW(s);
  CHECK(s.exit_code == 0);
  CHECK(sol["verdict"] == "pass");
  CHECK(sol["variant"] == "solution");
  CHECK(fs::path(sol["source"].get<std::string>()) == c.content / "solutions/module01/fail_lab.cpp");
  CHECK(find_by(sol["checks"], "name", "sum_ok")["pass"] == true);
}

TEST_CASE("e2e: crash_lab is a runtime error (exit 4), records before the crash are kept", "[e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/crash_lab", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 4);
  CHECK(j["verdict"] == "runtime_error");
  std::string reason = j["reason"];
  CHECK((reason.find("signal 11") != std::string::npos || reason.find("signal 6") != std::string::npos));
  // The results file keeps what the lab wrote before it died: its metric, but no `end`.
  auto records = results_records(c, j["run_id"].get<long long>());
  CHECK(std::any_of(records.begin(), records.end(),
                    [](const json& rec) { return rec["type"] == "metric" && rec["name"] == "count" && rec["value"] == 1000; }));
  CHECK(std::none_of(records.begin(), records.end(), [](const json& rec) { return rec["type"] == "end"; }));
  CHECK(find_by(j["checks"], "name", "never_reached")["reported"] == false);
  CHECK(j["process"]["stdout"].get<std::string>().find("about to dereference a null pointer") != std::string::npos);
  // The way to find the bad access is one flag away.
  CHECK(j["next_step"].get<std::string>().find("workbook run module01/crash_lab --sanitize") != std::string::npos);
}

TEST_CASE("e2e: hang_lab times out (exit 4) and its whole process group is gone", "[e2e][slow]") {
  FixtureCourse c;
  // Orphans of this test (the lab's forked child, once the lab is killed) are re-parented
  // to us, so they can be reaped and kill(pid, 0) then says ESRCH for a dead process.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  CommandResult r;
  json j = c.run_json({"run", "module01/hang_lab", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 4);
  CHECK(j["verdict"] == "timeout");
  CHECK(j["reason"] == "the lab did not finish within 3 s");
  CHECK(r.wall_s < 15);
  CHECK(j["process"]["wall_s"].get<double>() < 10);

  // The grandchild's pid, from the results file in the workspace.
  pid_t child = 0;
  for (const json& rec : results_records(c, j["run_id"].get<long long>())) {
    if (rec["type"] == "metric" && rec["name"] == "child_pid") child = rec["value"].get<pid_t>();
  }
  REQUIRE(child > 1);
  // Reap it if it came to us as a zombie; give the kernel a moment to deliver the kill.
  for (int i = 0; i < 200 && process_exists(child); ++i) {
    ::waitpid(child, nullptr, WNOHANG);
    if (process_exists(child)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  errno = 0;
  int rc = ::kill(child, 0);
  int err = errno;
  if (rc == 0) {  // a runner bug left it running: end it (it is this test's) and fail
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
  }
  CHECK(rc == -1);
  CHECK(err == ESRCH);
}

TEST_CASE("e2e: --timeout 1 is the limit the verdict names, as the process summary does", "[e2e][slow]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/hang_lab", "--timeout", "1", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 4);
  CHECK(j["verdict"] == "timeout");
  CHECK(j["reason"] == "the lab did not finish within 1 s");
  CHECK(j["process"]["wall_s"].get<double>() < 3);
}

TEST_CASE("e2e: broken_lab is a compile error (exit 3) pointing at broken_lab.cpp:13", "[e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/broken_lab", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 3);
  CHECK(j["verdict"] == "compile_error");
  CHECK(j["build"]["ok"] == false);
  CHECK(j["process"]["ran"] == false);
  std::string diag = j["build"]["diagnostics"];
  CHECK(diag.find("broken_lab.cpp:13") != std::string::npos);
  CHECK(diag.find("undeclared_variable") != std::string::npos);
  // The learner's view of the path, not the absolute temp path.
  CHECK(diag.find(c.workspace.string()) == std::string::npos);

  CommandResult text = c.run({"run", "module01/broken_lab"});
  SHOW(text);
  CHECK(text.exit_code == 3);
  CHECK(text.out.find("broken_lab.cpp:13") != std::string::npos);
  CHECK(text.out.find("COMPILE ERROR") != std::string::npos);
}

TEST_CASE("e2e: a malformed manifest makes `list` exit 2 with every problem on stderr", "[e2e]") {
  FixtureCourse c("bad_course");
  CommandResult r = c.run({"list"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.signal == 0);
  CHECK(r.err.find("error: the content does not validate") != std::string::npos);
  CHECK(r.err.find("internal error") == std::string::npos);
  std::ifstream in(c.content / "modules/module03/module.yaml");
  int no = 0, bad = 0;
  for (std::string line; std::getline(in, line);) {
    ++no;
    if (line.find("# BAD") == std::string::npos) continue;
    ++bad;
    INFO("BAD line " << no);
    CHECK(r.err.find("modules/module03/module.yaml:" + std::to_string(no) + ": ") != std::string::npos);
  }
  CHECK(bad >= 7);
  CHECK(r.err.find("colour: unknown key") != std::string::npos);
  CHECK(r.err.find("'dram_gbpss'") != std::string::npos);
  // Other commands that read the content fail the same way, without a crash.
  CommandResult show = c.run({"show", "module03"});
  CHECK(show.exit_code == 2);
  CHECK(show.err.find("modules/module03/module.yaml:3: module:") != std::string::npos);
}

TEST_CASE("e2e: bad command lines exit 2 with a message on stderr and record nothing", "[e2e]") {
  FixtureCourse c;
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"run", "module01/no_such_lab"}, "module01 has no lab 'no_such_lab'"},
      {{"run", "module99/pass_lab"}, "'module99/pass_lab' is not a module or lab id"},
      {{"run", "module01/../etc"}, "is not a module or lab id"},
      {{"run", "module01"}, "names a module"},
      {{"run", "module01/pass_lab", "-p", "M=5"}, "module01/pass_lab has no parameter 'M'"},
      {{"run", "module01/pass_lab", "-p", "N=lots"}, "-p N: 'lots' is not a number"},
      {{"run", "module01/pass_lab", "--predict", "speed=3"}, "module01/pass_lab has no prediction 'speed'"},
      {{"run", "module01/pass_lab", "--predict", "count_guess=lots"}, "prediction 'count_guess': 'lots' is not a number"},
      {{"run", "module01/pass_lab", "--predict", "kind=3"}, "is not one of the choices"},
      {{"run", "module01/pass_lab", "--predict", "big=maybe"}, "answer yes or no"},
      {{"run", "module01/pass_lab", "--predict", "count_guess"}, "write ID=VALUE"},
      {{"run", "module01/pass_lab", "--no-such-flag"}, "--no-such-flag"},
      {{"show", "module01/no_such_lab"}, "has no lab"},
      {{"show", "module02"}, "module02 has no content yet"},
  };
  for (const auto& k : cases) {
    std::string cmd;
    for (const auto& a : k.args) cmd += a + " ";
    INFO(cmd);
    CommandResult r = c.run(k.args);
    SHOW(r);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(k.message) != std::string::npos);
    CHECK(r.out.find(k.message) == std::string::npos);
  }
  // None of them started a run.
  if (fs::exists(c.journal())) CHECK(journal_rows(c.journal(), "SELECT COUNT(*) FROM runs")[0] == "0");
  // No content at all is a usage error too.
  CommandResult none = c.run({"list"}, {{"WORKBOOK_CONTENT", (c.tmp.path / "nowhere").string()}});
  CHECK(none.exit_code == 2);
  CHECK(none.err.find("WORKBOOK_CONTENT names") != std::string::npos);
  CHECK(none.err.find("--content names") == std::string::npos);
  // --content, before or after the subcommand, wins over the variable.
  CHECK(c.run({"--content", c.content.string(), "list"}, {{"WORKBOOK_CONTENT", (c.tmp.path / "nowhere").string()}})
            .exit_code == 0);
  CHECK(c.run({"list", "--content", c.content.string()}, {{"WORKBOOK_CONTENT", (c.tmp.path / "nowhere").string()}})
            .exit_code == 0);
}

TEST_CASE("e2e: predictions are in the journal before the build, and cannot be changed", "[e2e]") {
  FixtureCourse c;
  // A source that does not compile: the predictions must be recorded all the same.
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--json", "--file", c.starter("broken_lab.cpp").string(),
                       "--predict", "count_guess=900", "--predict", "kind=a sum", "--predict", "big=no"},
                      &r);
  SHOW(r);
  CHECK(r.exit_code == 3);
  CHECK(j["verdict"] == "compile_error");
  std::string run = std::to_string(j["run_id"].get<long long>());
  auto rows = journal_rows(c.journal(), "SELECT prediction || '=' || answer FROM predictions WHERE run_id=" + run +
                                            " ORDER BY id");
  CHECK(rows == std::vector<std::string>{"count_guess=900", "kind=a sum", "big=no"});
  CHECK(journal_rows(c.journal(), "SELECT number FROM predictions WHERE prediction='count_guess'")[0] == "900.0");
  CHECK(journal_rows(c.journal(), "SELECT verdict FROM runs WHERE id=" + run)[0] == "compile_error");
  // The journal is in WAL mode, and refuses to change a prediction.
  CHECK(journal_rows(c.journal(), "PRAGMA journal_mode")[0] == "wal");
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(c.journal().c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
  CHECK(sqlite3_exec(db, "UPDATE predictions SET answer='1000'", nullptr, nullptr, nullptr) != SQLITE_OK);
  CHECK(sqlite3_exec(db, "DELETE FROM predictions", nullptr, nullptr, nullptr) != SQLITE_OK);
  sqlite3_close(db);
  CHECK(journal_rows(c.journal(), "SELECT COUNT(*) FROM predictions")[0] == "3");

  // A run that passes stores its grades too.
  CommandResult ok;
  json pass = c.run_json({"run", "module01/pass_lab", "--json", "--predict", "count_guess=900"}, &ok);
  CHECK(ok.exit_code == 0);
  std::string id = std::to_string(pass["run_id"].get<long long>());
  CHECK(journal_rows(c.journal(), "SELECT verdict FROM runs WHERE id=" + id)[0] == "pass");
  CHECK(journal_rows(c.journal(), "SELECT COUNT(*) FROM checks WHERE run_id=" + id)[0] == "1");
  // count, sum_ms, and the derived double_count, sum_gflops and sum_gbps
  CHECK(journal_rows(c.journal(), "SELECT COUNT(*) FROM metrics WHERE run_id=" + id)[0] == "5");
  CHECK(journal_rows(c.journal(), "SELECT score FROM prediction_grades WHERE run_id=" + id +
                                      " AND prediction='count_guess'")[0] == "3");
}

TEST_CASE("e2e: the build cache: the second run of an unchanged lab is not compiled", "[e2e]") {
  FixtureCourse c("course", e2e::BuildCache::cold);  // the one test that proves a cold build
  CommandResult r1, r2, r3;
  json first = c.run_json({"run", "module01/pass_lab", "--json", "--no-predict"}, &r1);
  json second = c.run_json({"run", "module01/pass_lab", "--json", "--no-predict"}, &r2);
  CHECK(r1.exit_code == 0);
  CHECK(r2.exit_code == 0);
  CHECK(first["build"]["cached"] == false);
  CHECK(second["build"]["cached"] == true);
  CHECK(second["verdict"] == "pass");
  // Editing the copy invalidates the cache.
  e2e::write_file(c.lab_copy("pass_lab.cpp"), e2e::read_file(c.lab_copy("pass_lab.cpp")) + "\n// edited\n");
  json third = c.run_json({"run", "module01/pass_lab", "--json", "--no-predict"}, &r3);
  CHECK(r3.exit_code == 0);
  CHECK(third["build"]["cached"] == false);
}

TEST_CASE("e2e: init copies every starter and never overwrites an edited copy", "[e2e]") {
  FixtureCourse c;
  fs::path ws = c.tmp.path / "my-workbook";
  CommandResult r = c.run({"init", ws.string()});
  SHOW(r);
  CHECK(r.exit_code == 0);
  for (const char* f : {"pass_lab.cpp", "fail_lab.cpp", "crash_lab.cpp", "hang_lab.cpp", "broken_lab.cpp", "bytes_lab.cpp",
                        "setsid_lab.cpp"}) {
    INFO(f);
    REQUIRE(fs::is_regular_file(ws / "labs/module01" / f));
    CHECK(e2e::read_file(ws / "labs/module01" / f) == e2e::read_file(c.starter(f)));
  }
  CHECK(fs::is_regular_file(ws / ".workbook/journal.db"));
  CHECK(r.out.find("7 new lab copies, 0 kept") != std::string::npos);

  const std::string mine = "// my own work, do not lose it\n";
  e2e::write_file(ws / "labs/module01/pass_lab.cpp", mine);
  CommandResult again = c.run({"init", ws.string()});
  SHOW(again);
  CHECK(again.exit_code == 0);
  CHECK(e2e::read_file(ws / "labs/module01/pass_lab.cpp") == mine);
  CHECK(again.out.find("0 new lab copies, 7 kept") != std::string::npos);
}

TEST_CASE("e2e: reset needs --yes without a terminal, then restores the starter and keeps a .bak", "[e2e]") {
  FixtureCourse c;
  REQUIRE(c.run({"init"}).exit_code == 0);  // into WORKBOOK_WORKSPACE
  const fs::path copy = c.lab_copy("pass_lab.cpp");
  REQUIRE(fs::is_regular_file(copy));
  const std::string mine = "// half-done work\n";
  e2e::write_file(copy, mine);

  CommandResult refused = c.run({"reset", "module01/pass_lab"});
  SHOW(refused);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("--yes") != std::string::npos);
  CHECK(e2e::read_file(copy) == mine);
  CHECK_FALSE(fs::exists(copy.string() + ".bak"));

  CommandResult done = c.run({"reset", "module01/pass_lab", "--yes"});
  SHOW(done);
  CHECK(done.exit_code == 0);
  CHECK(e2e::read_file(copy) == e2e::read_file(c.starter("pass_lab.cpp")));
  CHECK(e2e::read_file(copy.string() + ".bak") == mine);

  CHECK(c.run({"reset", "module01", "--yes"}).exit_code == 2);
}

TEST_CASE("e2e: show --json gives expected ranges from the T4 sheet", "[e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"show", "module01/pass_lab", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["lab"] == "module01/pass_lab");
  CHECK(j["device"].get<std::string>().find("Tesla T4") != std::string::npos);
  json ms = find_by(j["expected"], "metric", "sum_ms");
  // On a T4 the graded workbook figure (0.00001-1 ms, widened by 20 %) replaces the
  // model band (0 .. sm_count * 100 = 4000 with the T4's 40 SMs).
  CHECK(ms["basis"] == "workbook");
  CHECK(ms["min"].get<double>() == Approx(0.00001 / 1.2));
  CHECK(ms["max"].get<double>() == Approx(1.2));
  CHECK(ms["reference"] == "Tesla T4: 1e-05 to 1 ms");  // the reference sheet's name
  json count = find_by(j["expected"], "metric", "count");
  CHECK(count["min"] == 1000);
  CHECK(count["max"] == 1000);
  CHECK(find_by(j["expected"], "metric", "double_count")["max"] == 2000);
  CHECK(find_by(j["params"], "name", "N")["default"] == 1000);
  CHECK(j["predictions"].size() == 3);

  // Another sheet gives other ranges: --gpu picks it.
  json h = c.run_json({"show", "module01/pass_lab", "--json", "--gpu", "rtx3050-laptop-6gb"});
  CHECK(find_by(h["expected"], "metric", "sum_ms")["max"] != 4000);
  // The start of one id: the error names it.
  CommandResult partial = c.run({"show", "module01/pass_lab", "--gpu", "rtx3050"});
  CHECK(partial.exit_code == 2);
  CHECK(partial.err.find("did you mean --gpu rtx3050-laptop-6gb?") != std::string::npos);
  // With no GPU and no sheet, the ranges are unknown rather than wrong.
  CommandResult nog = c.run({"show", "module01/pass_lab", "--json"}, {{"WORKBOOK_GPU_NAME", "Imaginary GPU 9000"}});
  json n = json::parse(nog.out, nullptr, false);
  REQUIRE_FALSE(n.is_discarded());
  CHECK(find_by(n["expected"], "metric", "sum_ms")["max"].is_null());
  CHECK(find_by(n["expected"], "metric", "sum_ms")["note"] == "no device figures");

  json list = c.run_json({"list", "--json"});
  REQUIRE(list.size() == 1);
  CHECK(list[0]["module"] == "module01");
  CHECK(list[0]["labs"].size() == 7);
}

TEST_CASE("e2e: --help exits 0 and shows examples", "[e2e]") {
  FixtureCourse c;
  CommandResult r = c.run({"--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Examples") != std::string::npos);
  CHECK(r.out.find("Exit codes") != std::string::npos);
  CommandResult run_help = c.run({"run", "--help"});
  CHECK(run_help.exit_code == 0);
  CHECK(run_help.out.find("Examples") != std::string::npos);
  CHECK(run_help.out.find("--predict") != std::string::npos);
  CommandResult nothing = c.run({});  // no command: the progress screen (issue 16)
  CHECK(nothing.exit_code == 0);
  CHECK(nothing.out.find("Progress, ") == 0);
}

TEST_CASE("e2e: NO_COLOR turns colour off even on a terminal", "[e2e]") {
  FixtureCourse c;
  // Control: on a terminal, without NO_COLOR, the output is coloured...
  auto env = c.env();
  env.erase("NO_COLOR");
  CommandResult coloured = e2e::run_workbook_on_pty({"show", "module01/pass_lab"}, env);
  INFO(coloured.out);
  CHECK(coloured.exit_code == 0);
  CHECK(coloured.out.find("\x1b[") != std::string::npos);
  // ...with NO_COLOR it is not, for show and for a whole run report.
  CommandResult plain = e2e::run_workbook_on_pty({"show", "module01/pass_lab"}, c.env());
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.find("module01/pass_lab") != std::string::npos);
  CHECK(plain.out.find("\x1b[") == std::string::npos);
  CommandResult run = e2e::run_workbook_on_pty({"run", "module01/fail_lab", "--no-predict"}, c.env());
  INFO(run.out);
  CHECK(run.exit_code == 1);
  CHECK(run.out.find("Verdict:") != std::string::npos);
  CHECK(run.out.find("\x1b[") == std::string::npos);
  // --no-color does the same without the variable.
  CommandResult flag = e2e::run_workbook_on_pty({"--no-color", "show", "module01/pass_lab"}, env);
  CHECK(flag.out.find("\x1b[") == std::string::npos);
  // And output that is not a terminal is never coloured.
  CommandResult piped = c.run({"run", "module01/pass_lab", "--no-predict"}, {{"NO_COLOR", ""}});
  CHECK(piped.exit_code == 0);
  CHECK(piped.out.find("Verdict:") != std::string::npos);
  CHECK(piped.out.find("\x1b[") == std::string::npos);
}

TEST_CASE("e2e: a correct run with a figure out of range is out_of_range (exit 5) in JSON and the journal", "[e2e][variants]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/fail_lab", "--json", "--variant", "miscounted", "--yes"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 5);
  CHECK(j["verdict"] == "out_of_range");
  CHECK(j["variant"] == "variant");
  CHECK(j["reason"] == "correct, but count = 2000 is not the expected 1000: the lab summed a different number of terms than N");
  CHECK(find_by(j["checks"], "name", "sum_ok")["pass"] == true);
  CHECK(journal_rows(c.workspace / ".workbook/journal.db", "SELECT verdict FROM runs") ==
        std::vector<std::string>{"out_of_range"});
  CommandResult text = c.run({"run", "module01/fail_lab", "--variant", "miscounted", "--yes"});
  CHECK(text.exit_code == 5);
  CHECK(text.out.find("Verdict: OUT OF RANGE") != std::string::npos);
}

TEST_CASE("e2e: --variant runs a known-wrong variant of the solution, an unknown id lists the variants", "[e2e][variants]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/fail_lab", "--json", "--variant", "loop_stops_early", "--yes"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 1);
  CHECK(j["verdict"] == "fail");
  CHECK(fs::path(j["source"].get<std::string>()) ==
        c.workspace / ".workbook/variants/module01/fail_lab/fail_lab.loop_stops_early.cpp");

  CommandResult bad = c.run({"run", "module01/fail_lab", "--variant", "nope"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("module01/fail_lab has no variant 'nope'") != std::string::npos);
  CHECK(bad.err.find("its variants: loop_stops_early, miscounted") != std::string::npos);
}

TEST_CASE("e2e: dev check --run proves the solution passes, the starter and wrong variant fail, the slow one is out of range",
          "[e2e][variants]") {
  FixtureCourse c;
  CommandResult r = c.run({"dev", "check", "--run", "--only", "module01/fail_lab", "--json"});
  SHOW(r);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE(j.is_object());
  std::map<std::string, std::pair<std::string, bool>> rows;
  for (const auto& row : j["labs"]) rows[row["variant"]] = {row["verdict"], row["ok"]};
  CHECK(rows["solution"] == std::pair<std::string, bool>{"pass", true});
  CHECK(rows["starter"] == std::pair<std::string, bool>{"fail", true});
  CHECK(rows["wrong:loop_stops_early"] == std::pair<std::string, bool>{"fail", true});
  CHECK(rows["slow:miscounted"] == std::pair<std::string, bool>{"out_of_range", true});
  CHECK(r.exit_code == 0);
}

TEST_CASE("e2e: dev check --run fails when a known-wrong variant passes", "[e2e][variants]") {
  FixtureCourse c;
  // Make the "wrong" variant's edit harmless: it now changes only a comment.
  fs::path manifest = c.content / "modules/module01/module.yaml";
  std::string text = e2e::read_file(manifest);
  const std::string from = R"({from: "i <= n; ++i) sum = sum + i;", to: "i < n; ++i) sum = sum + i;"})";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), R"x({from: "// fixed: the starter", to: "// (harmless edit)"})x");
  std::ofstream(manifest) << text;
  CommandResult r = c.run({"dev", "check", "--run", "--only", "module01/fail_lab"});
  SHOW(r);
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("the known-wrong variant should fail a check, but gave 'pass': no check catches this mistake") !=
        std::string::npos);
}

TEST_CASE("e2e: a variant whose edit no longer applies is dev check's problem, and a learner's run of the lab still runs",
          "[e2e][variants]") {
  FixtureCourse c;
  fs::path manifest = c.content / "modules/module01/module.yaml";
  std::string text = e2e::read_file(manifest);
  const std::string from = R"(from: "i <= n; ++i) sum = sum + i;")";
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), R"(from: "a line the solution no longer has")");
  std::ofstream(manifest) << text;
  CommandResult check = c.run({"dev", "check", "--only", "module01/fail_lab"});
  SHOW(check);
  CHECK(check.exit_code == 1);
  CHECK(check.out.find("labs.fail_lab.variants.loop_stops_early.edits[0].from: occurs 0 times in the solution") !=
        std::string::npos);
  // A run loads the manifest's own fields: the starter and the other variant run as before,
  // and only the variant asked for is applied (and refused).
  CHECK(c.run({"run", "module01/fail_lab", "--no-predict"}).exit_code == 1);
  CHECK(c.run({"run", "module01/fail_lab", "--variant", "miscounted", "--yes", "--no-predict"}).exit_code == 5);
  CommandResult broken = c.run({"run", "module01/fail_lab", "--variant", "loop_stops_early", "--yes", "--no-predict"});
  SHOW(broken);
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("loop_stops_early.edits[0].from: occurs 0 times in the solution") != std::string::npos);
}

TEST_CASE("e2e: a CUDA lab on a machine without a GPU is not_run (exit 2) in the JSON and the journal alike",
          "[e2e][verdict]") {
  const char* nvcc_env = std::getenv("WORKBOOK_NVCC");
  const fs::path nvcc = nvcc_env && *nvcc_env ? fs::path(nvcc_env) : fs::path("/usr/local/cuda/bin/nvcc");
  if (!fs::exists(nvcc)) {  // Catch2 v2 has no SKIP
    WARN("skipped: no nvcc at " << nvcc.string() << " (set WORKBOOK_NVCC)");
    return;
  }
  FixtureCourse c;
  e2e::add_cuda_lab(c);
  CommandResult r = c.run({"run", "module01/gpu_lab", "--no-predict", "--json"},
                          {{"WORKBOOK_GPU_NAME", ""}, {"WORKBOOK_NVCC", nvcc.string()}});
  SHOW(r);
  CHECK(r.exit_code == 2);
  json j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  CHECK(j["verdict"] == "not_run");
  CHECK(j["reason"].get<std::string>().find("no NVIDIA GPU") != std::string::npos);
  CHECK(journal_value(c.journal(), "SELECT verdict FROM runs WHERE id = " + std::to_string(j["run_id"].get<long long>())) ==
        "not_run");
}

TEST_CASE("e2e: a Python lab speaks the contract through wb.py, a missing package is not_run, a syntax error a compile error",
          "[e2e][python]") {
  if (!workbook::find_in_path("python3")) {  // Catch2 v2 has no SKIP
    WARN("skipped: no python3 on PATH");
    return;
  }
  FixtureCourse c;
  std::ofstream(c.content / "modules/module01/module.yaml", std::ios::app)
      << "  - id: py_lab\n    title: \"A Python lab\"\n    goal: \"Sums in Python.\"\n    source: py_lab.py\n"
      << "    language: python\n    steps: [\"Run it.\"]\n    timeout_s: 30\n"
      << "    params:\n      - {name: N, default: 100, quick: 10}\n    checks: [sum_ok]\n"
      << "    metrics:\n      - {name: count, unit: count, expected: {equals: \"N\"}}\n";
  const std::string program =
      "# PYTHONPATH=labs/common python3 labs/module01/py_lab.py\n"
      "import os, sys\n"
      "import wb\n"
      "wb.init('module01/py_lab')\n"
      "if os.environ.get('NEEDS_MISSING'):\n"
      "    wb.require('no_such_module_for_the_test', 'pip install no-such-module')\n"
      "n = wb.param('N', 100, 10)\n"
      "wb.metric('count', n, 'count')\n"
      "wb.check('sum_ok', sum(range(1, n + 1)) == n * (n + 1) // 2)\n"
      "sys.exit(wb.finish())\n";
  e2e::write_file(c.content / "labs/module01/py_lab.py", program);
  e2e::write_file(c.content / "solutions/module01/py_lab.py", program);

  json j = c.run_json({"run", "module01/py_lab", "--solution", "--yes", "--no-predict", "--json", "-p", "N=37"});
  CHECK(j["verdict"] == "pass");
  json count = find_by(j["metrics"], "name", "count");
  CHECK(count["value"] == 37);

  CommandResult r = c.run({"run", "module01/py_lab", "--solution", "--yes", "--no-predict", "--json"}, {{"NEEDS_MISSING", "1"}});
  SHOW(r);
  CHECK(r.exit_code == 2);
  j = json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  CHECK(j["verdict"] == "not_run");
  CHECK(j["reason"].get<std::string>().find("pip install no-such-module") != std::string::npos);

  e2e::write_file(c.workspace / "labs/module01/py_lab.py", "x = 1\n\ndef broken(:\n    pass\n");
  r = c.run({"run", "module01/py_lab", "--no-predict"});
  SHOW(r);
  CHECK(r.exit_code == 3);
  CHECK(r.out.find("labs/module01/py_lab.py:3: error: SyntaxError") != std::string::npos);
}
