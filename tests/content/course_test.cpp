// Tests for content/course: the course's calendar loads as the workbook gives it; the
// workspace's course.yaml replaces fields; problems name the file, the line and the field.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>

#include "content/course.hpp"
#include "util/error.hpp"

#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;

namespace {

// The problems a load throws, one a line ("" when it loads).
std::string load_problems(const fs::path& content, const fs::path& workspace) {
  try {
    load_course(content, workspace);
  } catch (const ContentError& e) {
    std::string s;
    for (const auto& p : e.problems()) s += p + "\n";
    return s;
  }
  return "";
}

const CourseAssignment& assignment(const Course& c, const std::string& id) {
  auto it = std::find_if(c.assignments.begin(), c.assignments.end(), [&](const auto& a) { return a.id == id; });
  REQUIRE(it != c.assignments.end());
  return *it;
}

}  // namespace

TEST_CASE("the course's calendar holds the workbook's dates and modules", "[course]") {
  wbtest::TempDir empty_workspace;
  auto course = load_course(WORKBOOK_SOURCE_DIR, empty_workspace.path);
  REQUIRE(course);
  CHECK(course->tentative);
  CHECK(course->files == std::vector<std::string>{"data/course.yaml"});
  REQUIRE(course->assignments.size() == 4);
  CHECK(assignment(*course, "a1").due == "2026-11-06");
  CHECK(assignment(*course, "a1").modules == std::vector<int>{5, 6, 7, 8, 9});
  CHECK(assignment(*course, "a2").due == "2026-11-20");
  CHECK(assignment(*course, "a2").modules == std::vector<int>{12, 13, 14, 15});
  CHECK(assignment(*course, "a3").due == "2026-12-04");
  CHECK(assignment(*course, "a3").modules == std::vector<int>{16, 17, 18, 19});
  CHECK(assignment(*course, "a4").due == "2026-12-18");
  CHECK(assignment(*course, "a4").modules == std::vector<int>{20, 21, 22, 23});
  CHECK(course->project.proposal == "2026-11-13");
  CHECK(course->project.report == "2027-01-05");
  CHECK(course->project.presentation_first == "2027-01-07");
  CHECK(course->project.presentation_last == "2027-01-08");
  CHECK(course->project.topics_needed == 3);
  CHECK(course->bonus.size() == 3);
  CHECK(course->oral_exam.drill_modules == std::vector<int>{11, 24});
  CHECK(course->oral_exam.sign_up_with == "a4");
}

TEST_CASE("the workspace's course.yaml replaces the fields it gives and keeps the rest", "[course]") {
  wbtest::TempDir ws;
  ws.write("course.yaml",
           "format_version: 1\n"
           "assignments:\n"
           "  - {id: a2, due: 2026-11-27}\n"
           "  - {id: extra, title: \"Catch-up\", due: 2026-12-11, modules: [10]}\n"
           "project:\n"
           "  presentation: 2027-01-08\n");
  auto course = load_course(WORKBOOK_SOURCE_DIR, ws.path);
  REQUIRE(course);
  CHECK(assignment(*course, "a2").due == "2026-11-27");
  CHECK(assignment(*course, "a2").modules == std::vector<int>{12, 13, 14, 15});  // kept
  CHECK(assignment(*course, "a2").title == "Assignment 2");
  CHECK(assignment(*course, "extra").modules == std::vector<int>{10});
  CHECK(assignment(*course, "a1").due == "2026-11-06");
  CHECK(course->project.presentation_first == "2027-01-08");
  CHECK(course->project.presentation_last == "2027-01-08");
  CHECK(course->project.report == "2027-01-05");
  CHECK(course->tentative);  // not given: the course's value stays
  CHECK(course->files.size() == 2);
}

TEST_CASE("a bad course.yaml names the file, the line and the field", "[course]") {
  wbtest::TempDir ws;
  const std::string file = (ws.path / "course.yaml").string();
  SECTION("a date that is not one") {
    ws.write("course.yaml", "format_version: 1\nassignments:\n  - {id: a1, due: 2026-11-31}\n");
    CHECK(load_problems(WORKBOOK_SOURCE_DIR, ws.path).find(file + ":3: assignments[0].due: '2026-11-31' is not a date") !=
          std::string::npos);
  }
  SECTION("a new assignment without its date, a bonus naming no assignment, an unknown key") {
    ws.write("course.yaml",
             "format_version: 1\n"
             "assignments:\n"
             "  - {id: a5, modules: [3]}\n"
             "bonus:\n"
             "  - {id: b1, assignment: a9}\n"
             "deadline: 2026-12-01\n");
    std::string p = load_problems(WORKBOOK_SOURCE_DIR, ws.path);
    INFO(p);
    CHECK(p.find(file + ":6: deadline") != std::string::npos);
    // completeness is checked once the files read clean
    ws.write("course.yaml",
             "format_version: 1\nassignments:\n  - {id: a5, modules: [3]}\nbonus:\n  - {id: b1, assignment: a9}\n");
    p = load_problems(WORKBOOK_SOURCE_DIR, ws.path);
    CHECK(p.find(file + ":3: assignments[a5].due: is required") != std::string::npos);
    CHECK(p.find(file + ":5: bonus[b1].assignment: names 'a9'") != std::string::npos);
  }
  SECTION("a module outside 1-24 and a wrong format version") {
    ws.write("course.yaml", "format_version: 2\nassignments:\n  - {id: a1, modules: [5, 25]}\n");
    std::string p = load_problems(WORKBOOK_SOURCE_DIR, ws.path);
    INFO(p);
    CHECK(p.find(file + ":1: format_version: is 2") != std::string::npos);
    CHECK(p.find(file + ":3: assignments[0].modules: '25' is not a module number") != std::string::npos);
  }
}

TEST_CASE("a course.yaml with an id twice, or bytes that are not text, is refused naming the file and the id",
          "[course]") {
  wbtest::TempDir ws;
  const std::string file = (ws.path / "course.yaml").string();
  SECTION("an assignment id twice (case does not matter), a bonus id twice") {
    ws.write("course.yaml",
             "assignments:\n"
             "  - {id: a2, due: 2026-11-27}\n"
             "  - {id: A2, due: 2026-12-27}\n"
             "bonus:\n"
             "  - {id: b1, assignment: a1}\n"
             "  - {id: b1, assignment: a3}\n");
    std::string p = load_problems(WORKBOOK_SOURCE_DIR, ws.path);
    INFO(p);
    CHECK(p.find(file + ":3: assignments[1].id: 'A2' is given twice in this file (also at line 2)") != std::string::npos);
    CHECK(p.find(file + ":6: bonus[1].id: 'b1' is given twice in this file (also at line 5)") != std::string::npos);
  }
  SECTION("a NUL byte, other control bytes, bytes that are not UTF-8") {
    for (const auto& [bytes, what] : {std::pair{std::string("source: \"x\0y\"\n", 14), "a NUL byte"},
                                      std::pair{std::string("source: \"x\x01y\"\n"), "a control character"},
                                      std::pair{std::string("source: \"caf\xe9\"\n"), "bytes that are not UTF-8"}}) {
      ws.write("course.yaml", "tentative: true\n" + bytes);
      std::string p = load_problems(WORKBOOK_SOURCE_DIR, ws.path);
      INFO(p);
      CHECK(p.find(file + ":2: is not a text file: line 2 holds " + what) != std::string::npos);
    }
  }
}

TEST_CASE("no calendar at all is not an error", "[course]") {
  wbtest::TempDir content, ws;
  CHECK_FALSE(load_course(content.path, ws.path));
  CHECK(is_calendar_date("2028-02-29"));
  CHECK_FALSE(is_calendar_date("2027-02-29"));
  CHECK_FALSE(is_calendar_date("2026-1-05"));
}

// Issue 24: the workspace's course.yaml as a learner writes it: no format_version, an id
// in capitals, modules as a range or one number, `modules: []` for a date only.
TEST_CASE("the workspace's course.yaml is read as a learner writes it", "[course][handin]") {
  wbtest::TempDir ws;
  ws.write("course.yaml",
           "assignments:\n"
           "  - {id: A3, due: 2026-12-11}\n"
           "  - {id: a1, modules: []}\n"
           "  - {id: a2, modules: 12-14}\n"
           "  - {id: extra, due: 2026-12-20, modules: [10, 16-17]}\n");
  auto course = load_course(WORKBOOK_SOURCE_DIR, ws.path);
  REQUIRE(course);
  CHECK(course->assignments.size() == 5);  // A3 is a3, not a new one
  CHECK(assignment(*course, "a3").due == "2026-12-11");
  CHECK(assignment(*course, "a1").modules.empty());
  CHECK(assignment(*course, "a2").modules == std::vector<int>{12, 13, 14});
  CHECK(assignment(*course, "extra").modules == std::vector<int>{10, 16, 17});

  const std::string file = (ws.path / "course.yaml").string();
  ws.write("course.yaml", "assignments:\n  - {id: a1, modules: 20-25}\n");
  CHECK(load_problems(WORKBOOK_SOURCE_DIR, ws.path).find(file + ":2: assignments[0].modules: '20-25' is not a module") !=
        std::string::npos);
  ws.write("course.yaml", "assignments:\n  - {id: a9, due: 2026-12-20}\n");  // new, and no modules at all
  CHECK(load_problems(WORKBOOK_SOURCE_DIR, ws.path).find(file + ":2: assignments[a9].modules: is required") !=
        std::string::npos);
  // data/course.yaml itself must still give its format version.
  wbtest::TempDir content, empty;
  fs::create_directories(content.path / "data");
  content.write("data/course.yaml", "assignments:\n  - {id: a1, due: 2026-12-20, modules: [1]}\n");
  CHECK(load_problems(content.path, empty.path).find("format_version") != std::string::npos);
}
