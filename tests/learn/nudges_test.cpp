// Tests for learn/nudges: a badly missed prediction halves the days left on the module's
// review cards (and their stability), once per lab and prediction; a fresh card or one
// due tomorrow does not move; rebuilding the cards from the review log replays the nudge.
#include <catch2/catch.hpp>

#include "learn/nudges.hpp"
#include "learn/review_store.hpp"
#include "../support/temp_dir.hpp"

using namespace workbook;
using workbook::learn::Nudge;
using workbook::learn::nudged;
using workbook::learn::record_nudge;
using workbook::learn::recorded_nudges;
using workbook::learn::ReviewInput;
using workbook::learn::ReviewStore;

TEST_CASE("nudges: a card in review keeps half its days left, a fresh or nearly due card stays", "[learn][nudge]") {
  fsrs::Card c;
  c.state = fsrs::State::review;
  c.last_day = 100;
  c.interval = 20;  // due on day 120
  c.memory.stability = 18;
  const fsrs::Card n = nudged(c, 110);  // 10 days left -> 5
  CHECK(n.due_day() == 115);
  CHECK(n.memory.stability == Approx(9));
  CHECK(nudged(c, 119).due_day() == 120);  // due tomorrow: stays
  CHECK(nudged(fsrs::Card{}, 110).due_day() == fsrs::Card{}.due_day());
}

TEST_CASE("nudges: recorded once, moves only the module's cards, and survives a rebuild", "[learn][nudge]") {
  wbtest::TempDir dir;
  Journal j(dir.path / "journal.db");
  ReviewStore store(j);
  const fsrs::Scheduler sched(fsrs::whole_days());
  const long long day0 = 20000;  // a day number; reviews at noon UTC
  auto review = [](int module) {
    ReviewInput in;
    in.module = module;
    in.item = "item";
    in.source = "review";
    return in;
  };
  for (int module : {14, 12}) store.record(review(module), sched, day0 * 86400 + 43200);
  // A second good review makes the interval long enough to halve.
  const long long later = (day0 + store.card(14, "item")->card.interval) * 86400 + 43200;
  for (int module : {14, 12}) store.record(review(module), sched, later);
  const auto before = *store.card(14, "item");
  REQUIRE(before.card.interval >= 4);
  const long long nudge_day = before.card.last_day + 1;
  const Nudge n{14, "module14/tiled_gemm", "speedup", 1.4, nudge_day, "2099-01-01T00:00:00Z"};
  CHECK(record_nudge(j, n) == 1);
  const auto after = *store.card(14, "item");
  CHECK(after.card.due_day() < before.card.due_day());
  CHECK(after.card.due_day() >= nudge_day + 1);
  CHECK(store.card(12, "item")->card.due_day() == before.card.due_day());  // another module's card stays
  CHECK(record_nudge(j, n) == -1);  // once per lab and prediction
  CHECK(store.card(14, "item")->card.due_day() == after.card.due_day());
  REQUIRE(recorded_nudges(j.store_connection()).size() == 1);
  // The cards rebuilt from the log (journal import) keep the nudge.
  store.rebuild_cards(sched);
  CHECK(store.card(14, "item")->card.due_day() == after.card.due_day());
  CHECK(store.card(14, "item")->card.memory.stability == Approx(after.card.memory.stability));
}
