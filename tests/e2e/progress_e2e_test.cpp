// End-to-end tests of `workbook progress`, `next` and `history` (and a bare `workbook`)
// through the real binary, on the fixture course (its calendar: tests/fixtures/course/
// data/course.yaml, module 1 prepares assignment 1 due 2026-11-06) with a fixed clock.
// Every command runs without a terminal, as text and as --json.
#include "e2e_support.hpp"
#include "learn_support.hpp"
#include "ui/wrap.hpp"

#include <sstream>

using e2e::CommandResult;
using e2e::find_by;
using e2e::FixtureCourse;
using e2e::journal_value;
using e2e::read_file;
using e2e::run_workbook_on_pty;
using e2e::write_file;
using nlohmann::json;

namespace {

json drills_of(const json& progress, int module) {
  for (const auto& d : progress["drills"]) {
    if (d["module"] == module) return d;
  }
  FAIL("no drills of module " << module << " in " << progress["drills"].dump());
  return {};
}

const std::map<std::string, std::string> kNov1{{"WORKBOOK_NOW", "2026-11-01"}};

// Two runs of the learner's copies: pass_lab passes (with predictions), fail_lab fails.
void run_two_labs(const FixtureCourse& c) {
  CommandResult pass = c.run({"run", "module01/pass_lab", "--predict", "count_guess=900", "--predict", "kind=1",
                              "--predict", "big=yes", "--explain", "N terms, one add each"});
  SHOW(pass);
  REQUIRE(pass.exit_code == 0);
  CommandResult fail = c.run({"run", "module01/fail_lab", "--no-predict"});
  SHOW(fail);
  REQUIRE(fail.exit_code == 1);
}

}  // namespace

TEST_CASE("e2e: progress on a fresh workspace plans against the fixture calendar", "[e2e][progress-e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"progress", "--json"}, &r);  // WORKBOOK_NOW unset here: any day works
  CHECK(r.exit_code == 0);
  CHECK(j["calendar"]["tentative"] == true);

  CommandResult text = c.run({"progress"}, kNov1);
  SHOW(text);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("Progress, 2026-11-01") != std::string::npos);
  CHECK(text.out.find("Next:    Assignment 1, 2026-11-06 (in 5 days)") != std::string::npos);
  CHECK(text.out.find("\x1b[") == std::string::npos);  // NO_COLOR and no terminal
  for (std::size_t start = 0, end; start < text.out.size(); start = end + 1) {
    end = text.out.find('\n', start);
    if (end == std::string::npos) end = text.out.size();
    std::string line = text.out.substr(start, end - start);
    std::size_t points = 0;
    for (unsigned char ch : line) points += (ch & 0xC0) != 0x80;
    INFO(line);
    CHECK(points <= 80);
  }
}

TEST_CASE("e2e: progress, next and history after two runs", "[e2e][progress-e2e]") {
  FixtureCourse c;
  run_two_labs(c);

  CommandResult r;
  json p = c.run_json({"progress", "--json"}, &r);
  REQUIRE(r.exit_code == 0);
  json m1 = p["modules"][0];
  CHECK(m1["module"] == 1);
  CHECK(m1["read"] == false);  // runs do not say the reading was read (`workbook show 1` on a terminal does)
  CHECK(m1["read_inferred"] == false);
  CHECK(m1["run"]["done"] == 1);
  CHECK(m1["run"]["total"] == 7);
  CHECK(m1["labs_tried"] == json::array({"module01/fail_lab"}));
  json topic = p["route"]["project"]["topics"][0];
  CHECK(topic["measured"] == true);
  CHECK(topic["explained"] == true);

  // Five days before A1: the labs of module 1 first, the first not passed.
  json n = json::parse(c.run({"next", "--json"}, kNov1).out);
  CHECK(n["next"]["kind"] == "run");
  CHECK(n["next"]["command"] == "workbook run module01/fail_lab");
  CommandResult next_text = c.run({"next"}, kNov1);
  CHECK(next_text.exit_code == 0);
  CHECK(next_text.out.find("Fix and run the lab module01/fail_lab") != std::string::npos);
  CHECK(next_text.out.find("  workbook run module01/fail_lab\n") != std::string::npos);

  json h = c.run_json({"history", "module01/pass_lab", "--json"}, &r);
  REQUIRE(r.exit_code == 0);
  REQUIRE(h["runs"].size() == 1);
  json run = h["runs"][0];
  CHECK(run["verdict"] == "pass");
  CHECK(run["device"] == "Tesla T4");
  CHECK(find_by(run["figures"], "name", "count")["value"] == 1000.0);
  json guess = find_by(run["predictions"], "prediction", "count_guess");
  CHECK(guess["predicted"] == 900.0);
  CHECK(guess["factor"].get<double>() == Approx(1000.0 / 900.0));
  CHECK(h["calibration"]["overall"]["n"] == 1);
  CHECK(h["calibration"]["overall"]["under"] == 1);
  CHECK(h["calibration"]["modules"][0]["scope"] == "module01");

  json all = c.run_json({"history", "--json", "--limit", "1"});
  REQUIRE(all["runs"].size() == 1);
  CHECK(all["runs"][0]["lab"] == "module01/fail_lab");  // newest first

  CommandResult ht = c.run({"history"}, {{"COLUMNS", "80"}});  // an 80-column terminal's width
  SHOW(ht);
  CHECK(ht.exit_code == 0);
  CHECK(ht.out.find("module01/pass_lab") != std::string::npos);
  CHECK(ht.out.find("Prediction calibration") != std::string::npos);
  // The table's abbreviated columns are explained on the screen, not only in --help.
  CHECK(ht.out.find("over/und: how many predicted above / below the measurement") != std::string::npos);
  CHECK(ht.out.find("predicted / measured (above 1: your predictions run high)") != std::string::npos);
  std::istringstream lines(ht.out);
  for (std::string line; std::getline(lines, line);) CHECK(workbook::text_columns(line) <= 80);  // columns, not bytes
  CHECK(c.run({"history", "module01/no_such_lab"}).exit_code == 2);
}

TEST_CASE("e2e: a bare workbook shows the progress screen, --help still lists the commands", "[e2e][progress-e2e]") {
  FixtureCourse c;
  CommandResult bare = c.run({}, kNov1);
  CommandResult progress = c.run({"progress"}, kNov1);
  SHOW(bare);
  CHECK(bare.exit_code == 0);
  CHECK(bare.out == progress.out);
  CommandResult help = c.run({"--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("progress") != std::string::npos);
  CHECK(help.out.find("history") != std::string::npos);
  CHECK(c.run({"histroy"}).err.find("did you mean 'history'") != std::string::npos);
}

TEST_CASE("e2e: progress is coloured on a terminal unless NO_COLOR is set", "[e2e][progress-e2e]") {
  FixtureCourse c;
  auto env = c.env(kNov1);
  env.erase("NO_COLOR");
  CommandResult coloured = run_workbook_on_pty({"progress"}, env);
  CHECK(coloured.exit_code == 0);
  CHECK(coloured.out.find("\x1b[") != std::string::npos);
  for (const char* cmd : {"progress", "next", "history"}) {
    CommandResult plain = run_workbook_on_pty({cmd}, c.env(kNov1));
    INFO(cmd << ": " << plain.out);
    CHECK(plain.exit_code == 0);
    CHECK(plain.out.find("\x1b[") == std::string::npos);
  }
}

TEST_CASE("e2e: past due is behind, the workspace's course.yaml moves the dates", "[e2e][progress-e2e]") {
  FixtureCourse c;
  CommandResult late = c.run({"progress"}, {{"WORKBOOK_NOW", "2026-11-10"}});
  SHOW(late);
  CHECK(late.out.find("Behind:  Assignment 1 was due 2026-11-06 (4 days ago)") != std::string::npos);
  json j = json::parse(c.run({"progress", "--json"}, {{"WORKBOOK_NOW", "2026-11-10"}}).out);
  CHECK(j["calendar"]["behind"] == json::array({"a1"}));
  CHECK(j["calendar"]["next"]["kind"] == "proposal");

  write_file(c.workspace / "course.yaml", "format_version: 1\nassignments:\n  - {id: a1, due: 2026-11-27}\n");
  j = json::parse(c.run({"progress", "--json"}, {{"WORKBOOK_NOW", "2026-11-10"}}).out);
  CHECK(j["calendar"]["behind"].empty());
  CHECK(find_by(j["calendar"]["assignments"], "id", "a1")["due"] == "2026-11-27");
  CHECK(j["calendar"]["files"].size() == 2);

  write_file(c.workspace / "course.yaml", "format_version: 1\nassignments:\n  - {id: a1, due: 27 November}\n");
  CommandResult bad = c.run({"progress"}, kNov1);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("course.yaml:3: assignments[0].due: '27 November' is not a date") != std::string::npos);
}


TEST_CASE("e2e: progress and next follow answers, steps and drills (no calendar)", "[e2e][progress-e2e]") {
  learn_e2e::LearnCourse c;  // modules 11 and 24 with exercises and drills; no course.yaml; 2026-09-01
  e2e::CommandResult r;
  c.run_json({"drill", "11", "--json"}, "\n1 2\nsome notes\nall\n", &r);
  REQUIRE(r.exit_code == 0);
  c.run_json({"exercises", "11", "--pass-fail", "--json"}, "32\nmaybe\np\nblocks=4 idle=24\nf\n", &r);
  REQUIRE(r.exit_code == 0);

  json p = c.run_json({"progress", "--json"}, "", &r);
  SHOW(r);
  CHECK(p["calendar"].is_null());
  CHECK(p["route"].is_null());
  json m11 = find_by(p["modules"], "id", "module11");
  CHECK(m11["read"] == false);  // answers are not a reading of the module (a fresh journal infers none)
  CHECK(m11["answer"]["done"] == 2);
  CHECK(m11["answer"]["total"] == 4);
  CHECK(m11["follow"]["done"] == 0);
  json d11 = drills_of(p, 11);
  CHECK(d11["attempted"] == 2);
  CHECK(d11["due"] == 0);  // both tried today: next week
  CHECK(drills_of(p, 24)["offered"] == false);  // from December
  CHECK(p["reviews_due"] == 2);  // both are on short-term learning steps (learn/fsrs.hpp): due again today

  json n = c.run_json({"next", "--json"}, "", &r);
  CHECK(n["next"]["command"] == "workbook follow 11");  // the workbook's order: Follow, then Answer
  r = c.run({"progress"});
  CHECK(r.out.find("No course calendar") != std::string::npos);
}

TEST_CASE("e2e: history and report name a run's machine, or say it was not recorded", "[e2e][progress-e2e][machine]") {
  FixtureCourse c;
  run_two_labs(c);
  // As in a journal from before the machine was recorded: no machine rows at all.
  e2e::journal_rows(c.journal(), "DELETE FROM run_machine");
  e2e::journal_rows(c.journal(), "DELETE FROM run_gpu_state");
  CommandResult old = c.run({"history", "module01/pass_lab"});
  SHOW(old);
  CHECK(old.out.find("      machine: not recorded\n") != std::string::npos);
  json h = c.run_json({"history", "module01/pass_lab", "--json"});
  CHECK(h["runs"][0]["machine"]["driver"].is_null());
  CHECK(h["runs"][0]["machine"]["not_recorded"] == json::array({"driver, CUDA version, clocks and power state"}));

  // A run recorded on an H200 (as record_gpu_state writes it there, while the run is open:
  // the schema's guards refuse rows joining an ended run, so they are lifted for this
  // stand-in).
  e2e::journal_rows(c.journal(), "DROP TRIGGER run_machine_of_ended_run; DROP TRIGGER run_gpu_state_of_ended_run");
  const std::string run = journal_value(c.journal(), "SELECT id FROM runs WHERE lab = 'module01/pass_lab'");
  e2e::journal_rows(c.journal(), "INSERT INTO run_machine(run_id, driver, cuda_driver, toolkit, power_source) VALUES(" + run +
                                     ", '580.159.04', '13.0', '13.0', '')");
  e2e::journal_rows(c.journal(), "INSERT INTO run_gpu_state(run_id, phase, sm_mhz, max_sm_mhz, mem_mhz, reason_names, "
                                 "throttled, power_w, power_limit_w, pstate, tool) VALUES(" + run +
                                     ", 'before', 1980, 1980, 3201, '', 0, 121.5, 700, 'P0', 'none')");
  const std::string line = "driver 580.159.04, CUDA 13.0 (driver), CUDA toolkit 13.0 (nvcc), "
                           "SM 1980 MHz (max 1980), memory 3201 MHz, 121.5 W of a 700 W limit, power state P0";
  CommandResult now = c.run({"history", "module01/pass_lab"});
  SHOW(now);
  CHECK(now.out.find("      machine: " + line + "\n") != std::string::npos);
  CommandResult report = c.run({"report", "module01/pass_lab"});
  SHOW(report);
  CHECK(report.exit_code == 0);
  const std::string md = read_file(c.workspace / "reports/module01-pass_lab/report.md");
  CHECK(md.find("- **Tesla T4**") != std::string::npos);
  CHECK(md.find("With run #" + run + " (") != std::string::npos);
  CHECK(md.find(line) != std::string::npos);
}
