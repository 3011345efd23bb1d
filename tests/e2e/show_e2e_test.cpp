// End-to-end tests of `show` for a learner at a terminal: a reading rendered and paged
// (PAGER is a script that copies what it is given to a file), counted as Read when paged,
// `--no-pager`; the text fitted to COLUMNS; a lab's expected figures as a table with a
// header, ranges written with "to" in suited units, and a legend for what it shows.
#include "../support/lines.hpp"
#include "e2e_support.hpp"

#include "../support/text_checks.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
namespace fs = std::filesystem;
using wbtest::columns;
using wbtest::contains;
using wbtest::lines_of;

namespace {

const char* const kFixtureReading =
    "# Fixture module\n"
    "\n"
    "This reading has a paragraph that is long enough to need wrapping on a narrow terminal, written\n"
    "at ninety columns like the real ones.\n"
    "\n"
    "## Section\n"
    "\n"
    "- a list item that also runs on for long enough that it has to wrap onto a second line here\n"
    "\n"
    "```\n"
    "for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];   // a code line that must never be wrapped at all\n"
    "```\n";

}  // namespace

TEST_CASE("e2e: show MODULE on a terminal goes through the pager, rendered, and counts as Read", "[e2e]") {
  FixtureCourse c;
  e2e::write_file(c.content / "modules/module01/README.md", kFixtureReading);
  const fs::path paged = c.tmp.path / "paged.txt";
  const fs::path pager = c.tmp.path / "fake-pager.sh";
  e2e::write_file(pager, "#!/bin/sh\ncat > '" + paged.string() + "'\n");
  fs::permissions(pager, fs::perms::owner_all);
  auto env = c.env({{"PAGER", pager.string()}, {"COLUMNS", "50"}});
  CommandResult r = e2e::run_workbook_on_pty({"show", "module01"}, env);
  SHOW(r);
  CHECK(r.exit_code == 0);
  const std::string text = e2e::read_file(paged);
  INFO(text);
  CHECK(contains(text, "Fixture module\n=============="));  // NO_COLOR: a plain heading, underlined
  CHECK(contains(text, "Section\n-------"));
  CHECK_FALSE(contains(text, "# "));
  CHECK(contains(text, "    for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];   // a code line that must never be wrapped at all"));
  CHECK(contains(text, "pass_lab"));
  for (const auto& l : lines_of(text)) {
    if (contains(l, "for (int i")) continue;
    CHECK(columns(l) <= 50);
  }
  CHECK_FALSE(contains(r.out, "This reading"));  // the pager had it, not the terminal directly
  CHECK(e2e::journal_value(c.journal(), "SELECT count(*) FROM readings") == "1");

  // --no-pager (and WORKBOOK_PAGER=, or PAGER=cat) prints it straight to the terminal.
  fs::remove(paged);
  CommandResult direct = e2e::run_workbook_on_pty({"show", "module01", "--no-pager"}, env);
  CHECK(direct.exit_code == 0);
  CHECK(contains(direct.out, "This reading"));
  CHECK_FALSE(fs::exists(paged));
  env["WORKBOOK_PAGER"] = "";
  CommandResult off = e2e::run_workbook_on_pty({"show", "module01"}, env);
  CHECK(contains(off.out, "This reading"));
  CHECK_FALSE(fs::exists(paged));
  // A pipe is never paged and never counts as Read.
  CommandResult piped = c.run({"show", "module01"}, {{"PAGER", pager.string()}});
  CHECK(contains(piped.out, "This reading"));
  CHECK_FALSE(fs::exists(paged));
}

TEST_CASE("e2e: a pager that cannot start falls back to printing, and the reading still counts", "[e2e]") {
  FixtureCourse c;
  e2e::write_file(c.content / "modules/module01/README.md", kFixtureReading);
  CommandResult r = e2e::run_workbook_on_pty({"show", "module01"}, c.env({{"PAGER", "no-such-pager-anywhere"}}));
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "This reading has a paragraph"));
  CHECK(e2e::journal_value(c.journal(), "SELECT count(*) FROM readings") == "1");
}

TEST_CASE("e2e: show LAB: a figures table with a header, ranges with 'to', a legend, all within COLUMNS", "[e2e]") {
  FixtureCourse c;
  for (const char* width : {"100", "80", "60"}) {
    CommandResult r = c.run({"show", "module01/pass_lab"}, {{"COLUMNS", width}});
    SHOW(r);
    REQUIRE(r.exit_code == 0);
    for (const auto& l : lines_of(r.out)) {
      INFO(l);
      CHECK(columns(l) <= static_cast<std::size_t>(std::stoi(width)));
    }
    CHECK(contains(r.out, "  figure"));
    CHECK(contains(r.out, "expected here"));
    CHECK(contains(r.out, "8.33 ns to 1.2 ms"));  // not "8.33e-06 - 1.2 ms"
    CHECK_FALSE(contains(r.out, "e-06"));
    CHECK(contains(r.out, "-: no range declared"));  // sum_gflops contains none
    CHECK(contains(r.out, "workbook: the workbook's own figure"));
  }
  CommandResult wide = c.run({"show", "module01/pass_lab"}, {{"COLUMNS", "100"}});
  CHECK(contains(wide.out, "Tesla T4: 1e-05 to 1 ms"));
  CHECK_FALSE(contains(wide.out, "after the run:"));  // a legend line only for what is shown
  // No GPU, no --gpu: the cells say so, and the legend says what to do.
  CommandResult nog = c.run({"show", "module01/pass_lab"}, {{"WORKBOOK_GPU_NAME", "Imaginary GPU 9000"}, {"COLUMNS", "100"}});
  SHOW(nog);
  CHECK(contains(nog.out, "unknown GPU"));
  CHECK(contains(nog.out, "(try --gpu t4)"));
}
