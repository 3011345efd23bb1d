// End-to-end: an explanation given with a run gets the examiner's feedback from the lab's
// `examiner:` block and the run's own figures, printed after the run, in its JSON, kept
// in the journal and shown by `history` and the report; a first prediction off by more
// than 2x is in `history --ledger` and the report's ledger (with its SVG), and is
// recorded once as a nudge of the module's reviews.
#include <cmath>

#include "e2e_support.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::journal_value;
using nlohmann::json;
namespace fs = std::filesystem;

TEST_CASE("e2e: an explanation gets the examiner's feedback, kept and shown everywhere", "[e2e][explain]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--predict", "count_guess=100", "--predict", "kind=1", "--json",
                       "--explain", "One addition after another: the loop sums 1000 numbers."},
                      &r);
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  REQUIRE(j["explanation_feedback"].size() == 2);
  CHECK(j["explanation_feedback"][0].get<std::string>().rfind("✓ Names the limiting resource, latency", 0) == 0);
  CHECK(j["explanation_feedback"][1].get<std::string>().rfind("✓ Cites 1000 (count, measured 1000)", 0) == 0);
  const fs::path db = c.journal();
  CHECK(journal_value(db, "SELECT feedback FROM explanations").find("✓ Cites 1000") != std::string::npos);
  // count_guess 100 against 1000: 10x off, so module 01's reviews were nudged, once.
  CHECK(journal_value(db, "SELECT COUNT(*) FROM learn_nudges") == "1");
  CHECK(journal_value(db, "SELECT lab || ' ' || prediction FROM learn_nudges") == "module01/pass_lab count_guess");

  // A poor explanation on the terminal report: the examiner's lines after the run.
  r = c.run({"run", "module01/pass_lab", "--no-predict", "--explain", "It is memory-bound."});
  SHOW(r);
  CHECK(r.out.find("What an examiner would say") != std::string::npos);
  CHECK(r.out.find("✗ You say memory; latency is what limits it") != std::string::npos);
  CHECK(r.out.find("✗ Cite a measured figure with its unit: this run measured sum_ms = ") != std::string::npos);
  CHECK(journal_value(db, "SELECT COUNT(*) FROM learn_nudges") == "1");

  json h = c.run_json({"history", "module01/pass_lab", "--json"}, &r);
  SHOW(r);
  REQUIRE(h["runs"].size() == 2);
  CHECK(h["runs"][0]["explanation"] == "It is memory-bound.");
  CHECK(h["runs"][0]["explanation_feedback"][0].get<std::string>().rfind("✗ You say memory", 0) == 0);
  r = c.run({"history", "module01/pass_lab"});
  CHECK(r.out.find("explained: It is memory-bound.") != std::string::npos);
  CHECK(r.out.find("        ✗ You say memory") != std::string::npos);

  json l = c.run_json({"history", "--ledger", "--json"}, &r);
  SHOW(r);
  REQUIRE(l["entries"].size() == 2);  // count_guess (a number) and kind (a choice)
  const json guess = e2e::find_by(l["entries"], "prediction", "count_guess");
  CHECK(guess["badly_missed"] == true);
  CHECK(guess["log2_ratio"].get<double>() == Approx(std::log2(0.1)));
  CHECK(e2e::find_by(l["entries"], "prediction", "kind")["correct"] == true);
  r = c.run({"history", "--ledger"});
  CHECK(r.out.find("Calibration ledger") != std::string::npos);
  CHECK(r.out.find("badly missed") != std::string::npos);

  const fs::path out = c.tmp.path / "report";
  REQUIRE(c.run({"report", "module01", "--out", out.string()}).exit_code == 0);
  const std::string md = e2e::read_file(out / "report.md");
  CHECK(md.find("What an examiner would say (checked against run #") != std::string::npos);  // the run shown: its own figures
  CHECK(md.find("- ✗ You say memory; latency is what limits it") != std::string::npos);  // the report shows the latest run, explained poorly
  CHECK(md.find("## Calibration ledger") != std::string::npos);
  CHECK(md.find("![Calibration ledger](ledger.svg)") != std::string::npos);
  const std::string svg = e2e::read_file(out / "ledger.svg");
  CHECK(svg.find("log2(predicted / measured)") != std::string::npos);
  CHECK(svg.find("data-series=\"other\"") != std::string::npos);
}
