// End-to-end tests of `workbook hint` through the real binary, on the fixture course
// (module01/pass_lab declares three hints, fail_lab none): one more hint each call, each
// recorded in the journal, the pointer to the solution when all are shown, --all, --json,
// the error for an unknown lab, and "hints used" beside a run in `history`.
#include "e2e_support.hpp"

#include "../support/text_checks.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using nlohmann::json;
using wbtest::contains;

namespace {

long long hint_rows(const FixtureCourse& c) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open_v2(c.journal().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM hints_shown", -1, &s, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(s) == SQLITE_ROW);
  const long long n = sqlite3_column_int64(s, 0);
  sqlite3_finalize(s);
  sqlite3_close(db);
  return n;
}

}  // namespace

TEST_CASE("e2e: hint shows one more hint each time, then points to the solution", "[e2e][hint-e2e]") {
  FixtureCourse c;
  CommandResult first = c.run({"hint", "module01/pass_lab"});
  SHOW(first);
  REQUIRE(first.exit_code == 0);
  CHECK(contains(first.out, "Hint 1 of 3\n  Fixture hint one: the idea.\n"));
  CHECK_FALSE(contains(first.out, "Hint 2 of 3"));
  CHECK(contains(first.out, "1 of 3 hints seen; `workbook hint module01/pass_lab` again shows the next one."));
  CHECK(hint_rows(c) == 1);

  CommandResult second = c.run({"hint", "module01/pass_lab"});
  SHOW(second);
  REQUIRE(second.exit_code == 0);
  CHECK(contains(second.out, "Hint 1 of 3 (seen before)\n  Fixture hint one: the idea.\n"));
  CHECK(contains(second.out, "Hint 2 of 3\n  Fixture hint two: the mechanism.\n"));
  CHECK_FALSE(contains(second.out, "Hint 3 of 3"));
  CHECK_FALSE(contains(second.out, "--solution"));
  CHECK(hint_rows(c) == 2);

  // A module number names a lab only when the module has one; module01 has several.
  CommandResult third = c.run({"hint", "1"});
  CHECK(third.exit_code == 2);
  CHECK(contains(third.err, "names a module"));
  CHECK(contains(third.err, "module01/pass_lab"));

  third = c.run({"hint", "module01/pass_lab"});
  SHOW(third);
  REQUIRE(third.exit_code == 0);
  CHECK(contains(third.out, "Hint 3 of 3\n  Fixture hint three: nearly the code.\n"));
  CHECK(contains(third.out, "All 3 hints of module01/pass_lab are shown. Still stuck? The reference solution:\n"
                       "  workbook show module01/pass_lab --solution\n"));
  CHECK(hint_rows(c) == 3);

  // A fourth call shows them all again and records nothing new.
  CommandResult r;
  json j = c.run_json({"hint", "module01/pass_lab", "--json"}, &r);
  CHECK(r.exit_code == 0);
  CHECK(j["lab"] == "module01/pass_lab");
  CHECK(j["total"] == 3);
  CHECK(j["seen"] == 3);
  CHECK(j["all_seen"] == true);
  CHECK(j["solution_command"] == "workbook show module01/pass_lab --solution");
  REQUIRE(j["hints"].size() == 3);
  for (const auto& h : j["hints"]) CHECK(h["new"] == false);
  CHECK(j["hints"][2]["text"] == "Fixture hint three: nearly the code.");
  CHECK(hint_rows(c) == 3);
}

TEST_CASE("e2e: hint --all, a lab without hints, an unknown lab and --help", "[e2e][hint-e2e]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"hint", "module01/pass_lab", "--all", "--json"}, &r);
  CHECK(r.exit_code == 0);
  CHECK(j["seen"] == 3);
  REQUIRE(j["hints"].size() == 3);
  for (const auto& h : j["hints"]) CHECK(h["new"] == true);
  CHECK(hint_rows(c) == 3);

  CommandResult none = c.run({"hint", "module01/fail_lab"});
  SHOW(none);
  CHECK(none.exit_code == 0);
  CHECK(contains(none.out, "module01/fail_lab has no hints"));

  // The same error and suggestions as `show` and `run`.
  CommandResult unknown = c.run({"hint", "module01/no_such_lab"});
  CommandResult show = c.run({"show", "module01/no_such_lab"});
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err, "module01 has no lab 'no_such_lab'"));
  CHECK(contains(unknown.err, "module01/pass_lab"));
  CHECK_FALSE(contains(unknown.err, "did you mean"));  // no_such_lab is near no lab
  CHECK(unknown.err == show.err);
  CHECK(c.run({"hint", "not a lab!"}).exit_code == 2);
  CHECK(c.run({"hint"}).exit_code == 2);  // the lab is required

  CommandResult help = c.run({"hint", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(contains(help.out, "Examples:"));
  CHECK(contains(help.out, "workbook hint module05/find_the_bugs"));
  CHECK(contains(help.out, "--all"));
}

TEST_CASE("e2e: history shows the hints used before each run", "[e2e][hint-e2e]") {
  FixtureCourse c;
  CommandResult before = c.run({"run", "module01/pass_lab", "--no-predict"});
  SHOW(before);
  REQUIRE(before.exit_code == 0);
  REQUIRE(c.run({"hint", "module01/pass_lab"}).exit_code == 0);
  REQUIRE(c.run({"hint", "module01/pass_lab"}).exit_code == 0);
  CommandResult after = c.run({"run", "module01/pass_lab", "--no-predict"});
  SHOW(after);
  REQUIRE(after.exit_code == 0);

  CommandResult r;
  json h = c.run_json({"history", "module01/pass_lab", "--json"}, &r);
  REQUIRE(r.exit_code == 0);
  REQUIRE(h["runs"].size() == 2);
  CHECK(h["runs"][0]["hints_used"] == 2);  // newest first
  CHECK(h["runs"][0]["hints_total"] == 3);
  CHECK(h["runs"][1]["hints_used"] == 0);

  CommandResult text = c.run({"history", "module01/pass_lab"});
  SHOW(text);
  CHECK(text.exit_code == 0);
  CHECK(contains(text.out, "hints used: 2 of 3"));
  CHECK(contains(text.out, "hints used: 0 of 3"));
}
