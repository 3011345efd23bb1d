// End-to-end tests of what must never be lost or crash (issue 10): `reset` keeps every
// backup; text that is not UTF-8 (a lab's output, an --explain) still gives valid JSON
// and a recorded run; the runs/ folder is pruned; a learner's very long line is cut,
// not a crash.
#include <sqlite3.h>

#include <algorithm>
#include <set>

#include "e2e_support.hpp"
#include "learn_support.hpp"
#include "../support/text_checks.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::journal_value;
using nlohmann::json;
using wbtest::kFFFD;
namespace fs = std::filesystem;

namespace {


// The backups of a lab copy beside it: <file>.bak, <file>.bak.1, ...
std::set<std::string> backups_of(const fs::path& copy) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(copy.parent_path())) {
    std::string n = e.path().filename().string();
    if (n.rfind(copy.filename().string() + ".bak", 0) == 0) names.insert(n);
  }
  return names;
}

}  // namespace

TEST_CASE("e2e: reset twice keeps both backups, resetting an untouched copy keeps nothing new", "[e2e][reset]") {
  FixtureCourse c;
  REQUIRE(c.run({"init"}).exit_code == 0);
  const fs::path copy = c.lab_copy("pass_lab.cpp");
  const std::string starter = e2e::read_file(c.starter("pass_lab.cpp"));
  const std::string first = "// my first attempt\n";
  e2e::write_file(copy, first);

  CommandResult r1 = c.run({"reset", "module01/pass_lab", "--yes"});
  SHOW(r1);
  CHECK(r1.exit_code == 0);
  CHECK(e2e::read_file(copy) == starter);
  CHECK(e2e::read_file(copy.string() + ".bak") == first);
  CHECK(r1.out.find("pass_lab.cpp.bak") != std::string::npos);

  // The copy is the starter now: a second reset has nothing to keep and must not touch .bak.
  CommandResult r2 = c.run({"reset", "module01/pass_lab", "--yes"});
  SHOW(r2);
  CHECK(r2.exit_code == 0);
  CHECK(r2.out.find("already the starter") != std::string::npos);
  CHECK(e2e::read_file(copy.string() + ".bak") == first);
  CHECK(backups_of(copy) == std::set<std::string>{"pass_lab.cpp.bak"});

  // New work, another reset: a new numbered backup, the first one untouched.
  const std::string second = "// my second attempt\n";
  e2e::write_file(copy, second);
  CommandResult r3 = c.run({"reset", "module01/pass_lab", "--yes"});
  SHOW(r3);
  CHECK(r3.exit_code == 0);
  CHECK(e2e::read_file(copy) == starter);
  CHECK(e2e::read_file(copy.string() + ".bak") == first);
  CHECK(e2e::read_file(copy.string() + ".bak.1") == second);
  CHECK(r3.out.find("pass_lab.cpp.bak.1") != std::string::npos);

  // And a third: .bak.2; nothing is ever overwritten.
  e2e::write_file(copy, "// third\n");
  REQUIRE(c.run({"reset", "module01/pass_lab", "--yes"}).exit_code == 0);
  CHECK(e2e::read_file(copy.string() + ".bak.2") == "// third\n");
  CHECK(e2e::read_file(copy.string() + ".bak.1") == second);
  CHECK(e2e::read_file(copy.string() + ".bak") == first);
  CHECK(backups_of(copy).size() == 3);
}

TEST_CASE("e2e: a lab printing bytes that are not UTF-8 gives valid JSON, the verdict's exit code, and a recorded run",
          "[e2e][utf8]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/bytes_lab", "--json", "--explain", "because \xFF\xFE reasons"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["verdict"] == "pass");
  const std::string out = j["process"]["stdout"];
  CHECK(out.find("[" + kFFFD + "] [" + kFFFD + "] [" + kFFFD + "]") != std::string::npos);
  CHECK(j["process"]["stderr"].get<std::string>().find("[" + kFFFD + kFFFD + "]") != std::string::npos);
  CHECK(j["explanation"] == "because " + kFFFD + kFFFD + " reasons");
  const std::string id = std::to_string(j["run_id"].get<long long>());
  CHECK(journal_value(c.journal(), "SELECT verdict FROM runs WHERE id=" + id) == "pass");
  // The journal stores text as valid UTF-8 (issue 26): each byte that is not is stored as U+FFFD.
  CHECK(journal_value(c.journal(), "SELECT text FROM explanations WHERE run_id=" + id) == "because " + kFFFD + kFFFD + " reasons");

  json f = c.run_json({"run", "module01/bytes_lab", "--json", "-p", "FAIL=1"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 1);
  CHECK(f["verdict"] == "fail");
  CHECK(journal_value(c.journal(), "SELECT verdict FROM runs WHERE id=" + std::to_string(f["run_id"].get<long long>())) ==
        "fail");
}

TEST_CASE("e2e: a --file whose compiler errors quote bytes that are not UTF-8 still gives JSON", "[e2e][utf8]") {
  FixtureCourse c;
  fs::path bad = c.tmp.path / "bad.cpp";
  e2e::write_file(bad, "int main() { return \xFF\xFF; }\n");
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--file", bad.string(), "--json", "--no-predict"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 3);
  CHECK(j["verdict"] == "compile_error");
}

TEST_CASE("e2e: runs/ keeps the newest 200 run files, the journal and other files stay", "[e2e][prune]") {
  FixtureCourse c;
  REQUIRE(c.run({"init"}).exit_code == 0);
  const fs::path runs = c.workspace / ".workbook/runs";
  fs::create_directories(runs);
  // 250 old results files, one minute apart (run-100001 the oldest), and a file of the learner's.
  const auto now = fs::file_time_type::clock::now();
  for (int i = 1; i <= 250; ++i) {
    const fs::path f = runs / ("run-" + std::to_string(100000 + i) + ".jsonl");
    e2e::write_file(f, "{}\n");
    fs::last_write_time(f, now - std::chrono::minutes(300 - i));
  }
  e2e::write_file(runs / "notes.txt", "mine\n");
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--json", "--no-predict"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  std::size_t kept = 0;
  for (const auto& e : fs::directory_iterator(runs)) kept += e.path().filename().string().rfind("run-", 0) == 0;
  CHECK(kept == 200);
  // The newest are kept: this run's own file and the 199 most recent old ones.
  CHECK(fs::exists(runs / ("run-" + std::to_string(j["run_id"].get<long long>()) + ".jsonl")));
  CHECK(fs::exists(runs / "run-100250.jsonl"));
  CHECK(fs::exists(runs / "run-100052.jsonl"));
  CHECK_FALSE(fs::exists(runs / "run-100051.jsonl"));
  CHECK_FALSE(fs::exists(runs / "run-100001.jsonl"));
  CHECK(fs::exists(runs / "notes.txt"));
  CHECK(fs::is_regular_file(c.journal()));
  CHECK(journal_value(c.journal(), "SELECT verdict FROM runs WHERE id=" + std::to_string(j["run_id"].get<long long>())) ==
        "pass");
}

TEST_CASE("learn e2e: an answer line of 50,000 characters is cut with a note, never a crash", "[e2e][learn]") {
  for (const std::string& filler : {std::string(50000, '7'), std::string(50000, ' ') + "8", std::string(50000, 'a'),
                                    std::string(25000, '1') + std::string(25000, ',')}) {
    {
      learn_e2e::LearnCourse c;
      e2e::CommandResult r;
      json j = c.run_json({"follow", "11", "--json"}, filler + "\n4\n", &r);
      SHOW(r);
      CHECK(r.signal == 0);
      CHECK(r.exit_code == 0);
      CHECK(r.err.find("characters") != std::string::npos);
      REQUIRE(j["steps"].size() >= 1);
      CHECK(j["steps"][0]["answer"].get<std::string>().size() <= 4096);
    }
    {
      learn_e2e::LearnCourse c("");
      e2e::CommandResult r;
      json j = c.run_json({"exercises", "14", "--item", "conv-read-count", "--json"}, filler + "\n3\n", &r);
      SHOW(r);
      CHECK(r.signal == 0);
      CHECK(r.exit_code == 0);
      REQUIRE(j["items"].size() == 1);
      CHECK(j["items"][0]["answer"].get<std::string>().size() <= 4096);
    }
  }
}

TEST_CASE("learn e2e: an answer that is not UTF-8 still gives valid JSON", "[e2e][learn][utf8]") {
  learn_e2e::LearnCourse c("");
  e2e::CommandResult r;
  json j = c.run_json({"exercises", "14", "--item", "conv-read-count", "--json"}, "3145728 \xFF 1056768 2.98\n3\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  REQUIRE(j["items"].size() == 1);
  CHECK(j["items"][0]["answer"] == "3145728 " + kFFFD + " 1056768 2.98");
}

TEST_CASE("e2e: a lab that reports a failed check and then a passing one, or another seed, fails", "[e2e][results]") {
  FixtureCourse c;
  // A lab that writes its records by hand (no harness): sum_ok failed, then passed.
  const fs::path lab = c.tmp.path / "two_faced.cpp";
  e2e::write_file(lab, R"(#include <cstdio>
#include <cstdlib>
#include <cstring>
int main(int argc, char** argv) {
  const char* seed = "1";
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "seed=", 5) == 0) seed = argv[i] + 5;
  const bool wrong_seed = std::getenv("TWO_FACED_WRONG_SEED") != nullptr;
  std::FILE* f = std::fopen(std::getenv("WORKBOOK_RESULTS"), "a");
  std::fprintf(f, "{\"type\":\"start\",\"lab\":\"module01/pass_lab\",\"seed\":%s,\"quick\":false}\n", wrong_seed ? "7" : seed);
  std::fprintf(f, "{\"type\":\"metric\",\"name\":\"count\",\"value\":1000,\"unit\":\"count\"}\n");
  std::fprintf(f, "{\"type\":\"metric\",\"name\":\"sum_ms\",\"value\":0.01,\"unit\":\"ms\"}\n");
  if (!wrong_seed) std::fprintf(f, "{\"type\":\"check\",\"name\":\"sum_ok\",\"pass\":false,\"detail\":\"off by one\"}\n");
  std::fprintf(f, "{\"type\":\"check\",\"name\":\"sum_ok\",\"pass\":true}\n");
  std::fprintf(f, "{\"type\":\"end\",\"pass\":true}\n");
  std::fclose(f);
  return 0;
}
)");
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--file", lab.string(), "--json", "--no-predict", "--seed", "42"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 1);
  CHECK(j["verdict"] == "fail");
  CHECK(e2e::find_by(j["checks"], "name", "sum_ok")["pass"] == false);
  CHECK(e2e::find_by(j["checks"], "name", "results_consistent")["detail"].get<std::string>().find(
            "check 'sum_ok' was reported 2 times") != std::string::npos);

  CommandResult w = c.run({"run", "module01/pass_lab", "--file", lab.string(), "--json", "--no-predict", "--seed", "42"},
                          {{"TWO_FACED_WRONG_SEED", "1"}});
  SHOW(w);
  CHECK(w.exit_code == 1);
  json wj = json::parse(w.out, nullptr, false);
  REQUIRE(wj.is_object());
  CHECK(wj["verdict"] == "fail");
  CHECK(e2e::find_by(wj["checks"], "name", "results_consistent")["detail"].get<std::string>().find(
            "seed 7, but the runner passed seed 42") != std::string::npos);
}

TEST_CASE("e2e: the workspace holds labs/common, so a lab's by-hand build line works there", "[e2e][workspace]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict"});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  const fs::path common = c.workspace / "labs" / "common";
  CHECK(e2e::read_file(common / "wb_host.hpp") == e2e::read_file(c.content / "labs" / "common" / "wb_host.hpp"));
  CHECK(fs::exists(common / "workbook.cuh"));
  CHECK_FALSE(fs::exists(common / "probes"));  // the runner's own probes stay in the course

  // The learner's copy, compiled by hand from the workspace's root with the header's
  // include path, builds and runs (a host lab here; CUDA labs use the same -I).
  const fs::path exe = c.tmp.path / "pass_lab_by_hand";
  const std::string cmd = "cd '" + c.workspace.string() + "' && ${CXX:-c++} -std=c++17 -O2 -I labs/common " +
                          "labs/module01/pass_lab.cpp -o '" + exe.string() + "' && '" + exe.string() +
                          "' N=100 > /dev/null";
  CHECK(std::system(cmd.c_str()) == 0);

  // A header the course changed is brought up to date on the next run.
  e2e::write_file(common / "wb_host.hpp", "// stale\n");
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);
  CHECK(e2e::read_file(common / "wb_host.hpp") == e2e::read_file(c.content / "labs" / "common" / "wb_host.hpp"));
}

TEST_CASE("e2e: a damaged journal exits 74 with what to do, not 4 (a lab's crash)", "[e2e][journal]") {
  FixtureCourse c;
  fs::create_directories(c.workspace / ".workbook");
  e2e::write_file(c.journal(), std::string(4096, 'x'));  // not an SQLite database
  CommandResult r = c.run({"run", "module01/pass_lab", "--no-predict"});
  SHOW(r);
  CHECK(r.exit_code == 74);
  CHECK(r.err.find("journal") != std::string::npos);
  CHECK(e2e::read_file(c.journal()) == std::string(4096, 'x'));  // nothing overwritten
}
