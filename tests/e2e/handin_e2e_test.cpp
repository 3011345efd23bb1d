// End-to-end tests of the learner's real week through the real binary: `next` and
// `progress` against the real course (data/course.yaml, the workbook's modules) with an
// empty journal on the days around the deadlines; `workbook handin` marking assignments
// and modules handed in (and undoing it), travelling with `journal export/import`; the
// workspace's course.yaml written as a learner would write it (fixture course).
#include "e2e_support.hpp"

using e2e::CommandResult;
using e2e::find_by;
using e2e::FixtureCourse;
using e2e::run_workbook;
using e2e::TempDir;
using e2e::write_file;
using nlohmann::json;
using Catch::Matchers::Contains;  // CHECK_THAT prints the whole text when a part is missing
namespace fs = std::filesystem;

namespace {

// The real content with a fresh workspace.
struct RealContent {
  TempDir tmp;
  fs::path workspace = tmp.path / "workspace";
  RealContent() { fs::create_directories(workspace); }
  CommandResult run(const std::vector<std::string>& args, const std::string& today = "2026-12-01") const {
    return run_workbook(args,
                        {{"WORKBOOK_CONTENT", WORKBOOK_SOURCE_DIR},
                         {"WORKBOOK_WORKSPACE", workspace.string()},
                         {"NO_COLOR", "1"},
                         {"WORKBOOK_NOW", today}},
                        tmp.path);
  }
  json next(const std::string& today) const {
    CommandResult r = run({"next", "--json"}, today);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
  }
};

}  // namespace

TEST_CASE("e2e: on Dec 1 with an empty journal, next points at modules 16-19", "[e2e][real-week]") {
  RealContent c;
  CommandResult next = c.run({"next"});
  CHECK(next.exit_code == 0);
  CHECK_THAT(next.out, Contains("  workbook run module16/streams_pipeline\n"));
  CHECK_THAT(next.out, Contains("why: Assignment 3 is due 2026-12-04 (in 3 days): module 16 is its first open"));
  CHECK_THAT(next.out, Contains("  workbook handin a1 a2\n"));
  CommandResult progress = c.run({"progress"});
  CHECK_THAT(progress.out, Contains("Next:    Assignment 3, 2026-12-04 (in 3 days)"));
  CHECK_THAT(progress.out, Contains("Focus:   Assignment 3: 0 of 4 modules done; open: 16 17 18 19"));
  CHECK_THAT(progress.out, Contains("Behind:  Assignment 1 was due 2026-11-06 (25 days ago)"));
  CHECK_THAT(progress.out, Contains("Handed in already? Mark them done: workbook handin a1 a2"));
}

TEST_CASE("e2e: next across the real week (Nov 10 to Jan 6)", "[e2e][real-week]") {
  RealContent c;
  CHECK(c.next("2026-11-10")["next"]["module"] == 12);
  CHECK(c.next("2026-12-04")["next"]["command"] == "workbook run module16/streams_pipeline");
  CHECK(c.next("2026-12-05")["next"]["module"] == 20);
  json dec19 = c.next("2026-12-19");
  CHECK(dec19["next"]["module"] == 14);
  CHECK(dec19["next"]["why"].get<std::string>().find("the project report is due 2027-01-05") != std::string::npos);
  json jan6 = c.next("2027-01-06");
  CHECK(jan6["next"]["why"].get<std::string>().find("the project report was due 2027-01-05") != std::string::npos);
  CommandResult p = c.run({"progress"}, "2027-01-06");
  CHECK_THAT(p.out, Contains("Next:    Project presentation, 2027-01-07 (tomorrow)"));
  CHECK_THAT(p.out, Contains("Past:    Project report, 2027-01-05 (yesterday)"));
}

TEST_CASE("e2e: handin marks assignments and modules done, --undo takes a mark back", "[e2e][real-week][handin]") {
  RealContent c;
  CommandResult mark = c.run({"handin", "a1", "A2"});
  CHECK(mark.exit_code == 0);
  CHECK_THAT(mark.out, Contains("Marked handed in: Assignment 1 (a1), Assignment 2 (a2)"));
  CHECK_THAT(mark.out, Contains("Undo: workbook handin --undo a1 a2"));
  CHECK_THAT(mark.out, Contains("`workbook next` and `workbook progress` count them done.\n"));
  CommandResult again = c.run({"handin", "a1"});
  CHECK_THAT(again.out, Contains("Already marked handed in: Assignment 1 (a1)"));
  CHECK_THAT(again.out, Contains("`workbook next` and `workbook progress` count it done.\n"));

  json n = c.next("2026-12-01");
  CHECK(n["next"]["command"] == "workbook run module16/streams_pipeline");
  for (const auto& a : n["also"]) CHECK(a["kind"] != "handin");  // nothing behind any more
  CommandResult progress = c.run({"progress"});
  CHECK_THAT(progress.out, !Contains("Behind:"));
  CHECK_THAT(progress.out, Contains("a1 handed in  a2 handed in  a3 0/4 due 12-04"));
  json pj = json::parse(c.run({"progress", "--json"}).out);
  CHECK(find_by(pj["calendar"]["assignments"], "id", "a1")["state"] == "handed in");
  CHECK(find_by(pj["modules"], "id", "module05")["handed_in"] == true);

  json marked = json::parse(c.run({"handin", "16", "--json"}).out);
  CHECK(marked["action"] == "handin");
  CHECK(marked["items"][0]["item"] == "module16");
  CHECK(marked["items"][0]["changed"] == true);
  CHECK(c.next("2026-12-01")["next"]["module"] == 17);

  CommandResult undo = c.run({"handin", "--undo", "a2", "module16"});
  CHECK_THAT(undo.out, Contains("No longer marked handed in: Assignment 2 (a2), module 16"));
  CHECK_THAT(undo.out, Contains("`workbook next` and `workbook progress` count them by your record again, not done.\n"));
  CHECK(c.next("2026-12-01")["next"]["module"] == 16);
  CHECK_THAT(c.run({"progress"}).out, Contains("Behind:  Assignment 2 was due 2026-11-20"));
  CommandResult list = c.run({"handin"});
  CHECK_THAT(list.out, Contains("Marked handed in:\n  a1 "));

  CommandResult bad = c.run({"handin", "a9"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("'a9' is neither an assignment of the course calendar (a1, a2, a3, a4) nor a module") !=
        std::string::npos);
  CommandResult help = c.run({"handin", "--help"});
  CHECK_THAT(help.out, Contains("workbook handin a1 a2"));
  CHECK_THAT(help.out, Contains("--undo"));
}

TEST_CASE("e2e: hand-in marks travel with journal export/import", "[e2e][handin][journal]") {
  RealContent laptop, cluster;
  REQUIRE(laptop.run({"handin", "a1", "a2"}).exit_code == 0);
  const fs::path file = laptop.tmp.path / "laptop.json";
  REQUIRE(laptop.run({"journal", "export", file.string()}).exit_code == 0);
  CommandResult in = cluster.run({"journal", "import", file.string()});
  CHECK(in.exit_code == 0);
  CHECK(cluster.run({"journal", "import", file.string()}).exit_code == 0);  // twice is once
  CHECK(json::parse(cluster.run({"handin", "--json"}).out)["handed_in"].size() == 2);
  CHECK_THAT(cluster.run({"progress"}).out, !Contains("Behind:"));
}

TEST_CASE("e2e: the workspace's course.yaml as a learner writes it", "[e2e][progress-e2e][course]") {
  FixtureCourse c;
  // No format_version, an id in capitals, a range of modules, an assignment no module prepares.
  write_file(c.workspace / "course.yaml",
             "assignments:\n"
             "  - {id: A2, due: 2026-12-11, modules: 1-1}\n"
             "  - {id: a1, modules: []}\n");
  CommandResult r = c.run({"progress", "--json"}, {{"WORKBOOK_NOW", "2026-12-01"}});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(find_by(j["calendar"]["assignments"], "id", "a1")["state"] == "done");
  CHECK(find_by(j["calendar"]["assignments"], "id", "a2")["due"] == "2026-12-11");
  CHECK(find_by(j["calendar"]["assignments"], "id", "a2")["modules"] == json::array({1}));
  CHECK(j["calendar"]["focus"] == "a2");
}

namespace {

bool has_item(const json& marks, const std::string& item) {
  for (const auto& m : marks)
    if (m["item"] == item) return true;
  return false;
}

}  // namespace

TEST_CASE("e2e: an imported mark dated 9999-12-31 does not count, one for an unknown item can be undone",
          "[e2e][handin][journal]") {
  RealContent laptop, cluster;
  REQUIRE(laptop.run({"handin", "a1", "a2", "a3"}).exit_code == 0);
  const fs::path file = laptop.tmp.path / "laptop.json";
  REQUIRE(laptop.run({"journal", "export", file.string()}).exit_code == 0);
  json doc = json::parse(e2e::read_file(file));
  for (auto& row : doc["tables"]["handins"]) {
    if (row["item"] == "a2") row["recorded_at"] = "9999-12-31T00:00:00.000Z";
    if (row["item"] == "a3") row["item"] = "zz9";
  }
  write_file(file, doc.dump());
  CommandResult in = cluster.run({"journal", "import", file.string()});
  SHOW(in);
  REQUIRE(in.exit_code == 0);
  // The mark from the far future is not believed: a2 is not counted, so no undo is needed for it.
  json marks = json::parse(cluster.run({"handin", "--json"}).out)["handed_in"];
  CHECK_FALSE(has_item(marks, "a2"));
  CHECK_THAT(cluster.run({"progress"}).out, Contains("Behind:  Assignment 2 was due 2026-11-20"));
  CommandResult undo = cluster.run({"handin", "--undo", "a2"});
  CHECK(undo.exit_code == 0);
  CHECK_THAT(undo.out, Contains("Was not marked handed in: Assignment 2 (a2)"));
  // A mark for an item this course does not have is listed, and can be taken back.
  CHECK(has_item(marks, "zz9"));
  CommandResult gone = cluster.run({"handin", "--undo", "zz9"});
  SHOW(gone);
  CHECK(gone.exit_code == 0);
  CHECK_THAT(gone.out, Contains("No longer marked handed in: zz9, not an item of this course"));
  CHECK_FALSE(has_item(json::parse(cluster.run({"handin", "--json"}).out)["handed_in"], "zz9"));
  CHECK(cluster.run({"handin", "--undo", "zz8"}).exit_code == 2);  // neither the course's nor marked
}
