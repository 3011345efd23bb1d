// The learning engine's journal tables (runner/src/learn/review_store.hpp).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>

#include "journal/sqlite_statement.hpp"
#include "learn/clock.hpp"
#include "learn/review_store.hpp"

using namespace workbook;
using workbook::learn::day_of;
using workbook::learn::iso_utc;
using workbook::learn::ReviewInput;
using workbook::learn::ReviewStore;
namespace fs = std::filesystem;

namespace {

struct TempJournal {
  fs::path dir;
  TempJournal() {
    static int n = 0;
    dir = fs::temp_directory_path() / ("wb-learn-store-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempJournal() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path file() const { return dir / "journal.db"; }
};

constexpr long long kDay0 = 1788264000;  // 2026-09-01T12:00:00Z

ReviewInput input(int module, const std::string& item, fsrs::Rating r) {
  ReviewInput in;
  in.module = module;
  in.item = item;
  in.rating = r;
  in.source = "exercises";
  in.duration_s = 12.5;
  in.answer = "42";
  return in;
}

}  // namespace

TEST_CASE("review_store: a review writes the card and the revlog", "[learn][store]") {
  TempJournal tj;
  Journal journal(tj.file());
  ReviewStore store(journal);
  fsrs::Scheduler sched(fsrs::whole_days());  // days only; the steps are tested below
  CHECK_FALSE(store.card(14, "a").has_value());
  auto o = store.record(input(14, "a", fsrs::Rating::good), sched, kDay0);
  CHECK(o.card.interval == 2);
  auto c = store.card(14, "a");
  REQUIRE(c);
  CHECK(c->card.state == fsrs::State::review);
  CHECK(c->card.memory.stability == Approx(2.3065));
  CHECK(c->card.reps == 1);
  CHECK(c->introduced_day == day_of(kDay0));
  CHECK(c->last_review == "2026-09-01T12:00:00Z");

  // Three days later: due, reviewed again, lapses counted, intervals before/after logged.
  long long later = kDay0 + 3 * 86400;
  CHECK(store.due(day_of(kDay0)).empty());
  REQUIRE(store.due(day_of(later)).size() == 1);
  store.record(input(14, "a", fsrs::Rating::again), sched, later);
  c = store.card(14, "a");
  CHECK(c->card.lapses == 1);
  CHECK(c->card.reps == 2);
  CHECK(c->introduced_day == day_of(kDay0));
  // The review log in time order: interval before, after, R, elapsed days, rating, duration, mode.
  sql::Statement log(journal.store_connection(),
                     "SELECT interval_before, interval_after, retrievability, elapsed_days, rating, duration_s, mode "
                     "FROM learn_revlog ORDER BY reviewed_at, id");
  REQUIRE(log.next());
  CHECK(log.integer(0) == 0);
  CHECK(log.integer(1) == 2);
  CHECK(log.null(2));
  REQUIRE(log.next());
  CHECK(log.integer(0) == 2);
  CHECK(log.integer(3) == 3);
  CHECK(log.integer(4) == 1);
  REQUIRE_FALSE(log.null(2));
  CHECK(log.real(2) == Approx(0.88094796).epsilon(1e-6));
  CHECK(log.real(5) == 12.5);
  CHECK(log.text(6) == "scale");
  CHECK_FALSE(log.next());
}

TEST_CASE("review_store: new items per day, due order across modules", "[learn][store]") {
  TempJournal tj;
  Journal journal(tj.file());
  ReviewStore store(journal);
  fsrs::Scheduler sched(fsrs::whole_days());
  store.record(input(14, "x", fsrs::Rating::again), sched, kDay0);  // 1 day
  store.record(input(3, "y", fsrs::Rating::easy), sched, kDay0);    // 8 days
  store.record(input(5, "z", fsrs::Rating::again), sched, kDay0);   // 1 day
  CHECK(store.introduced_on(day_of(kDay0)) == 3);
  CHECK(store.introduced_on(day_of(kDay0) + 1) == 0);
  auto due = store.due(day_of(kDay0) + 10);
  REQUIRE(due.size() == 3);
  CHECK(due[0].module == 5);  // due day 1, module 5 before 14
  CHECK(due[1].module == 14);
  CHECK(due[2].module == 3);
  // The store survives reopening (everything is committed as it happens).
  Journal again(tj.file());
  ReviewStore reopened(again);
  CHECK(reopened.cards().size() == 3);
}

TEST_CASE("review_store: worked-example progress and drills", "[learn][store]") {
  TempJournal tj;
  Journal journal(tj.file());
  ReviewStore store(journal);
  CHECK(store.follow_progress(14, "ex") == 0);
  store.record_follow_step({14, "ex", 0, "1", 1, 1}, kDay0);
  store.record_follow_step({14, "ex", 1, "2", 1, 0}, kDay0);
  CHECK(store.follow_progress(14, "ex") == 2);
  CHECK(store.follow_progress(14, "other") == 0);
  store.restart_follow(14, "ex", kDay0);
  CHECK(store.follow_progress(14, "ex") == 0);
  store.record_follow_step({14, "ex", 0, "1", 1, 1}, kDay0);
  CHECK(store.follow_progress(14, "ex") == 1);

  store.record_drill({11, "d", iso_utc(kDay0), day_of(kDay0), 2, 3, {3}, 55});
  auto a = store.drill_attempts(11, "d");
  REQUIRE(a.size() == 1);
  CHECK(a[0].covered == 2);
  CHECK(a[0].missed == std::vector<int>{3});
  CHECK(a[0].seconds == 55);
}

TEST_CASE("review_store: a card on a learning step keeps its step and is due the same day (issue 24)",
          "[learn][store][steps]") {
  TempJournal tj;
  Journal journal(tj.file());
  ReviewStore store(journal);
  fsrs::Scheduler sched;  // learning steps 1 min, 10 min
  auto o = store.record(input(16, "a", fsrs::Rating::good), sched, kDay0);
  CHECK(o.due_in_minutes == 10);
  auto c = store.card(16, "a");
  REQUIRE(c);
  CHECK(c->card.state == fsrs::State::learning);
  CHECK(c->card.step == 1);
  CHECK(c->card.interval == 0);
  REQUIRE(store.due(day_of(kDay0)).size() == 1);  // due again today
  // Good on the last step graduates; the step survived the round trip through the journal.
  o = store.record(input(16, "a", fsrs::Rating::good), sched, kDay0 + 600);
  CHECK(o.due_in_minutes == 0);
  CHECK(o.card.state == fsrs::State::review);
  c = store.card(16, "a");
  CHECK(c->card.state == fsrs::State::review);
  CHECK(c->card.interval >= 1);
  CHECK(store.due(day_of(kDay0)).empty());
  // A lapse relearns; rebuilding the cards from the log gives the same card.
  store.record(input(16, "a", fsrs::Rating::again), sched, kDay0 + 5 * 86400);
  c = store.card(16, "a");
  CHECK(c->card.state == fsrs::State::relearning);
  CHECK(c->card.step == 0);
  CHECK(store.rebuild_cards(sched) == 1);
  auto rebuilt = store.card(16, "a");
  CHECK(rebuilt->card.state == fsrs::State::relearning);
  CHECK(rebuilt->card.memory.stability == Approx(c->card.memory.stability));
}
