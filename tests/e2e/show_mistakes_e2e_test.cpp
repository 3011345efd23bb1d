// End-to-end tests of the known-mistakes section of `workbook show LAB` through the real
// binary, on the fixture course (module01/fail_lab declares two variants): the list of
// mistakes stays hidden until the learner's own copy has passed, or with --author.
#include "e2e_support.hpp"

using namespace e2e;
using nlohmann::json;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("e2e: show LAB lists the known mistakes only after a pass of the learner's copy, or with --author",
          "[e2e][show]") {
  Course c;
  CommandResult before = c.run({"show", "module01/fail_lab"});
  INFO(before.out << before.err);
  REQUIRE(before.exit_code == 0);
  CHECK_FALSE(has(before.out, "loop_stops_early"));
  CHECK_FALSE(has(before.out, "miscounted"));
  CHECK(has(before.out, "proven to catch 2 known mistake(s); they are listed here once your copy has passed"));
  json j = c.run_json({"show", "module01/fail_lab", "--json"});
  CHECK(j["variants"].empty());
  CHECK(j["variants_hidden"] == 2);

  // A failing run of the learner's copy (the starter) opens nothing.
  CommandResult failed = c.run({"run", "module01/fail_lab", "--no-predict"});
  CHECK(failed.exit_code == 1);
  CHECK_FALSE(has(c.run({"show", "module01/fail_lab"}).out, "loop_stops_early"));

  CommandResult author = c.run({"show", "module01/fail_lab", "--author"});
  CHECK(has(author.out, "Mistakes this lab is proven to catch"));
  CHECK(has(author.out, "loop_stops_early"));

  // The learner's copy, completed, passes: now the list is shown.
  write_file(c.workspace / "labs/module01/fail_lab.cpp", read_file(c.content / "solutions/module01/fail_lab.cpp"));
  CommandResult passed = c.run({"run", "module01/fail_lab", "--no-predict"});
  INFO(passed.out << passed.err);
  REQUIRE(passed.exit_code == 0);
  CommandResult after = c.run({"show", "module01/fail_lab"});
  CHECK(has(after.out, "Mistakes this lab is proven to catch"));
  CHECK(has(after.out, "loop_stops_early"));
  CHECK(has(after.out, "miscounted"));
  json k = c.run_json({"show", "module01/fail_lab", "--json"});
  CHECK(k["variants"].size() == 2);
  CHECK(k["variants_hidden"] == 0);
}
