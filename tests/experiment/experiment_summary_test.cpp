// Tests for experiment/experiment_store and experiment_summary: a run's rows round-trip
// through the journal (predictions immutable, results with their readings and kernels),
// travel with journal export/import, and summarise into medians, spreads, ratios, curves
// and predictions graded against their `measured:` expression; the report's section
// and SVG curves.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <fstream>

#include "present/experiment_report.hpp"
#include "present/experiment_show.hpp"
#include "experiment/experiment_store.hpp"
#include "experiment/experiment_summary.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "journal/sqlite_statement.hpp"
#include "ui/wrap.hpp"
#include "util/error.hpp"
#include "util/lines.hpp"
#include "util/utf8.hpp"

#include "../support/export_document.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;

namespace {

const char* kExperimentYaml = R"(format_version: 1
repeats: 3
variants:
  - {name: fp32, command: ./a}
  - {name: bf16, command: ./b}
metrics:
  - {name: loss, pattern: 'loss ([0-9.]+)', summary: last}
  - {name: ms, pattern: '([0-9.]+) ms', unit: ms}
  - {name: val, pattern: 'val ([0-9.]+)', per: once}
predictions:
  - {name: speedup, unit: x, question: "How much faster?", measured: fp32.ms / bf16.ms}
  - {name: why, kind: yesno, question: "Same loss?"}
)";

RepeatResult repeat(const std::string& v, int k, double ms, RepeatOutcome o = RepeatOutcome::ok) {
  RepeatResult r;
  r.variant = v;
  r.repeat = k;
  r.outcome = o;
  r.exit_code = 0;
  r.readings = {{"loss", {4.0, 3.5, 3.0 + 0.01 * k}}, {"ms", {ms, ms + 2, ms + 1}}, {"val", {3.2}}};
  if (o != RepeatOutcome::ok) r.detail = v + " exited with code 3";
  r.kernels = nlohmann::json::array({{{"name", v + "_gemm"}, {"calls", 10}, {"total_us", ms * 10}}});
  return r;
}

long long recorded_run(Journal& j) {
  const Experiment e = parse_experiment(kExperimentYaml, "cmp", "cmp.yaml");
  const long long id = begin_experiment_run(j, e, true);
  record_experiment_prediction(j, id, "cmp", {"speedup", "2", 2.0}, false);
  record_experiment_machine(j, id, "Tesla T4", nlohmann::json{{"driver", "580.1"}, {"recorded", true}});
  for (int k = 1; k <= 3; ++k) {
    record_repeat(j, id, repeat("fp32", k, 100 + k));
    record_repeat(j, id, repeat("bf16", k, 50 + k, k == 3 ? RepeatOutcome::failed : RepeatOutcome::ok));
  }
  finish_experiment_run(j, id, ExperimentStatus::failed, "bf16 exited with code 3");
  record_experiment_explanation(j, id, "bf16 halves the bytes each step moves");
  return id;
}

}  // namespace

TEST_CASE("experiment store: a run round-trips and its predictions cannot change", "[experiment][journal]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  CHECK_FALSE(experiment_measured(j, "cmp"));
  const long long id = recorded_run(j);
  CHECK(experiment_measured(j, "cmp"));
  const auto row = load_experiment_run(j, id);
  REQUIRE(row);
  CHECK(row->status == "failed");
  CHECK(row->traced);
  CHECK(row->gpu == "Tesla T4");
  REQUIRE(row->predictions.size() == 1);
  CHECK(row->predictions[0].answer.number == 2.0);
  REQUIRE(row->results.size() == 6);
  CHECK(row->results[5].outcome == RepeatOutcome::failed);
  CHECK(row->results[0].readings.at("ms") == std::vector<double>{101, 103, 102});
  REQUIRE(row->explanations.size() == 1);
  CHECK(row->explanations[0].text == "bf16 halves the bytes each step moves");
  CHECK(latest_experiment_run(j, "cmp")->id == id);
  CHECK(experiment_runs(j).size() == 1);
  sqlite3* db = j.store_connection();
  CHECK_THROWS(sql::exec(db, "UPDATE experiment_predictions SET answer='3'"));
  CHECK_THROWS(sql::exec(db, "DELETE FROM experiment_predictions"));
}

TEST_CASE("experiment store: runs travel with journal export and import", "[experiment][journal]") {
  wbtest::TempDir dir;
  Journal a(dir.path / "a.db");
  recorded_run(a);
  const auto file = dir.path / "a.json";
  std::ofstream(file) << wbtest::export_document(a, "a").dump();
  Journal b(dir.path / "b.db");
  import_journal_files(b, {file});
  import_journal_files(b, {file});  // idempotent
  const auto runs = experiment_runs(b, "cmp");
  REQUIRE(runs.size() == 1);
  const auto row = load_experiment_run(b, runs[0].id);
  CHECK(row->results.size() == 6);
  CHECK(row->predictions.size() == 1);
  CHECK(row->explanations.size() == 1);
}

TEST_CASE("experiment summary: medians, spreads, ratios, curves, predictions", "[experiment]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const ExperimentSummary s = summarize_experiment(*load_experiment_run(j, recorded_run(j)));
  const VariantSummary* fp32 = s.variant("fp32");
  const VariantSummary* bf16 = s.variant("bf16");
  REQUIRE(fp32);
  REQUIRE(bf16);
  CHECK(fp32->repeats_ok == 3);
  CHECK(bf16->repeats == 3);
  CHECK(bf16->repeats_ok == 2);
  REQUIRE(bf16->problems.size() == 1);
  CHECK(bf16->problems[0] == "repeat 3: bf16 exited with code 3");
  CHECK(fp32->figures.at("ms").median == Approx(103));  // each repeat's median: 102 103 104
  CHECK(fp32->figures.at("ms").samples == 3);
  CHECK(bf16->figures.at("ms").median == Approx(52.5));
  CHECK(fp32->figures.at("loss").median == Approx(3.02));
  CHECK(s.ratio("bf16", "ms") == Approx(52.5 / 103));
  CHECK_FALSE(s.ratio("bf16", "nope"));
  CHECK(fp32->curves.at("ms") == std::vector<double>{102, 104, 103});
  CHECK_FALSE(fp32->curves.count("val"));  // a once metric has no curve
  CHECK(fp32->kernels.at("fp32_gemm").calls == 10);
  REQUIRE(s.predictions.size() == 2);
  CHECK(s.predictions[0].measured == Approx(103 / 52.5));
  CHECK(s.predictions[0].band == "within 1.25x");
  CHECK_FALSE(s.predictions[1].answer);
  const nlohmann::json j2 = summary_json(s);
  CHECK(j2["variants"][1]["figures"]["ms"]["ratio_to_baseline"].get<double>() == Approx(52.5 / 103));
  CHECK(j2["explanations"][0]["text"] == "bf16 halves the bytes each step moves");
  const auto rows = kernel_rows(s);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].name == "fp32_gemm");
  CHECK_FALSE(rows[0].per_variant[1]);
}

TEST_CASE("experiment report: a section with a curve per per-step metric", "[experiment][report]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  CHECK(experiments_section(j).markdown.empty());
  recorded_run(j);
  const ExperimentsSection sec = experiments_section(j);
  CHECK(sec.markdown.find("## Experiments") == 0);
  CHECK(sec.markdown.find("| ms | 103 ms") != std::string::npos);
  CHECK(sec.markdown.find("0.51x") != std::string::npos);
  CHECK(sec.markdown.find("predicted 2 (made ") != std::string::npos);
  CHECK(sec.markdown.find(" with this run, before any measurement), measured 1.96 x — within 1.25x") != std::string::npos);
  CHECK(sec.markdown.find("Explanation given with experiment run #1:\n\n> bf16 halves") != std::string::npos);
  REQUIRE(sec.svgs.size() == 2);  // loss and ms; val is once
  CHECK(sec.svgs[0].name == "experiment-cmp-loss.svg");
  CHECK(sec.markdown.find("![experiment-cmp-loss.svg](experiment-cmp-loss.svg)") != std::string::npos);
  const std::string& svg = sec.svgs[1].svg;
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("data-series=\"fp32\"") != std::string::npos);
  CHECK(svg.find("data-series=\"bf16\"") != std::string::npos);
  CHECK(svg.find("data-x=\"3\"") != std::string::npos);
}

TEST_CASE("experiment show fits its width: a traced run of a Slurm job at 80 and 60 columns", "[experiment]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  auto row = load_experiment_run(j, recorded_run(j));
  REQUIRE(row);
  row->slurm_job = "1234567";
  const ExperimentSummary s = summarize_experiment(*row);
  for (const std::size_t width : {80, 60}) {
    const std::vector<std::string> lines = split_lines(experiment_text(s, Style(false), width));
    std::string all;
    for (const auto& line : lines) {
      INFO(line);
      CHECK(text_columns(line) <= width);
      all += line + "\n";
    }
    INFO(all);
    CHECK(all.find("Slurm job 1234567") != std::string::npos);  // the run line folded whole words
  }
}

TEST_CASE("experiment show is the report's Markdown laid out: what the learner typed shows as typed", "[experiment]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const long long id = recorded_run(j);
  record_experiment_explanation(j, id, "a<b & [c] | d");
  auto row = load_experiment_run(j, id);
  REQUIRE(row);
  ExperimentSummary s = summarize_experiment(*row);
  s.variants[1].kernels["gemm<16>"] = KernelTime{4, 9.0};
  s.variants[1].problems = {"metric 'ms': matched nothing; its first 2 of 9 lines:\n    | step 1 <ok>\n    | step 2\n"
                            "metric 'loss': matched nothing there either"};
  const std::string md = experiment_markdown(s, {});
  CHECK(md.find("a&lt;b &amp; \\[c\\] \\| d") != std::string::npos);  // escaped for a renderer
  const std::string text = experiment_text(s, Style(false), 80);
  INFO(text);
  CHECK(text.find("a<b & [c] | d") != std::string::npos);  // and shown as typed
  CHECK(text.find("gemm<16>") != std::string::npos);
  CHECK(text.find("&lt;") == std::string::npos);
  CHECK(text.find("- bf16: metric 'ms': matched nothing") != std::string::npos);
  CHECK(text.find("        | step 1 <ok>\n        | step 2\n") != std::string::npos);  // the output's lines, whole
  CHECK(text.find("- bf16: metric 'loss': matched nothing there either") != std::string::npos);  // a message, not output
  CHECK(text.find("fp32 (baseline)") != std::string::npos);
  CHECK(text.find("traced") != std::string::npos);
  CHECK(text.find("```") == std::string::npos);
}

TEST_CASE("experiment explanations are cleaned as lab ones: no escape, no raw HTML, no invalid UTF-8",
          "[experiment][report]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const long long id = recorded_run(j);
  const std::string dirty = "<img src=x onerror=alert(1)> \x1b]0;pwned\x07\x1b[2J \xff\xfe bytes \xc2\x9b";
  record_experiment_explanation(j, id, dirty);
  {
    sql::Statement stored(j.store_connection(), "SELECT text FROM experiment_explanations ORDER BY id DESC LIMIT 1");
    REQUIRE(stored.next());
    CHECK(stored.text(0).find('\x1b') == std::string::npos);
    CHECK(is_valid_utf8(stored.text(0)));
  }
  // One written raw (an older runner, or an import), and the latest: cleaned when read.
  sql::Statement(j.store_connection(),
                 "INSERT INTO experiment_explanations(experiment_run_id, text, recorded_at) VALUES(?,?,?)")
      .bind(id).bind(dirty).bind("9999-12-31T00:00:00.000Z").run();
  const auto row = load_experiment_run(j, id);
  REQUIRE(row);
  REQUIRE_FALSE(row->explanations.empty());
  const std::string& shown = row->explanations.back().text;  // the raw one, inserted last
  CHECK(shown.find('\x1b') == std::string::npos);  // experiment show prints this
  CHECK(shown.find('\x07') == std::string::npos);
  CHECK(shown.find("\xc2\x9b") == std::string::npos);
  CHECK(is_valid_utf8(shown));
  const std::string md = experiments_section(j).markdown;
  CHECK(md.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
  CHECK(md.find("<img") == std::string::npos);
  CHECK(md.find('\x1b') == std::string::npos);
  CHECK(is_valid_utf8(md));
}
