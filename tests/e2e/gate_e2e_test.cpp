// End-to-end tests of the solution gate and the reading record on the fixture course:
// `show LAB --solution` and `run LAB --solution` before any attempt (no terminal: exit 2
// with the --yes advice; --yes: shown and recorded), after a run of the learner's copy
// (the difference kernel by kernel, text, colour and JSON), and `show MODULE` counting as
// Read only when the reading reached a terminal.
#include <sys/stat.h>

#include "e2e_support.hpp"

#include "../support/text_checks.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using nlohmann::json;
using wbtest::contains;
namespace fs = std::filesystem;

namespace {

std::string views(const FixtureCourse& c) {
  std::string out;
  for (const auto& v : e2e::journal_rows(c.journal(), "SELECT shown || ' ' || before_attempt FROM solution_views ORDER BY id"))
    out += (out.empty() ? "" : ", ") + v;
  return out;
}

}  // namespace

TEST_CASE("e2e: before any attempt, --solution needs a yes: exit 2 without a terminal, --yes shows and records",
          "[e2e][gate]") {
  FixtureCourse c;
  CommandResult r = c.run({"show", "module01/pass_lab", "--solution"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "workbook show module01/pass_lab --solution --yes"));
  CHECK_FALSE(contains(r.out, "sum_to"));

  r = c.run({"show", "module01/pass_lab", "--solution", "--yes"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, e2e::read_file(c.content / "solutions/module01/pass_lab.cpp")));
  CHECK(views(c) == "full 1");

  // run --solution: the same gate; a refused run records nothing
  r = c.run({"run", "module01/pass_lab", "--solution", "--no-predict"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "workbook run module01/pass_lab --solution --yes"));
  CHECK(e2e::journal_value(c.journal(), "SELECT COUNT(*) FROM runs") == "0");
  r = c.run({"run", "module01/pass_lab", "--solution", "--yes", "--no-predict", "--json"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(views(c) == "full 1, run 1");
  // a run of the reference is not an attempt: still gated; --json never asks either
  CHECK(c.run({"show", "module01/pass_lab", "--solution", "--json"}).exit_code == 2);
  CHECK(c.run({"show", "module01/pass_lab", "--yes"}).exit_code == 2);  // --yes goes with --solution
}

TEST_CASE("e2e: after a run of your copy, show --solution is the difference kernel by kernel", "[e2e][gate]") {
  FixtureCourse c;
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict", "--json"}).exit_code == 0);
  std::string mine = e2e::read_file(c.lab_copy("pass_lab.cpp"));
  const std::string loop = "sum = sum + i;";
  REQUIRE(contains(mine, loop));
  mine.replace(mine.find(loop), loop.size(), "sum = sum + i + 0;");
  e2e::write_file(c.lab_copy("pass_lab.cpp"), mine + "int unused() { return 0; }\n");

  CommandResult r = c.run({"show", "module01/pass_lab", "--solution"});  // no --yes needed now
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "sum_to()  2 lines differ"));
  CHECK(contains(r.out, "\n-  for (long long i = 1; i <= n; ++i) sum = sum + i + 0;\n"));
  CHECK(contains(r.out, "\n+  for (long long i = 1; i <= n; ++i) sum = sum + i;\n"));
  CHECK(contains(r.out, "main()  identical"));
  CHECK(contains(r.out, "(file scope)  identical"));
  CHECK(contains(r.out, "unused()  only in yours"));
  CHECK_FALSE(contains(r.out, "\x1b["));  // NO_COLOR
  CHECK(views(c) == "diff 0");

  json j = c.run_json({"show", "module01/pass_lab", "--solution", "--json"});
  CHECK(j["shown"] == "diff");
  CHECK(j["before_attempt"] == false);
  json sum_to = e2e::find_by(j["pieces"], "name", "sum_to");
  CHECK(sum_to["state"] == "changed");
  CHECK(sum_to["kind"] == "host function");
  CHECK(sum_to["hunks"].size() == 1);
  CHECK(e2e::find_by(j["pieces"], "name", "main")["state"] == "identical");
  CHECK(e2e::find_by(j["pieces"], "name", "unused")["state"] == "only in yours");

  r = c.run({"show", "module01/pass_lab", "--solution", "--full"});
  CHECK(contains(r.out, e2e::read_file(c.content / "solutions/module01/pass_lab.cpp")));
  CHECK(views(c) == "diff 0, diff 0, full 0");

  // colour on a terminal unless NO_COLOR: removed lines red, added lines green
  auto env = c.env();
  env.erase("NO_COLOR");
  CommandResult tty = e2e::run_workbook_on_pty({"show", "module01/pass_lab", "--solution"}, env);
  CHECK(contains(tty.out, "\x1b[31m-  for"));
  CHECK(contains(tty.out, "\x1b[32m+  for"));
}

TEST_CASE("e2e: show MODULE counts as Read once its reading reached a terminal in full", "[e2e][gate]") {
  FixtureCourse c;
  e2e::write_file(c.content / "modules/module01/README.md", "# Fixture module\n\nRead this before the labs.\n");
  auto read_state = [&c] {
    json j = c.run_json({"progress", "--json"});
    return e2e::find_by(j["modules"], "id", "module01");
  };
  CommandResult r = c.run({"show", "module01"});  // a pipe: printed, not recorded
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "Read this before the labs."));
  CHECK(contains(r.out, "pass_lab"));
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict", "--json"}).exit_code == 0);
  CHECK(read_state()["read"] == false);  // a run does not say the reading was read

  CommandResult tty = e2e::run_workbook_on_pty({"show", "module01"}, c.env());
  CHECK(tty.exit_code == 0);
  CHECK(contains(tty.out, "Read this before the labs."));
  CHECK(e2e::journal_value(c.journal(), "SELECT module FROM readings") == "1");
  json m = read_state();
  CHECK(m["read"] == true);
  CHECK(m["read_inferred"] == false);
  CHECK(c.run_json({"show", "module01", "--json"})["reading"] == "# Fixture module\n\nRead this before the labs.\n");
}

TEST_CASE("e2e: before any attempt, run --variant is gated like --solution: nothing written without a yes, a view recorded",
          "[e2e][gate]") {
  FixtureCourse c;
  const fs::path written = c.workspace / ".workbook/variants/module01/fail_lab";
  CommandResult r = c.run({"run", "module01/fail_lab", "--variant", "miscounted", "--no-predict"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "workbook run module01/fail_lab --variant miscounted --yes"));
  CHECK_FALSE(fs::exists(written));  // the solution, one line changed, is not in the workspace
  CHECK(e2e::journal_value(c.journal(), "SELECT COUNT(*) FROM runs") == "0");
  CHECK(views(c).empty());

  r = c.run({"run", "module01/fail_lab", "--variant", "nope", "--no-predict"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "has no variant 'nope'"));  // said before the gate asks anything

  // A Slurm dry run checks the request by preparing the run, which writes the variant's
  // source: it passes the gate too (issue 36).
  r = c.run({"run", "module01/fail_lab", "--variant", "miscounted", "--no-predict", "--slurm-dry-run"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "--variant miscounted --yes"));
  CHECK_FALSE(fs::exists(written));
  CHECK(views(c).empty());

  r = c.run({"run", "module01/fail_lab", "--variant", "miscounted", "--yes", "--no-predict", "--json"});
  SHOW(r);
  CHECK(r.exit_code == 5);
  CHECK(fs::exists(written));
  CHECK(views(c) == "variant 1");
  CHECK(c.run({"run", "module01/pass_lab", "--yes", "--no-predict"}).exit_code == 2);  // --yes answers a gate only
}

TEST_CASE("e2e: a FIFO or a link to /dev/zero as your copy: show --solution and reset say so at once",
          "[e2e][gate][hostile]") {
  FixtureCourse c;
  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);  // an attempt: the diff reads the copy
  const fs::path copy = c.lab_copy("pass_lab.cpp");
  fs::remove(copy);
  REQUIRE(::mkfifo(copy.c_str(), 0600) == 0);  // no writer: reading it would block for ever
  for (int round = 0; round < 2; ++round) {
    INFO((round == 0 ? "FIFO" : "/dev/zero"));
    CommandResult shown = c.run({"show", "module01/pass_lab", "--solution", "--yes"}, {}, 60);
    SHOW(shown);
    CHECK(shown.exit_code == 2);
    CHECK(contains(shown.err, "cannot read your copy " + copy.string() + ": it is a"));
    CHECK(shown.wall_s < 30);
    CommandResult reset = c.run({"reset", "module01/pass_lab", "--yes"}, {}, 60);
    SHOW(reset);
    CHECK(reset.exit_code == 2);
    CHECK(contains(reset.err, "nothing was changed"));
    fs::remove(copy);
    fs::create_symlink("/dev/zero", copy);  // endless
  }
  CHECK(fs::is_symlink(copy));
}
