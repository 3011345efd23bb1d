// The course calendar (data/course.yaml, format_version 1): the assignments with their due
// dates and the modules that prepare each, the bonus exercises and the oral exam, and the
// project's dates and topics. The workspace may hold its own course.yaml in the same
// format: every field it gives replaces the course's, assignments and bonus exercises are
// matched by id (a new id adds one; case does not matter), and nothing it leaves out
// changes. There format_version may be left out. Modules may be written as numbers,
// ranges ("16-19") or one of either; `modules: []` is an assignment that no module
// prepares (a date only: it counts as done).
//
//   format_version: 1
//   tentative: true                  # the dates may still move (the workbook says so)
//   source: "where the dates come from"
//   assignments:                     # id, title, due (YYYY-MM-DD), modules (1-24, 16-19, or [])
//     - {id: a1, title: "Assignment 1", due: 2026-11-06, modules: [5, 6, 7, 8, 9]}
//   bonus:                           # id, title, assignment (handed in with), modules (prepare it)
//     - {id: b1, title: "Bonus 1", assignment: a2, modules: [15]}
//   oral_exam: {sign_up_with: a4, drills: [11, 24]}
//   project:
//     proposal: 2026-11-13
//     report: 2027-01-05
//     presentation: [2027-01-07, 2027-01-08]   # one day, or the first and last
//     topics_needed: 3
//     topics: [{module: 14, topic: "tiling"}]
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/yaml_reader.hpp"

namespace workbook {

inline constexpr int kCourseFormatVersion = 1;

struct CourseAssignment {
  std::string id, title;
  std::string due;           // YYYY-MM-DD
  std::vector<int> modules;  // the workbook modules that prepare it (may be none: a date only)
  std::string file;          // where it was (last) defined, for problems
  int line = 0;
  bool modules_given = false;  // a file gave `modules` (an empty list counts)
};

struct CourseBonus {
  std::string id, title;
  std::string assignment;    // the assignment it is handed in with
  std::vector<int> modules;  // modules that prepare it
  std::string file;
  int line = 0;
};

struct CourseTopic {
  int module = 0;
  std::string topic;
};

struct CourseProject {
  std::string proposal, report;                 // YYYY-MM-DD, or empty
  std::string presentation_first, presentation_last;
  int topics_needed = 0;
  std::vector<CourseTopic> topics;
};

struct OralExam {
  std::string sign_up_with;         // an assignment id, or empty
  std::vector<int> drill_modules;   // modules whose drills rehearse it
};

struct Course {
  int format_version = kCourseFormatVersion;
  bool tentative = false;
  std::string source;
  std::vector<CourseAssignment> assignments;  // as the files list them
  std::vector<CourseBonus> bonus;
  OralExam oral_exam;
  CourseProject project;
  std::vector<std::string> files;  // the files it was read from, the course's first
};

// Reads `file` (named `display` in problems) onto `course`: fields it gives replace those
// already there. Problems are added to `problems` as file:line: field: what. An `overlay`
// (the workspace's course.yaml) may leave out format_version.
void read_course_file(const std::filesystem::path& file, const std::string& display, Course& course,
                      Problems& problems, bool overlay = false);

// Checks the whole calendar once every file is read (due dates present, bonus exercises
// naming assignments that exist, ...), adding problems that name the file that defined
// the entry.
void check_course(const Course& course, Problems& problems);

// The course's calendar (<content>/data/course.yaml) with the workspace's course.yaml
// laid over it; nullopt when neither exists. Throws ContentError listing every problem.
std::optional<Course> load_course(const std::filesystem::path& content_root,
                                  const std::filesystem::path& workspace_root);

// True when `text` is a real calendar date written YYYY-MM-DD.
bool is_calendar_date(const std::string& text);

}  // namespace workbook
