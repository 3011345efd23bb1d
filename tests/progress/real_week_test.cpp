// Tests for progress/next_step against the real course (data/course.yaml and the
// workbook's modules) with an empty journal, on the days of the learner's real week: the
// assignment due next comes first; those past due are listed as behind, with the command
// that marks them handed in; once no assignment is due, the project's topics, then the
// assignments behind; marks (`workbook handin`) count as done.
#include <catch2/catch.hpp>

#include "journal/handins.hpp"
#include "learn/clock.hpp"
#include "progress/next_step.hpp"

#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using workbook::progress::gather_progress;
using workbook::progress::next_lab;
using workbook::progress::next_steps;
using workbook::progress::NextPlan;
using workbook::progress::NextStep;
using workbook::progress::ProgressReport;

namespace {

struct RealCourse {
  wbtest::TempDir ws;
  Catalog catalog{WORKBOOK_SOURCE_DIR};
  Journal journal{ws.path / "journal.db"};

  ProgressReport on(const std::string& date) {
    return gather_progress(catalog, journal, load_course(WORKBOOK_SOURCE_DIR, ws.path), *learn::day_of_date(date));
  }
  NextPlan next(const std::string& date) { return next_steps(on(date)); }
};

const NextStep* also_of(const NextPlan& p, const std::string& kind) {
  for (const auto& a : p.also) {
    if (a.kind == kind) return &a;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("real week: next points at the assignment due next, behind ones are listed to mark", "[progress][real-week]") {
  RealCourse c;
  SECTION("Nov 10: A1 is behind, A2 (modules 12-15) due in 10 days comes first") {
    NextPlan p = c.next("2026-11-10");
    CHECK(p.next.module == 12);
    CHECK(p.next.why.find("Assignment 2 is due 2026-11-20 (in 10 days)") != std::string::npos);
    const NextStep* b = also_of(p, "handin");
    REQUIRE(b);
    CHECK(b->command == "workbook handin a1");
  }
  SECTION("Dec 1: A3 (modules 16-19) due in 3 days: its lab first; A1 and A2 behind") {
    NextPlan p = c.next("2026-12-01");
    CHECK(p.next.module == 16);
    CHECK(p.next.kind == "run");
    CHECK(p.next.command == "workbook run module16/streams_pipeline");
    CHECK(p.next.why.find("Assignment 3 is due 2026-12-04 (in 3 days)") != std::string::npos);
    const NextStep* b = also_of(p, "handin");
    REQUIRE(b);
    CHECK(b->command == "workbook handin a1 a2");
    CHECK(b->what.find("Assignment 1 (due 2026-11-06) and Assignment 2 (due 2026-11-20)") != std::string::npos);
    CHECK(next_lab(c.on("2026-12-01")) == "module16/streams_pipeline");  // watch follows next
  }
  SECTION("Dec 4, the due day: still A3") {
    NextPlan p = c.next("2026-12-04");
    CHECK(p.next.command == "workbook run module16/streams_pipeline");
    CHECK(p.next.why.find("(today)") != std::string::npos);
  }
  SECTION("Dec 5: A3 is behind too; A4 (modules 20-23) due in 13 days") {
    NextPlan p = c.next("2026-12-05");
    CHECK(p.next.module == 20);
    CHECK(p.next.why.find("Assignment 4 is due 2026-12-18 (in 13 days)") != std::string::npos);
    REQUIRE(also_of(p, "handin"));
    CHECK(also_of(p, "handin")->command == "workbook handin a1 a2 a3");
  }
  SECTION("Dec 19: no assignment due; the project report needs its topics measured") {
    NextPlan p = c.next("2026-12-19");
    CHECK(p.next.kind == "run");
    CHECK(p.next.module == 14);  // the first topic: tiling
    CHECK(p.next.why.find("no assignment is due any more; the project report is due 2027-01-05 (in 17 days)") !=
          std::string::npos);
    CHECK(also_of(p, "handin")->command == "workbook handin a1 a2 a3 a4");
  }
  SECTION("Jan 6: the report's day is past, and next says so") {
    NextPlan p = c.next("2027-01-06");
    CHECK(p.next.module == 14);
    CHECK(p.next.why.find("the project report was due 2027-01-05; the presentation is 2027-01-07 (tomorrow)") !=
          std::string::npos);
  }
  SECTION("Jan 9: every date past: the earliest assignment behind, saying how to mark it") {
    NextPlan p = c.next("2027-01-09");
    CHECK(p.next.module == 5);
    CHECK(p.next.why.find("workbook handin a1") != std::string::npos);
  }
}

TEST_CASE("real week: what is marked handed in counts as done", "[progress][real-week][handin]") {
  RealCourse c;
  CHECK(record_handin(c.journal, "a1", true));
  CHECK(record_handin(c.journal, "a2", true));
  CHECK_FALSE(record_handin(c.journal, "a2", true));  // already marked: no second row
  NextPlan dec1 = c.next("2026-12-01");
  CHECK(dec1.next.module == 16);
  CHECK_FALSE(also_of(dec1, "handin"));  // nothing behind any more
  ProgressReport r = c.on("2026-12-01");
  REQUIRE(r.plan);
  CHECK(r.plan->behind.empty());
  REQUIRE(r.module(5));
  CHECK(r.module(5)->handed_in);
  CHECK_FALSE(r.module(5)->complete());  // the record itself is unchanged

  // A module marked on its own: module 16 is skipped, 17 is next.
  CHECK(record_handin(c.journal, "module16", true));
  CHECK(c.next("2026-12-01").next.module == 17);
  // Undo: the module counts by the record again.
  CHECK(record_handin(c.journal, "module16", false));
  CHECK(c.next("2026-12-01").next.module == 16);
  CHECK(handed_in_items(c.journal).size() == 2);
  CHECK(handin_marks(c.journal).at("module16").handed_in == false);
}
