// Tests for progress/module_progress, next_step and history: per-module Read / Follow /
// Answer / Run, the one next thing to do, and prediction calibration.
#include <catch2/catch.hpp>

#include <cmath>

#include "learn/clock.hpp"
#include "present/progress_text.hpp"
#include "progress/history.hpp"
#include "progress/next_step.hpp"

#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using workbook::progress::calibrate;
using workbook::progress::LearnerRecord;
using workbook::progress::ModuleContent;
using workbook::progress::ModuleProgress;
using workbook::progress::next_lab;
using workbook::progress::next_steps;
using workbook::progress::NextPlan;
using workbook::progress::plan_report;
using workbook::progress::ProgressReport;
using workbook::progress::summarize;

namespace {

std::string fmt_lab(int n) { return "module" + std::to_string(n) + "/lab"; }

ModuleContent content(int n, std::vector<std::string> labs) {
  ModuleContent c;
  c.number = n;
  c.title = "Module " + std::to_string(n);
  c.labs = std::move(labs);
  c.examples = {{"ex", 3}};
  c.items = {"r1", "r2"};
  return c;
}

LabRecord lab(const std::string& id, int runs, int passes) { return {id, runs, passes, runs, 0, "", ""}; }

// Modules 16-19 (A3, due 2026-12-04) with the given record, on `today`.
ProgressReport report(const LearnerRecord& record, const std::string& today) {
  ProgressReport r;
  r.today = *learn::day_of_date(today);
  for (int n : {16, 17, 18, 19}) r.modules.push_back(summarize(content(n, {fmt_lab(n)}), record));
  Course c;
  c.assignments.push_back({"a3", "Assignment 3", "2026-12-04", {16, 17, 18, 19}, "", 0});
  r.course = c;
  plan_report(r, {});
  return r;
}

}  // namespace

TEST_CASE("a module's Read / Follow / Answer / Run come from the record", "[progress]") {
  LearnerRecord none;
  ModuleProgress fresh = summarize(content(5, {"module05/a", "module05/b"}), none);
  CHECK_FALSE(fresh.read);
  CHECK(fresh.follow.done == 0);
  CHECK(fresh.follow.total == 1);
  CHECK(fresh.answer.total == 2);
  CHECK(fresh.run.total == 2);
  CHECK(fresh.first_open_example == "ex");
  CHECK(fresh.labs_open == std::vector<std::string>{"module05/a", "module05/b"});
  CHECK_FALSE(fresh.complete());

  LearnerRecord rec;
  rec.labs["module05/a"] = lab("module05/a", 2, 1);
  rec.labs["module05/b"] = lab("module05/b", 1, 0);
  rec.answered = {{5, "r1"}, {5, "r2"}, {6, "r1"}};
  rec.followed[{5, "ex"}] = 3;
  ModuleProgress m = summarize(content(5, {"module05/a", "module05/b"}), rec);
  CHECK_FALSE(m.read);  // runs, answers and steps do not say the reading was shown
  CHECK(m.follow.complete());
  CHECK(m.answer.complete());
  CHECK(m.run.done == 1);
  CHECK(m.labs_open == std::vector<std::string>{"module05/b"});
  CHECK(m.labs_tried == std::vector<std::string>{"module05/b"});
  CHECK_FALSE(m.complete());
  rec.labs["module05/b"] = lab("module05/b", 2, 1);
  CHECK(summarize(content(5, {"module05/a", "module05/b"}), rec).complete());
  // Read: a recorded reading; or, for a journal from before readings were recorded, its
  // activity from that time (inferred, and flagged so)
  LearnerRecord shown;
  shown.read = {5};
  CHECK(summarize(content(5, {}), shown).read);
  CHECK_FALSE(summarize(content(5, {}), shown).read_inferred);
  CHECK_FALSE(summarize(content(6, {}), shown).read);
  LearnerRecord older;
  older.read_inferred = {5};
  CHECK(summarize(content(5, {}), older).read);
  CHECK(summarize(content(5, {}), older).read_inferred);
  older.read = {5};
  CHECK_FALSE(summarize(content(5, {}), older).read_inferred);  // the record wins
  // a module with nothing to follow, answer or run (the drill modules) is never complete
  CHECK_FALSE(summarize(ModuleContent{11, "Review", {}, {}, {}}, none).complete());
}

TEST_CASE("next: the workbook's order, labs first when the assignment is close", "[progress]") {
  LearnerRecord rec;
  SECTION("two weeks before the due date: follow the worked example first") {
    NextPlan p = next_steps(report(rec, "2026-11-20"));
    CHECK(p.next.kind == "follow");
    CHECK(p.next.command == "workbook follow 16");
  }
  SECTION("three days before: the lab first") {
    NextPlan p = next_steps(report(rec, "2026-12-01"));
    CHECK(p.next.kind == "run");
    CHECK(p.next.command == "workbook run module16/lab");
  }
  SECTION("after a run that could not run (no GPU): nothing to fix, the journal travels to a GPU") {
    rec.labs["module16/lab"] = {"module16/lab", 1, 0, 0, 0, "not_run", "2026-11-30"};
    NextPlan p = next_steps(report(rec, "2026-12-01"));
    CHECK(p.next.kind == "run");
    CHECK(p.next.lab == "module16/lab");
    CHECK(p.next.what.find("Fix") == std::string::npos);  // nothing ran, nothing is known broken
    CHECK(p.next.what.find("built, not run") != std::string::npos);
    CHECK(p.next.command == "workbook journal export journal.json");
    rec.labs["module16/lab"] = {"module16/lab", 1, 0, 1, 0, "fail", "2026-11-30"};
    CHECK(next_steps(report(rec, "2026-12-01")).next.what.rfind("Fix and run", 0) == 0);  // a failed run still is
  }
  SECTION("a passed module moves on to the next open one") {
    rec.labs["module16/lab"] = lab("module16/lab", 1, 1);
    rec.followed[{16, "ex"}] = 3;
    rec.answered = {{16, "r1"}, {16, "r2"}};
    rec.followed[{17, "ex"}] = 3;
    NextPlan p = next_steps(report(rec, "2026-11-20"));
    CHECK(p.next.kind == "exercises");
    CHECK(p.next.command == "workbook exercises 17");
  }
  SECTION("reviews and drills due are listed beside it, and come next when nothing is open") {
    ProgressReport r = report(rec, "2026-11-20");
    r.reviews_due = 3;
    r.drills.push_back({11, 5, 2, 0, 0, 0, true, ""});
    NextPlan p = next_steps(r);
    CHECK(p.next.kind == "follow");
    REQUIRE(p.also.size() == 2);
    CHECK(p.also[0].command == "workbook review");
    CHECK(p.also[1].command == "workbook drill");
    for (auto& m : r.modules) m = summarize(ModuleContent{m.module, m.title, {}, {}, {}}, rec);
    NextPlan habits = next_steps(r);
    CHECK(habits.next.kind == "review");
    REQUIRE(habits.also.size() == 1);
    CHECK(habits.also[0].kind == "drill");
  }
}

TEST_CASE("next_lab: the lab watch starts at is next's, or the first open one of its module", "[progress][watch]") {
  LearnerRecord rec;
  CHECK(next_lab(report(rec, "2026-12-01")) == "module16/lab");  // next says: run it
  CHECK(next_lab(report(rec, "2026-11-20")) == "module16/lab");  // next says: follow module 16
  rec.labs["module16/lab"] = lab("module16/lab", 2, 1);
  ProgressReport r = report(rec, "2026-11-20");
  CHECK(next_steps(r).next.command == "workbook follow 16");
  CHECK(next_lab(r) == "module17/lab");  // module 16's lab passed: the first module with one open
  for (auto& m : r.modules) m.labs_open.clear();
  CHECK(next_lab(r).empty());  // every lab passed
}

TEST_CASE("calibration: bands, direction, per module and over time", "[progress]") {
  std::vector<PredictionOutcome> outcomes = {
      {1, "module05/a", "t", "2026-11-02T10:00:00Z", "", 40, 10, 4.0},   // 4x high
      {2, "module05/a", "t", "2026-11-03T10:00:00Z", "", 30, 10, 3.0},   // 3x high
      {3, "module07/b", "t", "2026-11-10T10:00:00Z", "", 11, 10, 1.1},   // close
      {4, "module07/b", "t", "2026-11-11T10:00:00Z", "", 8, 10, 1.25},   // a little low
  };
  progress::Calibration c = calibrate(outcomes);
  CHECK(c.overall.n == 4);
  CHECK(c.overall.within_1_25 == 2);
  CHECK(c.overall.within_4 == 2);
  CHECK(c.overall.over == 3);
  CHECK(c.overall.under == 1);
  REQUIRE(c.modules.size() == 2);
  CHECK(c.modules[0].scope == "module05");
  CHECK(c.modules[0].median_factor == Approx(3.5));
  CHECK(c.modules[0].typical_ratio == Approx(std::sqrt(12.0)));
  REQUIRE(c.halves.size() == 2);
  CHECK(c.halves[0].median_factor == Approx(3.5));
  CHECK(c.halves[1].median_factor == Approx(1.175));
  CHECK(c.trend == "closer");
  REQUIRE(c.weeks.size() == 2);
  CHECK(c.weeks[0].scope == "week of 2026-11-02");  // a Monday
  CHECK(c.weeks[1].scope == "week of 2026-11-09");
  CHECK(calibrate({}).overall.n == 0);
  CHECK(calibrate({}).trend.empty());
}

TEST_CASE("project: experiments that name a topic count it measured and explained, and next explains them",
          "[progress][project]") {
  LearnerRecord rec;
  ProgressReport r;
  r.today = *learn::day_of_date("2027-01-04");  // the day before the project report
  for (int n : {14, 20, 21, 22}) r.modules.push_back(summarize(content(n, {fmt_lab(n)}), rec));
  Course c;
  c.project.report = "2027-01-05";
  c.project.presentation_first = "2027-01-07";
  c.project.topics_needed = 3;
  c.project.topics = {{14, "tiling"}, {20, "Tensor Cores"}, {21, "BF16"}, {22, "cuBLAS"}};
  r.course = c;
  r.topic_runs = {{"llm_bf16", "bf16", true, false},  // measured, not explained (the topic matched without case)
                  {"llm_tc", "Tensor Cores", true, true},
                  {"llm_tc", "Tensor Cores", false, false}};  // a run that did not finish counts nothing
  plan_report(r, {});
  REQUIRE(r.topics.size() == 4);
  CHECK(r.topics[1].measured == 1);
  CHECK(r.topics[1].explained == 1);
  CHECK(r.topics[2].measured == 1);
  CHECK(r.topics[2].explained == 0);
  CHECK(r.topics[2].unexplained == std::vector<std::string>{"llm_bf16"});
  // Two topics measured of three: next points at an open topic's lab first...
  NextPlan p = next_steps(r);
  CHECK(p.next.command == "workbook run module14/lab");
  // ...and once three are measured, at the experiment not yet explained.
  r.topic_runs.push_back({"cublas_cmp", "cuBLAS", true, true});
  plan_report(r, {});
  p = next_steps(r);
  CHECK(p.next.kind == "explain");
  CHECK(p.next.command == "workbook experiment explain llm_bf16");
}

TEST_CASE("next: the oral exam's sign-up is said in its week and on its day, not after", "[progress][calendar]") {
  LearnerRecord rec;
  auto on = [&](const std::string& today) {
    ProgressReport r = report(rec, today);
    r.course->oral_exam.sign_up_with = "a3";
    plan_report(r, {});
    return r;
  };
  NextPlan day = next_steps(on("2026-12-04"));
  REQUIRE_FALSE(day.also.empty());
  CHECK(day.also.front().kind == "sign-up");
  CHECK(day.also.front().command == "workbook drill --status");
  CHECK(day.also.front().what == "Sign up for the oral exam: due 2026-12-04 (today); the drills rehearse it");
  CHECK(next_steps(on("2026-11-29")).also.front().what.find("(in 5 days)") != std::string::npos);
  for (const char* when : {"2026-11-20", "2026-12-05"}) {
    for (const auto& a : next_steps(on(when)).also) CHECK(a.kind != "sign-up");
  }
  // progress's route line: "(today)", and past-date wording once it has passed.
  CHECK(workbook::progress::format_progress(on("2026-12-04"), Style(false), 0).find("sign up by 12-04 (today)") !=
        std::string::npos);
  CHECK(workbook::progress::format_progress(on("2026-12-06"), Style(false), 0).find("sign-up was due 12-04 (2 days ago)") !=
        std::string::npos);
}
