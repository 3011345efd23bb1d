// End-to-end tests of the learning engine: `exercises`, `review`, `follow` and `drill`
// driven through stdin (the line protocol of docs/learning.md) with the real binary, on
// the repository's module14 bank and on tests/fixtures/learn_course (module 11).
#include <sqlite3.h>

#include <cmath>
#include <csignal>

#include "learn_support.hpp"
#include "../support/test_paths.hpp"

using learn_e2e::LearnCourse;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

long long count_rows(const fs::path& db_file, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(db_file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return -1;
  }
  sqlite3_busy_timeout(db, 2000);
  sqlite3_stmt* s = nullptr;
  long long n = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
    n = sqlite3_column_int64(s, 0);
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  return n;
}

}  // namespace

TEST_CASE("learn e2e: exercises on the module14 bank check numbers and schedule", "[e2e][learn]") {
  LearnCourse c("");
  e2e::CommandResult r;
  // Good on a new item: its second learning step (10 min), so it is asked again; Good there graduates.
  json j = c.run_json({"exercises", "14", "--item", "conv-read-count", "--json"},
                      "3,145,728 1,056,768 2.98x\n3\n3145728 1056768 2.98\n3\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  REQUIRE(j["items"].size() == 2);
  const json& item = j["items"][0];
  CHECK(item["item"] == "conv-read-count");
  CHECK(item["numbers_correct"] == 3);
  CHECK(item["rating"] == 3);
  CHECK(item["new"] == true);
  CHECK(item["state"] == "learning");
  CHECK(item["due_in_minutes"] == 10);
  CHECK(item["interval_after"] == 0);
  const json& again = j["items"][1];
  CHECK(again["item"] == "conv-read-count");
  CHECK(again["new"] == false);
  CHECK(again["state"] == "review");
  CHECK(again["interval_after"] == 2);
  CHECK(again["due"] == "2026-09-03");
  CHECK(j["stopped"] == "done");
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog WHERE item='conv-read-count' AND rating=3") == 2);

  // name=value answers, a wrong one, and a second review the same day (short-term formula).
  j = c.run_json({"exercises", "14", "--item", "matmul-grid-count", "--json"},
                 "writers=7000 blocks=35 threads=8960 phases=4 grid_x=5 grid_y=8\n2\n", &r);
  REQUIRE(j["items"].size() == 1);
  CHECK(j["items"][0]["numbers_correct"] == 5);
  for (const auto& n : j["items"][0]["numbers"]) CHECK(n["ok"] == (n["name"] != "grid_y"));
}

TEST_CASE("learn e2e: exercises in text mode stop cleanly at the end of input", "[e2e][learn]") {
  LearnCourse c("");
  e2e::CommandResult r = c.run({"exercises", "14"}, "image, audio, CNNs\n4\n\n3\n");
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Model answer") != std::string::npos);
  CHECK(r.out.find("Key points") != std::string::npos);
  CHECK(r.out.find("Answered 2 items") != std::string::npos);
  CHECK(r.out.find("End of input") != std::string::npos);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog") == 2);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_cards") == 2);

  // An answer without its grade is not recorded.
  r = c.run({"exercises", "14", "--item", "tile32-vs-tile16"}, "4 1\n");
  CHECK(r.exit_code == 0);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog") == 2);
}

TEST_CASE("learn e2e: q at an answer prompt stops the session, and what is left is said", "[e2e][learn]") {
  LearnCourse c("");
  // One item answered and graded, then q where the second item's answer goes.
  e2e::CommandResult r = c.run({"exercises", "14"}, "image, audio, CNNs\n4\nq\n");
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Answered 1 item") != std::string::npos);
  CHECK(r.out.find("Stopped (q)") != std::string::npos);
  CHECK(r.out.find("`workbook exercises 14` asks them again") != std::string::npos);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog") == 1);  // "q" was not taken as an answer
}

TEST_CASE("learn e2e: variants draw fresh numbers, seeded", "[e2e][learn]") {
  LearnCourse c("");
  e2e::CommandResult r;
  json first = c.run_json({"exercises", "14", "--variant", "--seed", "7", "--json"}, "\n3\n\n3\n", &r);
  SHOW(r);
  REQUIRE(first["items"].size() == 2);  // the two items with variants
  CHECK(first["seed"] == 7);
  // Same seed, same numbers: answer with the expected values, by name.
  std::string input;
  for (const auto& item : first["items"]) {
    CHECK(item.contains("variant"));
    for (const auto& n : item["numbers"]) {
      input += n["name"].get<std::string>() + "=" + std::to_string(n["expected"].get<double>()) + " ";
    }
    input += "\n3\n";
  }
  json second = c.run_json({"exercises", "14", "--variant", "--seed", "7", "--json"}, input, &r);
  SHOW(r);
  REQUIRE(second["items"].size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    CHECK(second["items"][i]["variant"] == first["items"][i]["variant"]);
    CHECK(second["items"][i]["numbers_correct"] == second["items"][i]["numbers"].size());
  }
  // The rendered prompt carries the drawn values, not placeholders.
  CHECK(second["items"][0]["prompt"].get<std::string>().find('{') == std::string::npos);
}

TEST_CASE("learn e2e: pass/fail mode and re-asked grades on the fixture bank", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  json j = c.run_json({"exercises", "11", "--pass-fail", "--json"}, "32\nmaybe\np\nblocks=4 idle=24\nf\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  REQUIRE(j["items"].size() == 2);
  CHECK(j["mode"] == "pass-fail");
  CHECK(j["items"][0]["rating"] == 3);  // pass = Good
  CHECK(j["items"][1]["rating"] == 1);  // fail = Again
  CHECK(j["items"][1]["numbers_correct"] == 2);
  CHECK(j["stopped"] == "end of input");
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog WHERE mode='pass-fail'") == 2);

  j = c.run_json({"exercises", "11", "--item", "occupancy", "--json"}, "0.75\n7\nq\n", &r);
  CHECK(j["items"].size() == 0);
  CHECK(j["stopped"] == "quit");
  j = c.run_json({"exercises", "11", "--item", "occupancy", "--json"}, "75 %\nx\ngood\n", &r);
  REQUIRE(j["items"].size() == 1);
  CHECK(j["items"][0]["numbers_correct"] == 1);
  CHECK(j["items"][0]["rating"] == 3);
}

TEST_CASE("learn e2e: review serves new items, then what is due days later", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  json j = c.run_json({"review", "--new", "2", "--json"}, "32\n3\n4 24\n1\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["due"] == 0);
  CHECK(j["new"] == 2);
  CHECK(j["new_available"] == 4);
  REQUIRE(j["items"].size() == 2);
  CHECK(j["items"][0]["item"] == "warp-size");  // bank order, module by module
  CHECK(j["items"][1]["item"] == "idle-threads");
  CHECK(j["stopped"] == "end of input");  // both were on learning steps, to be asked again
  CHECK(j["next_due"] == "2026-09-01");

  // Same day: the daily new limit is used up; the two on learning steps are due.
  j = c.run_json({"review", "--new", "2", "--json"}, "", &r);
  CHECK(j["items"].size() == 0);
  CHECK(j["new"] == 0);
  CHECK(j["due"] == 2);

  // Five days later both are still due; warp-size (on its last step) graduates.
  c.now = "2026-09-06T09:00:00Z";
  j = c.run_json({"review", "--new", "0", "--json"}, "blocks=4 idle=24\n3\n32\n3\n", &r);
  SHOW(r);
  CHECK(j["due"] == 2);
  REQUIRE(j["items"].size() == 2);
  CHECK(j["items"][0]["item"] == "idle-threads");  // due on the same day: by module, then item
  CHECK(j["items"][0]["interval_before"] == 0);
  CHECK(j["items"][0]["new"] == false);
  CHECK(j["items"][0]["state"] == "learning");
  CHECK(j["items"][1]["item"] == "warp-size");
  CHECK(j["items"][1]["state"] == "review");
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog WHERE source='review'") == 4);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog WHERE interval_before=0 AND interval_after>0") == 1);

  r = c.run({"review", "--limit", "0"});
  CHECK(r.exit_code == 2);
}

TEST_CASE("learn e2e: review across the module14 bank, text mode", "[e2e][learn]") {
  LearnCourse c("");
  e2e::CommandResult r = c.run({"review", "--new", "3"}, "\n3\n\n3\n\n2\n");
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("0 due, 3 new") != std::string::npos);
  CHECK(r.out.find("Answered 3 items") != std::string::npos);
  CHECK(r.out.find("Next review due") != std::string::npos);
}

TEST_CASE("learn e2e: follow checks each step and keeps progress", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  json j = c.run_json({"follow", "11", "--json"}, "4\n1000\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["example"] == "grid-size");
  CHECK(j["steps_done"] == 2);
  CHECK(j["completed"] == false);
  REQUIRE(j["steps"].size() == 2);
  CHECK(j["steps"][0]["numbers_correct"] == 1);
  CHECK(j["steps"][1]["numbers_correct"] == 0);  // 1000, not 1024
  CHECK(j["steps"][1]["revealed"] == "4 x 256 = 1,024.");

  j = c.run_json({"follow", "11", "--json"}, "i < n\n", &r);
  CHECK(j["start_step"] == 3);
  CHECK(j["completed"] == true);
  j = c.run_json({"follow", "11", "--json"}, "", &r);
  CHECK(j["completed_all"] == true);
  j = c.run_json({"follow", "11", "--restart", "--json"}, "4\n", &r);
  CHECK(j["start_step"] == 1);
  CHECK(j["steps_done"] == 1);

  r = c.run({"follow", "11", "--example", "nope"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("grid-size") != std::string::npos);
}

TEST_CASE("learn e2e: follow the module14 worked example in text mode", "[e2e][learn]") {
  LearnCourse c("");
  e2e::CommandResult r = c.run({"follow", "14"}, "1.72 x 10^10, 68.7 GB\n5.4e8 2.1\n");
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Step 1/7") != std::string::npos);
  CHECK(r.out.find("Step 3/7") != std::string::npos);
  CHECK(r.out.find("The step") != std::string::npos);
  CHECK(r.out.find("carries on from there") != std::string::npos);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_follow WHERE numbers_correct=numbers_checked AND step=0") == 1);
}

TEST_CASE("learn e2e: drills score covered points, name what to reread, schedule weekly", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  json j = c.run_json({"drill", "11", "--json"}, "\n1 2\nsome notes\nall\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  REQUIRE(j["drills"].size() == 2);
  CHECK(j["drills"][0]["drill"] == "warp-divergence");
  CHECK(j["drills"][0]["covered"] == 2);
  CHECK(j["drills"][0]["missed"] == json::array({3}));
  CHECK(j["drills"][0]["reread"] == json::array({2, 8}));
  CHECK(j["drills"][1]["covered"] == 4);
  CHECK(j["drills"][1]["reread"] == json::array());
  CHECK(j["drills"][1]["next_due"] == "2026-09-08");
  CHECK(j["covered"] == 6);
  CHECK(j["total"] == 7);

  j = c.run_json({"drill", "11", "--status", "--json"}, "", &r);
  REQUIRE(j["drills"].size() == 2);
  CHECK(j["drills"][0]["attempts"] == 1);
  CHECK(j["drills"][0]["due"] == false);
  CHECK(j["drills"][0]["next_due"] == "2026-09-08");
  CHECK(std::fabs(j["drills"][0]["readiness"].get<double>() - 2.0 / 3) < 1e-9);

  // Nothing due the same day; text mode says so; --all drills anyway.
  r = c.run({"drill", "11"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("No drill of module11 is due") != std::string::npos);
  r = c.run({"drill", "11", "--all"}, "\n1\n\n1 2 3 4\n");
  SHOW(r);
  CHECK(r.out.find("A strong answer covers") != std::string::npos);
  CHECK(r.out.find("reread module02, module08") != std::string::npos);
  CHECK(r.out.find("Score: 1/3 points") != std::string::npos);
  r = c.run({"drill", "11", "--status"});
  CHECK(r.out.find("warp-divergence") != std::string::npos);

  r = c.run({"drill", "14"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("oral drills are in modules 11 and 24") != std::string::npos);
}

TEST_CASE("learn e2e: the weekly drill is module 11's until December 1, then 11's and 24's together", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  c.now = "2026-11-30T12:00:00Z";  // the day before: module 24 is not offered yet
  json j = c.run_json({"drill", "--status", "--json"}, "", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["modules"] == json::array({11}));
  CHECK(j["drills"].size() == 2);

  c.now = "2026-12-01T09:00:00Z";
  j = c.run_json({"drill", "--status", "--json"}, "", &r);
  CHECK(j["modules"] == json::array({11, 24}));
  REQUIRE(j["drills"].size() == 3);
  CHECK(j["drills"][2]["drill"] == "roofline-defence");
  CHECK(j["drills"][2]["module"] == 24);

  // Answering the weekly drill records each question under its own module.
  j = c.run_json({"drill", "--json"}, "\nall\n\nall\n\n1\n", &r);
  SHOW(r);
  REQUIRE(j["drills"].size() == 3);
  CHECK(j["covered"] == 3 + 4 + 1);
  j = c.run_json({"drill", "24", "--status", "--json"}, "", &r);
  CHECK(j["module"] == 24);
  CHECK(j["drills"][0]["attempts"] == 1);
  CHECK(j["drills"][0]["last_covered"] == 1);

  r = c.run({"drill"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("No drill of module11 and module24 is due today") != std::string::npos);
}

TEST_CASE("learn e2e: Ctrl-C keeps every answer already given", "[e2e][learn]") {
  LearnCourse c;
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  fs::path out = c.tmp.path / "ctrlc-out";
  std::vector<std::string> argv{WORKBOOK_BINARY, "exercises", "11"};
  std::vector<std::string> envv = e2e::make_env(c.env());
  auto argv_c = e2e::c_strings(argv);
  auto env_c = e2e::c_strings(envv);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  posix_spawn_file_actions_addclose(&fa, fds[1]);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  REQUIRE(::posix_spawn(&pid, argv_c[0], &fa, nullptr, argv_c.data(), env_c.data()) == 0);
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[0]);
  std::string answers = "32\n3\n";
  REQUIRE(::write(fds[1], answers.data(), answers.size()) == static_cast<ssize_t>(answers.size()));
  // Wait until the first review is in the journal and the second item is waiting.
  bool recorded = false;
  for (int i = 0; i < 1000 && !recorded; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    recorded = e2e::read_file(out).find("idle-threads") != std::string::npos &&
               count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog") == 1;
  }
  REQUIRE(recorded);
  ::kill(pid, SIGINT);
  e2e::CommandResult r;
  e2e::wait_child(pid, 20, r);
  ::close(fds[1]);
  r.out = e2e::read_file(out);
  SHOW(r);
  CHECK(r.exit_code == 130);
  CHECK(r.out.find("Interrupted") != std::string::npos);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_revlog") == 1);
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_cards WHERE item='warp-size'") == 1);
}

// --- issue 24: review that behaves like Anki ---------------------------------------

TEST_CASE("learn e2e: Again and a new item's first grades re-show it in the same session", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  json j = c.run_json({"review", "--new", "1", "--json"}, "31\n1\n32\n2\n32\n3\n32\n3\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  REQUIRE(j["items"].size() == 4);
  for (const auto& it : j["items"]) CHECK(it["item"] == "warp-size");
  CHECK(j["items"][0]["due_in_minutes"] == 1);   // Again: the first step
  CHECK(j["items"][1]["due_in_minutes"] == 6);   // Hard on the first step: between 1 and 10 min
  CHECK(j["items"][2]["due_in_minutes"] == 10);  // Good: the next step
  CHECK(j["items"][3]["state"] == "review");     // Good on the last step: graduates
  CHECK(j["items"][3]["interval_after"] >= 1);
  CHECK(j["stopped"] == "done");
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_cards WHERE state='review'") == 1);

  // Text mode says when it comes back.
  r = c.run({"review", "--new", "2"}, "4 24\n1\n");
  SHOW(r);
  CHECK(r.out.find("again in 1 min") != std::string::npos);
}

TEST_CASE("learn e2e: review introduces the new items of the assignment due next first", "[e2e][learn]") {
  LearnCourse c;
  // A second bank (module 12), and a calendar whose next assignment is prepared by it.
  e2e::write_file(c.content / "exercises/module12.yaml",
                  "format_version: 1\nmodule: 12\nitems:\n  - id: twelve\n    kind: recall\n"
                  "    prompt: \"Q?\"\n    answer: \"A.\"\n    key_points: [\"a\"]\n");
  e2e::write_file(c.content / "data/course.yaml",
                  "format_version: 1\nassignments:\n  - {id: a1, title: \"A1\", due: 2026-08-20, modules: [11]}\n"
                  "  - {id: a2, title: \"A2\", due: 2026-09-04, modules: [12]}\n");
  e2e::CommandResult r;
  json j = c.run_json({"review", "--new", "2", "--json"}, "x\n4\n32\n4\n", &r);
  SHOW(r);
  REQUIRE(j["items"].size() == 2);
  CHECK(j["items"][0]["module"] == 12);  // a2 is due next (a1 is past)
  CHECK(j["items"][1]["module"] == 11);
  CHECK(j["items"][1]["item"] == "warp-size");
}

TEST_CASE("learn e2e: exercises offers only new and due items, --all asks the rest", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  // Easy graduates at once: both items are scheduled days ahead.
  json j = c.run_json({"exercises", "11", "--json"}, "32\n4\nblocks=4 idle=24\n4\n", &r);
  REQUIRE(j["items"].size() == 2);
  j = c.run_json({"exercises", "11", "--json"}, "75\n3\n", &r);
  SHOW(r);
  CHECK(j["asked"] == 2);  // occupancy and why-coalesce: new
  REQUIRE(j["skipped"].size() == 2);
  CHECK(j["skipped"][0]["item"] == "warp-size");
  CHECK(j["items"][0]["item"] == "occupancy");
  r = c.run({"exercises", "11"}, "");
  SHOW(r);
  CHECK(r.out.find("Skipped 2 items not due yet") != std::string::npos);
  CHECK(r.out.find("--all") != std::string::npos);
  j = c.run_json({"exercises", "11", "--all", "--json"}, "", &r);
  CHECK(j["asked"] == 4);
  CHECK(j["skipped"].size() == 0);
  // --item asks the item it names, due or not.
  j = c.run_json({"exercises", "11", "--item", "warp-size", "--json"}, "32\n4\n", &r);
  REQUIRE(j["items"].size() == 1);
}

TEST_CASE("learn e2e: q ends a drill session as it ends an exercises session", "[e2e][learn]") {
  LearnCourse c;
  e2e::CommandResult r;
  json j = c.run_json({"drill", "11", "--json"}, "q\n", &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["drills"].size() == 0);
  CHECK(j["stopped"] == "quit");
  j = c.run_json({"drill", "11", "--json"}, "\nall\n\nq\n", &r);  // q at the points of the second
  REQUIRE(j["drills"].size() == 1);
  CHECK(j["stopped"] == "quit");
  CHECK(count_rows(c.journal(), "SELECT COUNT(*) FROM learn_drills") == 1);
}

TEST_CASE("learn e2e: follow says what each step's numbers are checked against", "[e2e][learn]") {
  LearnCourse c("");
  e2e::CommandResult r = c.run({"follow", "16", "--example", "pipelined-vecadd"}, "268435456\n");
  SHOW(r);
  CHECK(r.exit_code == 0);
  const auto checked = r.out.find("Checked: array_mb in MB (within 1 %)");
  REQUIRE(checked != std::string::npos);
  CHECK(checked < r.out.find("Your numbers"));  // before the answer is judged
  CHECK(r.out.find("right") != std::string::npos);  // 268435456 read as bytes
  json j = c.run_json({"follow", "16", "--example", "pipelined-vecadd", "--restart", "--json"}, "268.4\n", &r);
  REQUIRE(j["steps"].size() == 1);
  CHECK(j["steps"][0]["checked"] == "array_mb in MB (within 1 %)");
  CHECK(j["steps"][0]["numbers_correct"] == 1);
}
