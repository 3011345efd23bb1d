// End-to-end tests of `run --sweep`, `run --compare` and `report` through the real
// binary against the fixture course (pass_lab: a parameter N, a declared sweep of N, and
// FLOP and byte rates for the roofline). No terminal: stdin is /dev/null throughout.
#include <cmath>
#include <regex>

#include "e2e_support.hpp"

using e2e::CommandResult;
using e2e::FixtureCourse;
using e2e::journal_value;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The data-x values of an SVG's points, in order.
std::vector<double> svg_point_xs(const std::string& svg) {
  const std::regex re("<circle class=\"point\" data-series=\"[^\"]*\" data-x=\"([^\"]+)\"");
  std::vector<double> xs;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) xs.push_back(std::stod((*it)[1]));
  return xs;
}

}  // namespace

TEST_CASE("e2e: --sweep runs once per value on one build and one seed, and writes an SVG", "[e2e][sweep]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--sweep", "N=10,100,1000", "--no-predict", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["param"] == "N");
  CHECK(j["verdict"] == "pass");
  CHECK(j["plotted"] == json::array({"sum_ms"}));  // the declared sweep's metric
  REQUIRE(j["runs"].size() == 3);
  const auto seed = j["seed"];
  for (int i = 0; i < 3; ++i) {
    const json& run = j["runs"][static_cast<std::size_t>(i)];
    CHECK(run["seed"] == seed);
    CHECK(run["verdict"] == "pass");
    CHECK(run["sweep_value"] == std::pow(10.0, i + 1));
    CHECK(run["params"]["N"] == std::pow(10.0, i + 1));
    CHECK(e2e::find_by(run["metrics"], "name", "count")["value"] == std::pow(10.0, i + 1));
    if (i > 0) CHECK(run["build"]["cached"] == true);  // one build for the sweep
  }
  CHECK(journal_value(c.journal(), "SELECT count(*) FROM runs WHERE lab='module01/pass_lab' AND verdict='pass'") == "3");
  REQUIRE(j["svg"].is_string());
  const fs::path svg = j["svg"].get<std::string>();
  CHECK(svg.parent_path() == c.workspace / "plots/module01");
  REQUIRE(fs::is_regular_file(svg));
  const std::string text = e2e::read_file(svg);
  CHECK(text.find(">N (terms), log scale</text>") != std::string::npos);  // 10..1000: two decades
  // The y axis is in the time unit that suits the figures (ns for this fast fixture loop).
  CHECK((text.find("sum_ms (ns)") != std::string::npos || text.find("sum_ms (µs)") != std::string::npos ||
         text.find("sum_ms (ms)") != std::string::npos));
  CHECK(svg_point_xs(text) == std::vector<double>{10, 100, 1000});
}

TEST_CASE("e2e: a declared sweep in text: table, terminal chart, plot path, predictions once", "[e2e][sweep]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--sweep", "N", "--predict", "count_guess=10"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("sweep of N over 4 values") != std::string::npos);
  CHECK(r.out.find("verdict") != std::string::npos);
  CHECK(r.out.find("sum_ms") != std::string::npos);
  CHECK(r.out.find("x: N (terms) (log)") != std::string::npos);
  CHECK(r.out.find("Plot: ") != std::string::npos);
  CHECK(r.out.find("sweep 1/4") == std::string::npos);  // no progress lines in a pipe
  CHECK(r.out.find('\x1b') == std::string::npos);
  // The prediction is recorded once, with the first run (N = 10), and graded there.
  CHECK(journal_value(c.journal(), "SELECT count(*) FROM predictions") == "1");
  CHECK(journal_value(c.journal(), "SELECT json_extract(r.params, '$.N') = 10 FROM predictions p JOIN runs r ON r.id = p.run_id") == "1");
  CHECK(journal_value(c.journal(), "SELECT count(*) FROM runs") == "4");
}

TEST_CASE("e2e: a sweep grades the default value, the others are shown, not graded", "[e2e][sweep]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--sweep", "N=10,1000", "--no-predict", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["graded_value"] == 1000.0);  // pass_lab's default N
  REQUIRE(j["runs"].size() == 2);
  const json& ten = j["runs"][0];
  CHECK(ten["ranges_graded"] == false);
  CHECK(ten["grading_note"] == "not graded: the ranges are for N=1000");
  const json count = e2e::find_by(ten["metrics"], "name", "count");
  CHECK(count["status"] == "not graded");
  CHECK(count["value"] == 10.0);
  CHECK(count["expected_min"].is_null());
  const json& thousand = j["runs"][1];
  CHECK(thousand["ranges_graded"] == true);
  CHECK(thousand["grading_note"] == "");
  CHECK(e2e::find_by(thousand["metrics"], "name", "count")["status"] == "in range");
  // The journal keeps the same: the report and history show "not graded" for N=10.
  CHECK(journal_value(c.journal(), "SELECT m.status FROM metrics m JOIN runs r ON r.id = m.run_id "
                                   "WHERE m.name = 'count' AND json_extract(r.params, '$.N') = 10") == "not graded");

  CommandResult t = c.run({"run", "module01/pass_lab", "--sweep", "N=10,1000", "--no-predict"});
  SHOW(t);
  CHECK(t.exit_code == 0);
  CHECK(t.out.find("figures not graded") != std::string::npos);
  CHECK(t.out.find("Only N=1000 is graded against the expected ranges") != std::string::npos);
}

TEST_CASE("e2e: --sweep refuses what it cannot run, before anything runs", "[e2e][sweep]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--sweep", "M=1,2", "--no-predict"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no parameter 'M'") != std::string::npos);
  r = c.run({"run", "module01/pass_lab", "--sweep", "N=5", "--no-predict"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("at least two values") != std::string::npos);
  r = c.run({"run", "module01/pass_lab", "--sweep", "N=5,1.5", "--no-predict"});
  CHECK(r.exit_code == 2);
  r = c.run({"run", "module01/fail_lab", "--sweep", "N", "--no-predict"});
  SHOW(r);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("declares no sweep of N") != std::string::npos);
  CHECK(journal_value(c.journal(), "SELECT count(*) FROM runs") == "0");
}

TEST_CASE("e2e: a sweep of a failing lab exits with the first failure's code", "[e2e][sweep]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/fail_lab", "--sweep", "N=10,20", "--no-predict", "--json"}, &r);
  CHECK(r.exit_code == 1);
  CHECK(j["verdict"] == "fail");
  CHECK(j["runs"].size() == 2);
}

TEST_CASE("e2e: --compare runs your copy and the reference on one seed, with ratios", "[e2e][compare]") {
  FixtureCourse c;
  CommandResult r;
  json j = c.run_json({"run", "module01/pass_lab", "--compare", "--no-predict", "--seed", "42", "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["seed"] == 42);
  CHECK(j["yours"]["variant"] == "starter");
  CHECK(j["reference"]["variant"] == "solution");
  CHECK(j["yours"]["seed"] == 42);
  CHECK(j["reference"]["seed"] == 42);
  const json count = e2e::find_by(j["rows"], "name", "count");
  CHECK(count["yours"] == 1000);
  CHECK(count["reference"] == 1000);
  CHECK(count["ratio"] == 1.0);
  CHECK(journal_value(c.journal(), "SELECT group_concat(variant) FROM (SELECT variant FROM runs ORDER BY id)") == "starter,solution");

  CommandResult t = c.run({"run", "module01/pass_lab", "--compare", "--no-predict"});
  SHOW(t);
  CHECK(t.exit_code == 0);
  CHECK(t.out.find("reference") != std::string::npos);
  CHECK(t.out.find("ratio") != std::string::npos);
  CHECK(c.run({"run", "module01/pass_lab", "--compare", "--solution"}).exit_code == 2);
}

TEST_CASE("e2e: report writes Markdown and a roofline SVG from the journal", "[e2e][report]") {
  FixtureCourse c;
  CommandResult r = c.run({"run", "module01/pass_lab", "--predict", "count_guess=900", "--predict", "kind=1",
                           "--explain", "The loop is one add per term; the time is | linear in N."});
  SHOW(r);
  REQUIRE(r.exit_code == 0);
  REQUIRE(c.run({"run", "module01/fail_lab", "--no-predict"}).exit_code == 1);
  const fs::path out = c.tmp.path / "my-report";
  json j = c.run_json({"report", "module01", "--out", out.string(), "--json"}, &r);
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(j["scope"] == "module01");
  REQUIRE(j["labs"].size() == 2);
  const json pass = e2e::find_by(j["labs"], "lab", "module01/pass_lab");
  CHECK(pass["run"]["verdict"] == "pass");
  CHECK(pass["explanations"][0]["text"].get<std::string>().find("one add per term") != std::string::npos);
  CHECK(e2e::find_by(pass["predictions"], "id", "count_guess")["measured"] == 1000);
  REQUIRE(j["machines"].size() == 1);
  CHECK(j["machines"][0]["gpu"] == "Tesla T4");
  CHECK(j["machines"][0]["calibration"].is_null());
  REQUIRE(j["rooflines"].size() == 1);
  const json roof = j["rooflines"][0];
  CHECK(roof["source"].get<std::string>().find("spec sheet t4") != std::string::npos);
  REQUIRE(roof["kernels"].size() == 1);
  CHECK(roof["kernels"][0]["kernel"] == "module01/pass_lab: sum");
  CHECK(roof["kernels"][0]["intensity"].get<double>() == Approx(0.125));  // 1 FLOP per 8 bytes
  CHECK(roof["kernels"][0]["bound"] == "memory");

  const std::string md = e2e::read_file(out / "report.md");
  CHECK(md.find("# Workbook report: module01") != std::string::npos);
  CHECK(md.find("## module01/pass_lab · A lab that passes") != std::string::npos);
  CHECK(md.find("| count | 1000 count | 1000 count | in range |") != std::string::npos);
  CHECK(md.find("| count_guess | 900 | ") != std::string::npos);
  CHECK(md.find(", before any measurement | 1000 |") != std::string::npos);
  CHECK(md.find("> The loop is one add per term; the time is | linear in N.") != std::string::npos);
  CHECK(md.find("Not recorded in the journal:") != std::string::npos);
  CHECK(md.find("CUDA version") != std::string::npos);
  CHECK(md.find("![Roofline of Tesla T4](roofline-tesla-t4.svg)") != std::string::npos);
  CHECK(md.find("## module01/fail_lab") != std::string::npos);
  const std::string svg = e2e::read_file(out / "roofline-tesla-t4.svg");
  CHECK(svg.find("arithmetic intensity (FLOP/byte), log scale") != std::string::npos);
  CHECK(svg_point_xs(svg) == std::vector<double>{0.125});
}

TEST_CASE("e2e: report in text, on an empty journal, with a calibration, and a bad scope", "[e2e][report]") {
  FixtureCourse c;
  CommandResult r = c.run({"report"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  const fs::path md = c.workspace / "reports/all/report.md";
  REQUIRE(fs::is_regular_file(md));
  CHECK(e2e::read_file(md).find("No runs are recorded yet.") != std::string::npos);

  REQUIRE(c.run({"run", "module01/pass_lab", "--no-predict"}).exit_code == 0);
  e2e::journal_rows(c.journal(),
                    "INSERT INTO calibrations(gpu_uuid, gpu_name, measured_at, driver, sm_clock_mhz, arch, seed, detail) "
                    "VALUES('GPU-1', 'Tesla T4', '2026-11-30T10:00:00Z', '550.54', 1590, 'sm_75', 1, '')");
  e2e::journal_rows(c.journal(), "INSERT INTO calibration_figures(calibration_id, name, value, unit) "
                    "VALUES(1, 'd2d_gbps', 250, 'GB/s'), (1, 'fp32_tflops', 4, 'TFLOP/s')");
  r = c.run({"report", "module01/pass_lab"});
  SHOW(r);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Report: ") != std::string::npos);
  CHECK(r.out.find("memory-bound at") != std::string::npos);  // the terminal sketch
  CHECK(r.out.find('\x1b') == std::string::npos);
  const std::string text = e2e::read_file(c.workspace / "reports/module01-pass_lab/report.md");
  CHECK(text.find("driver 550.54, SM clock 1590 MHz") != std::string::npos);
  CHECK(text.find("calibrated 2026-11-30") != std::string::npos);
  CHECK(text.find("250 GB/s, 4000 GFLOP/s") != std::string::npos);

  r = c.run({"report", "module01/nope"});
  CHECK(r.exit_code == 2);
  r = c.run({"report", "module99"});
  CHECK(r.exit_code == 2);
}
