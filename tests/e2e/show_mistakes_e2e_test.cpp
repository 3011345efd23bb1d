// End-to-end tests of the known-mistakes section of `workbook show LAB` through the real
// binary, on the fixture course (module01/fail_lab declares two variants): the list of
// mistakes stays hidden until the learner's own copy has passed, or with --author.
#include "e2e_support.hpp"

#include "../support/text_checks.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::read_file;
using e2e::write_file;
using nlohmann::json;
using wbtest::contains;

TEST_CASE("e2e: show LAB lists the known mistakes only after a pass of the learner's copy, or with --author",
          "[e2e][show]") {
  FixtureCourse c;
  CommandResult before = c.run({"show", "module01/fail_lab"});
  INFO(before.out << before.err);
  REQUIRE(before.exit_code == 0);
  CHECK_FALSE(contains(before.out, "loop_stops_early"));
  CHECK_FALSE(contains(before.out, "miscounted"));
  CHECK(contains(before.out, "proven to catch 2 known mistake(s); they are listed here once your copy has passed"));
  json j = c.run_json({"show", "module01/fail_lab", "--json"});
  CHECK(j["variants"].empty());
  CHECK(j["variants_hidden"] == 2);

  // A failing run of the learner's copy (the starter) opens nothing.
  CommandResult failed = c.run({"run", "module01/fail_lab", "--no-predict"});
  CHECK(failed.exit_code == 1);
  CHECK_FALSE(contains(c.run({"show", "module01/fail_lab"}).out, "loop_stops_early"));

  CommandResult author = c.run({"show", "module01/fail_lab", "--author"});
  CHECK(contains(author.out, "Mistakes this lab is proven to catch"));
  CHECK(contains(author.out, "loop_stops_early"));

  // The learner's copy, completed, passes: now the list is shown.
  write_file(c.workspace / "labs/module01/fail_lab.cpp", read_file(c.content / "solutions/module01/fail_lab.cpp"));
  CommandResult passed = c.run({"run", "module01/fail_lab", "--no-predict"});
  INFO(passed.out << passed.err);
  REQUIRE(passed.exit_code == 0);
  CommandResult after = c.run({"show", "module01/fail_lab"});
  CHECK(contains(after.out, "Mistakes this lab is proven to catch"));
  CHECK(contains(after.out, "loop_stops_early"));
  CHECK(contains(after.out, "miscounted"));
  json k = c.run_json({"show", "module01/fail_lab", "--json"});
  CHECK(k["variants"].size() == 2);
  CHECK(k["variants_hidden"] == 0);
}
