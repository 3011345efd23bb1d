// The learning commands' printers (runner/src/present/practice_print.hpp, implementing
// learn/practice_print.hpp): each outcome as text (the header at the start, the summary at
// the end) and as one JSON object, which the JSON printer prints only at the end.
#include <catch2/catch.hpp>

#include <string>

#include "learn/clock.hpp"
#include "learn/practice_print.hpp"
#include "present/practice_print.hpp"
#include "../support/day_number.hpp"
#include "../support/stdout_of.hpp"

using namespace workbook;
using workbook::learn::DrillOutcome;
using workbook::learn::DrillResult;
using workbook::learn::DrillStatus;
using workbook::learn::DrillStatusReport;
using workbook::learn::ExercisesOutcome;
using workbook::learn::FollowOutcome;
using workbook::learn::ItemResult;
using workbook::learn::modules_text;
using workbook::learn::practice_printer;
using workbook::learn::ReviewOutcome;
using workbook::learn::Stop;
using workbook::learn::to_json;
using wbtest::day_number;
using wbtest::stdout_of;

namespace {

const Output kText{false, Style(false)};
const Output kJson{true, Style(false)};

ItemResult item(const std::string& id, fsrs::Rating rating) {
  ItemResult r;
  r.module = 16;
  r.item = id;
  r.kind = "recall";
  r.mode = "scale";
  r.rating = rating;
  r.state = "review";
  r.due = "2026-12-05";
  return r;
}

ExercisesOutcome exercises() {
  ExercisesOutcome o;
  o.plan.module = 16;
  o.plan.asked = 2;
  o.plan.seed = 7;
  o.plan.skipped = {{"later", day_number("2026-12-09")}, {"sooner", day_number("2026-12-03")}};
  o.results = {item("a", fsrs::Rating::again), item("b", fsrs::Rating::good), item("a", fsrs::Rating::good)};
  o.stop = Stop::end_of_input;
  return o;
}

// The pretty JSON print_json prints.
std::string pretty(const nlohmann::json& j) { return j.dump(2) + "\n"; }

nlohmann::json items_json(const std::vector<ItemResult>& results) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& r : results) a.push_back(to_json(r));
  return a;
}

DrillResult drill_done(const std::string& id, int covered, int total) {
  DrillResult r;
  r.module = 11;
  r.drill = id;
  r.covered = covered;
  r.total = total;
  r.next_due = "2026-12-08";
  return r;
}

}  // namespace

TEST_CASE("practice_printer: JSON is quiet and text is not", "[learn][practice]") {
  CHECK(practice_printer(kJson)->quiet());
  CHECK_FALSE(practice_printer(kText)->quiet());
  CHECK(modules_text({11, 24}) == "module11 and module24");
}

TEST_CASE("practice print: exercises as text", "[learn][practice]") {
  const auto p = practice_printer(kText);
  const ExercisesOutcome o = exercises();
  CHECK(stdout_of([&] { p->exercises_start(o.plan); }) ==
        "module16: 2 items with fresh numbers (seed 7)\n"
        "Skipped 2 items not due yet (the next on 2026-12-03): `workbook exercises 16 --all` asks them too.\n"
        "Answer first, then compare with the model answer and grade yourself.\n");
  CHECK(stdout_of([&] { p->exercises_end(o); }) ==
        "\nAnswered 2 items (3 answers: an item rated again is asked again): again 1, good 2.\n"
        "End of input: stopped; every answer given is kept.\n"
        "Skipped 2 items not due yet (the next on 2026-12-03): `workbook exercises 16 --all` asks them too.\n");
  // q at the first answer: what is left is said, and how to carry on.
  ExercisesOutcome quit = exercises();
  quit.results = {item("a", fsrs::Rating::good)};
  quit.stop = Stop::quit;
  CHECK(stdout_of([&] { p->exercises_end(quit); }) ==
        "\nAnswered 1 item: good 1.\nStopped (q); every answer given is kept.\n"
        "Left: 1 of 2 items not answered; `workbook exercises 16` asks it again.\n");

  ExercisesOutcome none;
  none.plan.module = 16;
  none.plan.skipped = {{"later", day_number("2026-12-09")}};
  CHECK(stdout_of([&] { p->exercises_start(none.plan); }) ==
        "module16: 0 items\n"
        "Skipped 1 item not due yet (the next on 2026-12-09): `workbook exercises 16 --all` asks them too.\n");
  CHECK(stdout_of([&] { p->exercises_end(none); }) == "Nothing new or due in module16 today.\n");

  ExercisesOutcome one;
  one.plan.module = 3;
  one.plan.asked = 1;
  one.results = {item("a", fsrs::Rating::easy)};
  one.stop = Stop::interrupted;
  CHECK(stdout_of([&] { p->exercises_end(one); }) ==
        "\nAnswered 1 item: easy 1.\nInterrupted (Ctrl-C): every answer given before it is kept in the journal.\n"
        "Every item of module03 is answered; `workbook review` brings them back when due.\n");
}

TEST_CASE("practice print: the text is in the Output's style", "[learn][practice]") {
  const auto p = practice_printer(Output{false, Style(true)});
  ExercisesOutcome o = exercises();
  o.plan.skipped.clear();
  o.plan.seed.reset();
  CHECK(stdout_of([&] { p->exercises_start(o.plan); }) ==
        "\x1b[1mmodule16: 2 items\x1b[0m\n"
        "\x1b[2mAnswer first, then compare with the model answer and grade yourself.\x1b[0m\n");
}

TEST_CASE("practice print: exercises as JSON only at the end", "[learn][practice]") {
  const auto p = practice_printer(kJson);
  const ExercisesOutcome o = exercises();
  CHECK(stdout_of([&] { p->exercises_start(o.plan); }).empty());
  const nlohmann::json want = {{"module", 16},
                               {"mode", "scale"},
                               {"items", items_json(o.results)},
                               {"answered", 3},
                               {"items_answered", 2},
                               {"asked", 2},
                               {"skipped", {{{"item", "later"}, {"due", "2026-12-09"}}, {{"item", "sooner"}, {"due", "2026-12-03"}}}},
                               {"stopped", "end of input"},
                               {"seed", 7}};
  CHECK(stdout_of([&] { p->exercises_end(o); }) == pretty(want));

  ExercisesOutcome plain;
  plain.plan.module = 4;
  plain.plan.pass_fail = true;
  const nlohmann::json no_seed = nlohmann::json::parse(stdout_of([&] { p->exercises_end(plain); }));
  CHECK(no_seed["mode"] == "pass-fail");
  CHECK_FALSE(no_seed.contains("seed"));
  CHECK(no_seed["skipped"] == nlohmann::json::array());
  CHECK(no_seed["stopped"] == "done");
}

TEST_CASE("practice print: review as text and as JSON", "[learn][review]") {
  ReviewOutcome o;
  o.plan = {day_number("2026-12-01"), 4, 2, 30, 6};
  o.results = {item("a", fsrs::Rating::hard)};
  o.stop = Stop::quit;
  o.next_due_day = day_number("2026-12-02");

  const auto text = practice_printer(kText);
  CHECK(stdout_of([&] { text->review_start(o.plan); }) == "Review 2026-12-01: 4 due, 2 new (of 30 not yet seen).\n");
  // Quit with 5 of the session's 6 still due today: said so, not a later date.
  CHECK(stdout_of([&] { text->review_end(o); }) ==
        "\nAnswered 1 item: hard 1.\nStopped (q); every answer given is kept.\n"
        "Left: 5 of the 6 items of this session; `workbook review` carries on with them.\n");
  ReviewOutcome all = o;
  all.plan.queued = 1;
  all.stop = Stop::done;
  CHECK(stdout_of([&] { text->review_end(all); }) == "\nAnswered 1 item: hard 1.\nNext review due 2026-12-02.\n");
  ReviewOutcome nothing;
  nothing.plan.today = day_number("2026-12-01");
  CHECK(stdout_of([&] { text->review_end(nothing); }) == "Nothing to review today.\n");

  const auto as_json = practice_printer(kJson);
  CHECK(stdout_of([&] { as_json->review_start(o.plan); }).empty());
  const nlohmann::json want = {{"date", "2026-12-01"}, {"due", 4},       {"new", 2},          {"new_available", 30},
                               {"items", items_json(o.results)}, {"answered", 1}, {"items_answered", 1}, {"stopped", "quit"}, {"next_due", "2026-12-02"}};
  CHECK(stdout_of([&] { as_json->review_end(o); }) == pretty(want));
  CHECK(nlohmann::json::parse(stdout_of([&] { as_json->review_end(nothing); }))["next_due"].is_null());
}

TEST_CASE("practice print: follow as text and as JSON", "[learn][practice]") {
  FollowOutcome all_done;
  all_done.module = 14;
  FollowOutcome stopped;
  stopped.module = 14;
  stopped.result = learn::FollowResult{14, "tiling", "Tiling a matmul", 5, 1, 3, nlohmann::json::array({"step"})};
  stopped.stop = Stop::end_of_input;
  FollowOutcome finished = stopped;
  finished.result->steps_done = 5;
  finished.stop = Stop::done;

  const auto text = practice_printer(kText);
  CHECK(stdout_of([&] { text->follow_end(all_done); }) ==
        "Every worked example of module14 is done. Go again with --restart (or --example ID --restart).\n");
  CHECK(stdout_of([&] { text->follow_end(stopped); }) == "\nStopped at step 4/5; `workbook follow 14` carries on from there.\n");
  CHECK(stdout_of([&] { text->follow_end(finished); }).empty());

  const auto as_json = practice_printer(kJson);
  CHECK(stdout_of([&] { as_json->follow_end(all_done); }) == pretty({{"module", 14}, {"completed_all", true}}));
  const nlohmann::json want = {{"module", 14},     {"example", "tiling"}, {"title", "Tiling a matmul"},
                               {"total_steps", 5}, {"start_step", 2},     {"steps_done", 3},
                               {"completed", false}, {"steps", {"step"}}, {"stopped", "end of input"}};
  CHECK(stdout_of([&] { as_json->follow_end(stopped); }) == pretty(want));
}

TEST_CASE("practice print: drills as text", "[learn][drill]") {
  const auto p = practice_printer(kText);
  CHECK(stdout_of([&] { p->drill_start({{11}, false, 0}); }) ==
        "No drill of module11 is due today. `workbook drill 11 --status` shows when; --all drills anyway.\n");
  CHECK(stdout_of([&] { p->drill_start({{11, 24}, true, 0}); }) ==
        "No drill of module11 and module24 is due today. `workbook drill --status` shows when; --all drills anyway.\n");
  CHECK(stdout_of([&] { p->drill_start({{11, 24}, true, 3}); }) == "This week's drills: module11 and module24 (3 due).\n");
  CHECK(stdout_of([&] { p->drill_start({{11}, false, 3}); }).empty());

  DrillOutcome o;
  o.plan = {{11}, false, 3};
  o.results = {drill_done("roofline", 3, 4), drill_done("occupancy", 2, 2)};
  o.stop = Stop::interrupted;
  CHECK(stdout_of([&] { p->drill_end(o); }) ==
        "\n2 drills: 5/6 points covered.\nInterrupted (Ctrl-C): the drills done are kept.\n");
  o.results.resize(1);
  o.stop = Stop::done;
  CHECK(stdout_of([&] { p->drill_end(o); }) == "\n1 drill: 3/4 points covered.\n");
  o.results.clear();
  CHECK(stdout_of([&] { p->drill_end(o); }).empty());
}

TEST_CASE("practice print: drills as JSON only at the end", "[learn][drill]") {
  const auto p = practice_printer(kJson);
  DrillOutcome o;
  o.plan = {{11}, false, 2};
  o.results = {drill_done("roofline", 3, 4)};
  o.stop = Stop::quit;
  CHECK(stdout_of([&] { p->drill_start(o.plan); }).empty());
  const nlohmann::json want = {{"modules", {11}}, {"module", 11}, {"drills", {to_json(o.results[0])}},
                               {"covered", 3},    {"total", 4},   {"stopped", "quit"}};
  CHECK(stdout_of([&] { p->drill_end(o); }) == pretty(want));
  o.plan = {{11, 24}, true, 0};
  o.results.clear();
  const nlohmann::json weekly = nlohmann::json::parse(stdout_of([&] { p->drill_end(o); }));
  CHECK(weekly["modules"] == nlohmann::json({11, 24}));
  CHECK_FALSE(weekly.contains("module"));
  CHECK(weekly["drills"] == nlohmann::json::array());
}

TEST_CASE("practice print: drill status as a table and as JSON", "[learn][drill]") {
  DrillStatus fresh;
  fresh.module = 11;
  fresh.drill = "roofline";
  fresh.next_due_day = day_number("2026-12-01");
  DrillStatus easy;
  easy.module = 11;
  easy.drill = "occupancy";
  easy.attempts = 3;
  easy.last_covered = 2;
  easy.total = 2;
  easy.readiness = 0.8333;
  easy.easy = true;
  easy.due = false;
  easy.next_due_day = day_number("2026-12-29");
  const DrillStatusReport r{{11}, false, day_number("2026-12-01"), {fresh, easy}};

  CHECK(stdout_of([&] { practice_printer(kText)->drill_status_report(r); }) ==
        "module11 drills, 2026-12-01 (weekly until easy)\n"
        "drill                        attempts   last  readiness next due    \n"
        "roofline                            0      -          - due now\n"
        "occupancy                           3    2/2       83 % 2026-12-29 (easy)\n");
  const nlohmann::json want = {
      {"modules", {11}}, {"module", 11}, {"date", "2026-12-01"}, {"drills", {to_json(fresh), to_json(easy)}}};
  CHECK(stdout_of([&] { practice_printer(kJson)->drill_status_report(r); }) == pretty(want));
}
