// Tests for present/progress_text: every statement the `progress` screen makes is pinned
// to what it counts (Read, the drills' readiness, the drills due, the assignments behind
// and handed in), and its sentences are wrapped to the width asked for.
#include <catch2/catch.hpp>

#include <sstream>

#include "learn/clock.hpp"
#include "present/progress_text.hpp"
#include "progress/progress_report.hpp"

using namespace workbook;
using Catch::Matchers::Contains;  // CHECK_THAT prints the whole text when a part is missing
using workbook::progress::format_progress;
using workbook::progress::ModuleProgress;
using workbook::progress::plan_report;
using workbook::progress::ProgressReport;

namespace {

// Module 17 answered and followed in full, its reading never shown; module 11's drills:
// 2 of 12 tried; 3 drills of module 24 due; A1 past due, A3 due in 3 days.
ProgressReport sample(const std::string& today = "2026-12-01") {
  ProgressReport r;
  r.today = *learn::day_of_date(today);
  ModuleProgress m17;
  m17.module = 17;
  m17.title = "Streams and events";
  m17.follow = {1, 1};
  m17.answer = {6, 6};
  m17.run = {0, 1};
  m17.labs_open = {"module17/lab"};
  ModuleProgress m5 = m17;
  m5.module = 5;
  m5.title = "Debugging";
  r.modules = {m5, m17};
  r.drills.push_back({11, 12, 0, 0, 2, 0.75, true, ""});
  r.drills.push_back({24, 5, 3, 0, 0, 0, true, ""});
  Course c;
  c.assignments.push_back({"a1", "Assignment 1", "2026-11-06", {5}, "", 0});
  c.assignments.push_back({"a3", "Assignment 3", "2026-12-04", {17}, "", 0});
  r.course = c;
  plan_report(r, {});
  return r;
}

std::string screen(const ProgressReport& r, std::size_t width = 80, bool modules = true) {
  return format_progress(r, Style(false), width, modules);
}

}  // namespace

TEST_CASE("progress text: Read counts what the legend says it counts", "[progress][progress-text]") {
  const std::string s = screen(sample());
  // Follow 1/1 and Answer 6/6, reading never shown: Read is "-", and the legend says why.
  CHECK_THAT(s, Contains("17  Streams and events  -        1/1     6/6  0/1\n"));
  CHECK_THAT(s, Contains("Read: yes once `workbook show N` has printed the module's reading in full"));
  CHECK_THAT(s, !Contains("an answer or a run of the module is recorded"));
  ProgressReport r = sample();
  r.modules[1].read = r.modules[1].read_inferred = true;
  const std::string older = screen(r, 0);
  CHECK_THAT(older, Contains("17  Streams and events  yes*     1/1     6/6  0/1\n"));
  CHECK_THAT(older, Contains("yes*: inferred from activity in a journal older than the record of readings"));
}

TEST_CASE("progress text: readiness says over how many drills it is taken", "[progress][progress-text]") {
  const std::string s = screen(sample(), 0);  // unwrapped: one sentence a line
  CHECK_THAT(s, Contains("module 11: 2 of 12 tried, 0 easy, readiness 75 % over the 2 tried"));
  CHECK_THAT(s, !Contains("75 %;"));
  // The drills due name their module, never a bare number after "Drills:".
  CHECK_THAT(s, Contains("Oral drills due: 3 (module 24: 3; workbook drill)"));
  CHECK_THAT(s, !Contains("Drills: 3 due"));
  CHECK_THAT(s, Contains("Exercise reviews due: 0\n"));
}

TEST_CASE("progress text: behind, with the command that marks it, handed in once marked", "[progress][progress-text][handin]") {
  const std::string s = screen(sample(), 0);
  CHECK_THAT(s, Contains("Behind:  Assignment 1 was due 2026-11-06 (25 days ago); modules open: 5"));
  CHECK_THAT(s, Contains("Handed in already? Mark it done: workbook handin a1"));
  CHECK_THAT(s, Contains("Focus:   Assignment 3: 0 of 1 modules done; open: 17 (1 module in 3 days, by 2026-12-04)"));
  CHECK_THAT(s, Contains("a1 0/1 behind  a3 0/1 due 12-04"));
  ProgressReport r = sample();
  r.handed_in = {{"a1", "2026-12-01T10:00:00.000Z"}};
  plan_report(r, {});
  const std::string marked = screen(r, 0);
  CHECK_THAT(marked, !Contains("Behind:"));
  CHECK_THAT(marked, Contains("Handed in: Assignment 1 (marked; due 2026-11-06)"));
  CHECK_THAT(marked, Contains("a1 handed in  a3 0/1 due 12-04"));
  CHECK_THAT(marked, Contains(" 5  Debugging           -        1/1     6/6  0/1  handed in\n"));
}

TEST_CASE("progress text: sentences and the module table fit the width, titles whole", "[progress][progress-text]") {
  for (std::size_t width : {40u, 60u, 80u}) {
    std::istringstream lines(screen(sample(), width));
    std::string line;
    while (std::getline(lines, line)) {
      std::size_t points = 0;
      for (unsigned char ch : line) points += (ch & 0xC0) != 0x80;
      INFO(width << ": " << line);
      CHECK(points <= width);
    }
  }
}

TEST_CASE("progress text: a topic's mark never starts a line of its own", "[progress][progress-text]") {
  ProgressReport r = sample();
  r.topics = {{14, "tiling", 0, 0, {}}, {20, "Tensor Cores", 1, 1, {}}, {21, "BF16", 1, 0, {}}, {22, "cuBLAS", 0, 0, {}}};
  // At 80 columns "cuBLAS -" used to be cut after "cuBLAS", leaving "-" alone below it.
  for (std::size_t width : {60, 70, 80}) {
    const std::string s = screen(r, width);
    INFO(s);
    CHECK_THAT(s, Contains("cuBLAS\u00a0-"));
    CHECK_THAT(s, Contains("Cores\u00a0✓✓"));
    CHECK_THAT(s, !Contains("\n               -\n"));
    CHECK_THAT(s, !Contains("\n               ✓"));
  }
}

TEST_CASE("progress text: the first screen fits 30 rows, the module table behind --modules", "[progress][progress-text]") {
  ProgressReport r = sample();
  const std::string first = screen(r, 80, false);
  std::size_t rows = 0;
  for (char c : first) rows += c == '\n';
  INFO(first);
  CHECK(rows <= 29);  // and the shell's prompt
  CHECK_THAT(first, Contains("This week"));
  CHECK_THAT(first, Contains("progress --modules"));
  CHECK_THAT(first, !Contains("Follow: worked examples"));  // the table's legend goes with the table
  CHECK_THAT(screen(r, 80, true), Contains("Follow: worked examples"));
  // A title longer than 32 columns is shown whole, never cut with '~'.
  r.modules[0].title = "Streams, events and overlapping copies with compute";
  CHECK_THAT(screen(r, 100, true), Contains("Streams, events and overlapping copies with compute"));
  const std::string table = screen(r, 80, true);  // wrapped in its column, every word there
  for (const char* word : {"Streams,", "events", "overlapping", "copies", "compute"}) CHECK_THAT(table, Contains(word));
  CHECK_THAT(table, !Contains("~"));
}

TEST_CASE("progress text: the calendar's pace and last date say true things", "[progress][progress-text][calendar]") {
  // On the due day a pace per week ("about 1.0 modules a week until 2026-12-04") is hours.
  CHECK_THAT(screen(sample("2026-12-04"), 0), Contains("open: 17 (due today)"));
  CHECK_THAT(screen(sample("2026-12-04"), 0), !Contains("a week until"));
  CHECK_THAT(screen(sample("2026-11-20"), 0), Contains("open: 17 (about 0.5 modules a week until 2026-12-04)"));
  // The weeks left name the date they count to.
  CHECK_THAT(screen(sample(), 0), Contains("Weeks left until the last date (Assignment 3, 2026-12-04): 1"));
}

TEST_CASE("progress text: a presentation over two days names both", "[progress][progress-text][calendar]") {
  ProgressReport r = sample();
  r.course->project.report = "2027-01-05";
  r.course->project.presentation_first = "2027-01-07";
  r.course->project.presentation_last = "2027-01-08";
  CHECK_THAT(screen(r, 0), Contains("report 2027-01-05, talk 2027-01-07 or 01-08"));
  r.course->project.presentation_last = "2027-01-07";
  CHECK_THAT(screen(r, 0), Contains("talk 2027-01-07\n"));
}
