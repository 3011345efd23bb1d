// Property-style tests of journal export and import (journal/journal_export,
// journal/journal_import, learn/journal_merge): for several fixed seeds, two journals A
// and B are filled with random runs, predictions, grades, calibrations, reviews, follow
// steps and drills (the same items reviewed on both machines), then
//   - A merged with B and B merged with A hold the same rows (same uids, same contents)
//     and the same FSRS cards, and every row of each side;
//   - importing a file twice is importing it once;
//   - a corrupt file (many kinds) or a newer-schema file is refused and changes nothing.
#include <catch2/catch.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device/calibration.hpp"
#include "journal/journal.hpp"
#include "journal/journal_export.hpp"
#include "journal/journal_import.hpp"
#include "journal/schema.hpp"
#include "learn/journal_merge.hpp"
#include "learn/review_store.hpp"
#include "util/error.hpp"

#include "../support/export_document.hpp"
#include "../support/files.hpp"
#include "../support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace workbook;
using nlohmann::json;
using wbtest::TempDir;
using wbtest::write_json;

namespace {

using Rng = std::mt19937_64;

int pick(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

Grade random_grade(Rng& rng) {
  Grade g;
  g.checks = {{"sum_ok", true, pick(rng, 0, 1) == 1, true, 0.5 * pick(rng, 0, 9), std::nullopt, "d"}};
  MetricGrade m;
  m.name = "bandwidth";
  m.unit = "GB/s";
  m.value = 100.0 + pick(rng, 0, 2000) / 7.0;
  m.status = RangeStatus::in_range;
  if (pick(rng, 0, 1)) m.stats = ReportedMetric{"bandwidth", "GB/s", *m.value, *m.value - 1, *m.value + 1, 0.25, 5};
  g.metrics = {m};
  PredictionGrade p;
  p.id = "guess";
  p.measured = *m.value;
  p.factor = 1.0 + pick(rng, 0, 100) / 100.0;
  p.band = "within 2x";
  p.score = pick(rng, 0, 3);
  p.max_score = 3;
  g.predictions = {p};
  return g;
}

// Runs with predictions, grades, finishes and explanations; every kind at least once.
void add_runs(Journal& j, Rng& rng) {
  const char* labs[] = {"module01/pass_lab", "module01/fail_lab", "module14/tiled_gemm"};
  const int n = pick(rng, 2, 5);
  for (int i = 0; i < n; ++i) {
    const std::string lab = labs[pick(rng, 0, 2)];
    long long run = j.begin_run({lab, i % 2 ? "solution" : "starter", "/ws/" + lab + ".cu",
                                 "{\"N\":" + std::to_string(pick(rng, 1, 1 << 20)) + "}", rng(), "Tesla T4", "sm_75"});
    for (int p = 0, np = pick(rng, i == 0 ? 1 : 0, 3); p < np; ++p) {
      std::optional<double> number;
      if (pick(rng, 0, 1)) number = pick(rng, 1, 5000) / 3.0;
      j.record_prediction(run, lab, {"guess" + std::to_string(p), "answer " + std::to_string(rng() % 1000), number});
    }
    if (i == 0 || pick(rng, 0, 2) > 0) {
      j.record_build(run, "key" + std::to_string(rng() % 100), pick(rng, 0, 1) == 1, true);
      j.record_grade(run, random_grade(rng));
      j.finish_run(run, pick(rng, 0, 1) ? Verdict::pass : Verdict::fail, pick(rng, 0, 1), "detail");
    }
    if (i == 0 || pick(rng, 0, 3) == 0) j.record_explanation(run, "because " + std::to_string(rng() % 97));
  }
  Calibration c;
  c.gpu_uuid = "GPU-" + std::to_string(rng() % 1000);
  c.gpu_name = "Tesla T4";
  c.driver = "550";
  c.arch = "sm_75";
  c.seed = rng();
  c.figures = {{"d2d_gbps", {200.0 + pick(rng, 0, 90), "GB/s"}}, {"launch_us", {2.0, "us"}}};
  store_calibration(j, c);
}

// Reviews of a small shared pool of items at increasing times (machine A on even seconds,
// B on odd ones: one learner is never on two machines in the same second), follow steps
// and drills.
void add_learning(Journal& j, Rng& rng, int parity) {
  learn::ReviewStore store(j);
  const std::pair<int, const char*> items[] = {{1, "warp"}, {1, "bank"}, {4, "occupancy"}};
  long long t = 1'790'000'000 + parity;
  const int n = pick(rng, 3, 12);
  for (int i = 0; i < n; ++i) {
    t += 2 * pick(rng, 1, 5 * 86400);
    learn::ReviewInput in;
    in.module = items[pick(rng, 0, 2)].first;
    in.item = items[pick(rng, 0, 2)].second;
    in.rating = static_cast<fsrs::Rating>(pick(rng, 1, 4));
    in.source = "review";
    in.duration_s = pick(rng, 1, 60);
    in.answer = "a" + std::to_string(i);
    store.record(in, fsrs::Scheduler(), t);
  }
  const int steps = pick(rng, 0, 3);
  for (int s = -1; s < steps; ++s) store.record_follow_step({2, "tiling", s, "x", 1, 1}, t += 2);
  store.record_drill({3, "coalescing", "2026-11-0" + std::to_string(pick(rng, 1, 9)) + "T10:00:00Z", 20400, 2, 4,
                      {1, 3}, 50.0});
}

// A journal's content as a machine-independent value: each synced table's rows (as
// exported: no local ids, parents by uid) sorted by uid, and the FSRS cards.
json content(Journal& j) {
  json tables = wbtest::export_document(j, "test")["tables"];
  for (auto it = tables.begin(); it != tables.end(); ++it) {
    std::sort(it->begin(), it->end(), [](const json& a, const json& b) { return a["uid"] < b["uid"]; });
  }
  json cards = json::array();
  for (const auto& c : learn::ReviewStore(j).cards()) {
    cards.push_back({c.module, c.item, fsrs::to_string(c.card.state), c.card.memory.stability, c.card.memory.difficulty,
                     c.card.last_day, c.card.interval, c.card.reps, c.card.lapses, c.last_review, c.introduced_day});
  }
  return {{"tables", tables}, {"cards", cards}};
}

// A journal filled from `seed`, closed; returns its file.
fs::path make_journal(const fs::path& file, unsigned seed, int parity) {
  Rng rng(seed);
  Journal j(file);
  add_runs(j, rng);
  add_learning(j, rng, parity);
  return file;
}

fs::path copy_of(const fs::path& from, const fs::path& to) {
  fs::copy_file(from, to);  // closed journals: the WAL was checkpointed into the file
  return to;
}

json export_of(const fs::path& file) {
  Journal j(file);
  return wbtest::export_document(j, file.stem().string());
}

// Imports `files` into the journal at `db`, expecting a usage error naming `names`; then
// checks the journal's content is unchanged.
void expect_refused(const fs::path& db, const std::vector<fs::path>& files, const std::string& names) {
  Journal j(db);
  const json before = content(j);
  try {
    learn::merge_journal_files(j, files);
    FAIL("the import was accepted");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.code() == Exit::usage);
    CHECK(std::string(e.what()).find(names) != std::string::npos);
  }
  CHECK(content(j) == before);
}

const unsigned kSeeds[] = {1, 7, 42, 1234, 99991};

}  // namespace

TEST_CASE("merging A into B and B into A gives the same journal, with every row of both", "[journal][sync]") {
  for (unsigned seed : kSeeds) {
    INFO("seed " << seed);
    TempDir dir;
    const fs::path a = make_journal(dir.path / "a.db", seed, 0);
    const fs::path b = make_journal(dir.path / "b.db", seed + 1000, 1);
    const json a_only = [&] { Journal j(a); return content(j); }();
    const json b_only = [&] { Journal j(b); return content(j); }();
    const fs::path a_file = write_json(dir.path / "a.json", export_of(a));
    const fs::path b_file = write_json(dir.path / "b.json", export_of(b));

    const fs::path ab = copy_of(a, dir.path / "ab.db");
    const fs::path ba = copy_of(b, dir.path / "ba.db");
    Journal jab(ab), jba(ba);
    auto r1 = learn::merge_journal_files(jab, {b_file});
    auto r2 = learn::merge_journal_files(jba, {a_file});
    const json merged = content(jab);
    CHECK(merged == content(jba));

    for (const auto& t : synced_tables()) {
      INFO(t.name);
      const json& rows = merged["tables"][t.name];
      const std::size_t na = a_only["tables"][t.name].size(), nb = b_only["tables"][t.name].size();
      CHECK(rows.size() == na + nb);
      CHECK(r1.summary.added(t.name) == static_cast<long long>(nb));
      CHECK(r2.summary.added(t.name) == static_cast<long long>(na));
      for (const auto& side : {a_only, b_only}) {
        for (const auto& row : side["tables"][t.name]) CHECK(std::find(rows.begin(), rows.end(), row) != rows.end());
      }
    }
    CHECK(r1.cards_rebuilt > 0);
    // Each side's cards are rebuilt from both histories: the reps add up per item.
    int reps = 0;
    for (const auto& c : merged["cards"]) reps += c[7].get<int>();
    CHECK(reps == static_cast<int>(merged["tables"]["learn_revlog"].size()));
  }
}

TEST_CASE("rebuilding the cards of an unmerged journal gives back the cards it had", "[journal][sync]") {
  for (unsigned seed : kSeeds) {
    INFO("seed " << seed);
    TempDir dir;
    Journal j(make_journal(dir.path / "a.db", seed, 0));
    const json before = content(j);
    learn::ReviewStore store(j);
    CHECK(store.rebuild_cards(fsrs::Scheduler()) == static_cast<int>(before["cards"].size()));
    CHECK(content(j) == before);
  }
}

TEST_CASE("importing a file twice is importing it once", "[journal][sync]") {
  for (unsigned seed : kSeeds) {
    INFO("seed " << seed);
    TempDir dir;
    const fs::path a = make_journal(dir.path / "a.db", seed, 0);
    const json b = export_of(make_journal(dir.path / "b.db", seed + 1, 1));
    const fs::path b_file = write_json(dir.path / "b.json", b);
    Journal j(a);
    learn::merge_journal_files(j, {b_file});
    const json once = content(j);
    auto again = learn::merge_journal_files(j, {b_file, b_file});
    CHECK(again.summary.added_total() == 0);
    CHECK(again.cards_rebuilt == 0);
    for (const auto& t : again.summary.tables) {
      INFO(t.table);
      CHECK(t.skipped == 2 * static_cast<long long>(b["tables"][t.table].size()));
    }
    CHECK(content(j) == once);
    // Its own export is all there already.
    const fs::path own = write_json(dir.path / "own.json", wbtest::export_document(j, "self"));
    CHECK(learn::merge_journal_files(j, {own}).summary.added_total() == 0);
    CHECK(content(j) == once);
  }
}

TEST_CASE("a corrupt or foreign file is refused, names the file and changes nothing", "[journal][sync]") {
  TempDir dir;
  const fs::path a = make_journal(dir.path / "a.db", 5, 0);
  const json b = export_of(make_journal(dir.path / "b.db", 6, 1));
  const std::string text = b.dump();
  auto variant = [&](const std::string& name, auto&& change) {
    json doc = b;
    change(doc);
    return write_json(dir.path / name, doc);
  };
  const fs::path good = write_json(dir.path / "good.json", b);

  SECTION("cut short") {
    std::ofstream(dir.path / "cut.json") << text.substr(0, text.size() / 2);
    expect_refused(a, {dir.path / "cut.json"}, "cut.json is not valid JSON");
  }
  SECTION("a number past a double's range (found by the fuzz target, seed 16)") {
    std::string big = text;
    const auto at = big.find("\"format\":");
    REQUIRE(at != std::string::npos);
    big.insert(at, "\"huge\":1e309,");
    std::ofstream(dir.path / "huge.json") << big;
    expect_refused(a, {dir.path / "huge.json"}, "huge.json is not valid JSON");
  }
  SECTION("not an export") {
    expect_refused(a, {write_json(dir.path / "other.json", json{{"hello", 1}})}, "not a workbook journal export");
  }
  SECTION("a missing file, after a good one") {
    expect_refused(a, {good, dir.path / "missing.json"}, "cannot read");
  }
  SECTION("a prediction whose run is nowhere (after runs that would be added)") {
    auto f = variant("orphan.json", [](json& d) { d["tables"]["predictions"][0]["run_uid"] = std::string(32, 'f'); });
    expect_refused(a, {f}, "orphan.json: predictions row 1: its run_uid ffff");
  }
  SECTION("a value of the wrong type in the last table") {
    auto f = variant("type.json", [](json& d) { d["tables"]["learn_drills"][0]["seconds"] = "fast"; });
    expect_refused(a, {f}, "learn_drills row 1: seconds should be a number but is a string");
  }
  SECTION("a required column missing") {
    auto f = variant("missing.json", [](json& d) { d["tables"]["learn_follow"][0].erase("example"); });
    expect_refused(a, {f}, "learn_follow row 1: has no example");
  }
  SECTION("an unknown column") {
    auto f = variant("unknown.json", [](json& d) { d["tables"]["checks"][0]["colour"] = "red"; });
    expect_refused(a, {f}, "checks row 1: has an unknown column 'colour'");
  }
  SECTION("a row without a uid") {
    auto f = variant("nouid.json", [](json& d) { d["tables"]["metrics"][0]["uid"] = "not-a-uid"; });
    expect_refused(a, {f}, "metrics row 1: has no uid");
  }
  SECTION("an unknown table") {
    auto f = variant("table.json", [](json& d) { d["tables"]["jobs"] = json::array(); });
    expect_refused(a, {f}, "unknown table 'jobs'");
  }
  SECTION("a review with a rating outside 1..4") {
    auto f = variant("rating.json", [](json& d) { d["tables"]["learn_revlog"][0]["rating"] = 9; });
    expect_refused(a, {f}, "rating.json: learn_revlog row 1: CHECK constraint failed");
  }
  SECTION("a newer schema") {
    auto f = variant("newer.json", [](json& d) { d["schema_version"] = kSchemaVersion + 1; });
    expect_refused(a, {good, f}, "newer.json was exported by a newer workbook");
  }
}

TEST_CASE("an import never changes a prediction already in the journal", "[journal][sync]") {
  TempDir dir;
  const fs::path a = make_journal(dir.path / "a.db", 11, 0);
  json doc = export_of(a);
  json& p = doc["tables"]["predictions"][0];
  const std::string answer = p["answer"];
  p["answer"] = "rewritten";
  const fs::path f = write_json(dir.path / "rewrite.json", doc);
  Journal j(a);
  auto r = learn::merge_journal_files(j, {f});
  CHECK(r.summary.added_total() == 0);
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(j.store_connection(), "SELECT answer FROM predictions WHERE uid=?", -1, &s, nullptr) ==
          SQLITE_OK);
  const std::string uid = p["uid"];
  sqlite3_bind_text(s, 1, uid.c_str(), -1, SQLITE_TRANSIENT);
  REQUIRE(sqlite3_step(s) == SQLITE_ROW);
  CHECK(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)) == answer);
  sqlite3_finalize(s);
}

TEST_CASE("an export carries the schema version, the machine and the time, reals that are not finite survive",
          "[journal][sync]") {
  TempDir dir;
  {
    Journal j(dir.path / "a.db");
    long long run = j.begin_run({"module01/pass_lab", "starter", "x", "{}", 1, "", ""});
    Grade g;
    MetricGrade m;
    m.name = "ratio";
    m.unit = "x";
    m.value = std::numeric_limits<double>::infinity();
    m.status = RangeStatus::unknown;
    g.metrics = {m};
    j.record_grade(run, g);
  }
  const json doc = export_of(dir.path / "a.db");
  CHECK(doc["format"] == kJournalExportFormat);
  CHECK(doc["schema_version"] == kSchemaVersion);
  CHECK(doc["machine"] == "a");
  CHECK(doc["exported_at"].get<std::string>().size() == 24);
  CHECK(doc["tables"]["metrics"][0]["value"] == "inf");
  CHECK(doc["tables"]["metrics"][0]["run_uid"] == doc["tables"]["runs"][0]["uid"]);
  CHECK_FALSE(doc["tables"]["runs"][0].contains("id"));
  Journal other(dir.path / "b.db");
  learn::merge_journal_files(other, {write_json(dir.path / "a.json", doc)});
  CHECK(wbtest::export_document(other, "b")["tables"]["metrics"] == doc["tables"]["metrics"]);
  CHECK_FALSE(machine_name().empty());
}
