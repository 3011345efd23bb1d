// Tests for the calibration ledger (report/ledger): each lab's first prediction against
// the run that first graded it, by module and kind, with the optimism turned by kind
// (a time predicted short is optimistic, a speed-up predicted large too); the progress
// line; the trend chart; and, from a journal, only first predictions made before a
// measurement, choices by right and wrong.
#include <catch2/catch.hpp>

#include "../support/lines.hpp"

#include <algorithm>
#include <cmath>

#include "content/catalog.hpp"
#include "report/ledger.hpp"
#include "../support/temp_dir.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;

namespace {

LedgerEntry number(const std::string& lab, int module, LedgerKind kind, double p, double m, const std::string& at) {
  LedgerEntry e;
  e.lab = lab;
  e.prediction = "guess";
  e.recorded_at = at;
  e.module = module;
  e.kind = kind;
  e.predicted = p;
  e.measured = m;
  e.log2_ratio = std::log2(p / m);
  return e;
}

}  // namespace

TEST_CASE("ledger: rows per module and kind, optimism by kind, badly missed beyond 2x", "[ledger]") {
  const Ledger l = build_ledger({number("module14/a", 14, LedgerKind::speedup, 3.6, 2, "2026-11-03"),
                                 number("module12/b", 12, LedgerKind::time, 1, 4.5, "2026-11-01"),
                                 number("module14/c", 14, LedgerKind::speedup, 1.8, 1, "2026-11-02")});
  REQUIRE(l.entries.size() == 3);
  CHECK(l.entries[0].lab == "module12/b");  // oldest first
  CHECK(l.entries[0].optimism() == Approx(std::log2(4.5)));  // a time predicted 4.5x too short: optimistic
  CHECK(l.entries[0].badly_missed());
  CHECK_FALSE(l.entries[1].badly_missed());  // 1.8x off
  // module12 time, module14 speed-up, then all: time, speed-up.
  REQUIRE(l.rows.size() == 4);
  CHECK(l.rows[1].module == 14);
  CHECK(l.rows[1].n == 2);
  CHECK(std::exp2(l.rows[1].mean_optimism) == Approx(1.8));
  CHECK(l.rows[2].module == 0);
  CHECK(ledger_summary(l) == "your speed-up predictions run 1.8x optimistic over the last 3 labs");
  CHECK(ledger_summary(l, 1) == "your speed-up predictions run 1.8x optimistic over your last lab");
  CHECK(ledger_summary(build_ledger({})).empty());
  const LedgerRow all_time = l.rows[3].kind == LedgerKind::time ? l.rows[3] : l.rows[2];
  CHECK(all_time.badly_missed == 1);
}

TEST_CASE("ledger: pessimistic and on-target lines, and choices count right and wrong", "[ledger]") {
  Ledger l = build_ledger({number("module04/a", 4, LedgerKind::bandwidth, 1000, 3000, "2026-11-01")});
  CHECK(ledger_summary(l) == "your bandwidth predictions run 3.0x pessimistic over your last lab");
  l = build_ledger({number("module04/a", 4, LedgerKind::time, 10.5, 10, "2026-11-01")});
  CHECK(ledger_summary(l) == "your time predictions are on target (within 1.1x) over your last lab");
  LedgerEntry right;
  right.lab = "module04/a";
  right.prediction = "bound";
  right.recorded_at = "2026-11-02";
  right.module = 4;
  right.kind = LedgerKind::choice;
  right.correct = true;
  LedgerEntry wrong = right;
  wrong.lab = "module04/b";
  wrong.correct = false;
  l = build_ledger({right, wrong});
  REQUIRE(l.rows.size() == 2);
  CHECK(l.rows[0].correct == 1);
  CHECK(l.rows[0].n == 2);
  CHECK(ledger_summary(l).empty());  // no numbers: nothing to say
  CHECK(ledger_text(l).find("1/2") != std::string::npos);
}

TEST_CASE("ledger: the trend chart has a series a kind and the 2x lines", "[ledger][plot]") {
  const Ledger l = build_ledger({number("module14/a", 14, LedgerKind::speedup, 4, 2, "2026-11-03"),
                                 number("module12/b", 12, LedgerKind::time, 1, 4, "2026-11-01")});
  const plot::Chart c = ledger_chart(l);
  REQUIRE(c.series.size() == 5);
  CHECK(c.series[0].name == "time");
  CHECK(c.series[0].y == std::vector<double>{-2});
  CHECK(c.series[1].name == "speed-up");
  CHECK(c.series[1].x == std::vector<double>{2});
  CHECK(c.series[1].labels == std::vector<std::string>{"a"});
  CHECK(c.series[3].name == "2x high");
  const std::string svg = plot::render_svg(c);
  // The x axis counts predictions: whole ticks only (it used to tick 0, 0.5, 1, 1.5, 2).
  int xticks = 0;
  for (const auto& line : wbtest::lines_of(svg)) {
    if (line.find("class=\"xtick\"") == std::string::npos) continue;
    ++xticks;
    INFO(line);
    CHECK(line.find(".5</text>") == std::string::npos);
  }
  CHECK(xticks >= 2);
  CHECK(svg.find("data-series=\"speed-up\"") != std::string::npos);
}

TEST_CASE("ledger: from a journal, first predictions before a measurement, numbers and choices", "[ledger][journal]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  const Catalog catalog(WORKBOOK_SOURCE_DIR);
  const std::string lab = "module14/tiled_gemm";
  const long long r1 = j.begin_run({lab, "starter", "src", "{}", 7, "NVIDIA H200", "sm_90"});
  const std::string speedup = j.record_prediction(r1, lab, {"speedup", "4", 4.0});
  const std::string reason = j.record_prediction(r1, lab, {"reason", "1", std::nullopt});
  Grade g;
  MetricGrade& m = g.metrics.emplace_back();
  m.name = "speedup";
  m.unit = "x";
  m.derived = true;
  m.value = 1.52;
  PredictionGrade& p = g.predictions.emplace_back();
  p.id = "speedup";
  p.predicted = 4;
  p.measured = 1.52;
  p.factor = 4 / 1.52;
  PredictionGrade& c = g.predictions.emplace_back();
  c.id = "reason";
  c.kind = PredictionKind::choice;
  c.correct = false;
  j.record_grade(r1, g, {{"speedup", speedup}, {"reason", reason}});
  j.finish_run(r1, Verdict::pass, 0, "");
  // A later answer after the measurement is never in the ledger.
  const long long r2 = j.begin_run({lab, "starter", "src", "{}", 8, "NVIDIA H200", "sm_90"});
  j.record_prediction(r2, lab, {"speedup", "1.5", 1.5}, true);
  const Ledger l = gather_ledger(j, catalog);
  REQUIRE(l.entries.size() == 2);
  CHECK(l.entries[0].kind == LedgerKind::speedup);
  CHECK(l.entries[0].module == 14);
  CHECK(*l.entries[0].log2_ratio == Approx(std::log2(4 / 1.52)));
  CHECK(l.entries[0].badly_missed());
  CHECK(l.entries[1].kind == LedgerKind::choice);
  CHECK_FALSE(*l.entries[1].correct);
  CHECK(gather_ledger(j, catalog, 12).entries.empty());
  CHECK(ledger_json(l)["entries"][0]["badly_missed"] == true);
}

TEST_CASE("ledger: the text explains its words and fits 60, 80 and 100 columns", "[ledger][width]") {
  const Ledger l = build_ledger({number("module14/tiled_gemm_with_a_long_name", 14, LedgerKind::speedup, 4, 2, "2026-11-03"),
                                 number("module12/b", 12, LedgerKind::time, 1, 4, "2026-11-01")});
  for (std::size_t width : {60u, 80u, 100u}) {
    const std::string text = ledger_text(l, width);
    for (const auto& line : wbtest::lines_of(text)) {
      INFO(width << ": " << line);
      CHECK(wbtest::columns(line) <= width);
    }
    // The words README used to be the only place to explain, now on screen.
    std::string flat;  // the lines joined, so a phrase across a line break is found
    for (const auto& line : wbtest::lines_of(text)) flat += " " + line.substr(std::min(line.find_first_not_of(' '), line.size()));
    for (const char* word : {"other: any other unit", "optimism: the mean log2(p/m)", "log2 +0.00", "typical p/m: the typical",
                             "In short: your"})
      CHECK(flat.find(word) != std::string::npos);
  }
}

TEST_CASE("ledger: a row's first cell names its module, the project's experiments as project", "[ledger][report]") {
  LedgerEntry e = number("experiment cmp", kLedgerProject, LedgerKind::speedup, 4, 2, "2026-11-03");
  const Ledger l = build_ledger({e, number("module12/b", 12, LedgerKind::time, 1, 4, "2026-11-01")});
  std::vector<std::string> firsts;
  for (const auto& r : l.rows) firsts.push_back(ledger_row_cells(r)[0]);
  CHECK(std::find(firsts.begin(), firsts.end(), "project") != firsts.end());  // the report said "module-1"
  CHECK(std::find(firsts.begin(), firsts.end(), "module12") != firsts.end());
  CHECK(std::find(firsts.begin(), firsts.end(), "all") != firsts.end());
}
