// Pieces of the learning flows that need no terminal (runner/src/learn/practice_session.hpp).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>

#include "learn/banks.hpp"
#include "learn/clock.hpp"
#include "learn/practice_session.hpp"
#include "learn/session_queue.hpp"
#include "util/error.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using workbook::learn::date_of_day;
using workbook::learn::day_of;
using workbook::learn::day_of_date;
using workbook::learn::drill_status;
using workbook::learn::DrillStatus;
using workbook::learn::iso_utc;
using workbook::learn::load_bank;
using workbook::learn::new_item_module_order;
using workbook::learn::now_unix;
using workbook::learn::parse_module;
using workbook::learn::parse_points;
using workbook::learn::ReviewStore;
using workbook::learn::SessionQueue;
namespace fs = std::filesystem;

TEST_CASE("session: the covered points of a drill", "[learn][drill]") {
  CHECK(parse_points("1 3", 4) == std::vector<int>{1, 3});
  CHECK(parse_points("3,1;3", 4) == std::vector<int>{1, 3});
  CHECK(parse_points("all", 3) == std::vector<int>{1, 2, 3});
  CHECK(parse_points("", 3) == std::vector<int>{});
  CHECK(parse_points("none", 3) == std::vector<int>{});
  CHECK_FALSE(parse_points("5", 3).has_value());
  CHECK_FALSE(parse_points("one", 3).has_value());
}

TEST_CASE("session: drills are weekly until easy", "[learn][drill]") {
  fs::path dir = fs::temp_directory_path() / ("wb-learn-drill-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    Journal journal(dir / "journal.db");
    ReviewStore store(journal);
    DrillItem d;
    d.id = "q";
    d.covers = {"a", "b"};
    const long long day = 20000;
    DrillStatus fresh = drill_status(store, 11, d, day);
    CHECK(fresh.due);
    CHECK(fresh.attempts == 0);
    store.record_drill({11, "q", "t", day, 1, 2, {2}, 60});
    DrillStatus once = drill_status(store, 11, d, day);
    CHECK_FALSE(once.due);
    CHECK(once.next_due_day == day + 7);
    CHECK(once.readiness == Approx(0.5));
    store.record_drill({11, "q", "t", day + 7, 2, 2, {}, 60});
    store.record_drill({11, "q", "t", day + 14, 2, 2, {}, 60});
    DrillStatus easy = drill_status(store, 11, d, day + 14);
    CHECK(easy.easy);
    CHECK(easy.next_due_day == day + 14 + 28);
    CHECK(easy.readiness == Approx((0.5 + 1 + 1) / 3));
    CHECK(drill_status(store, 11, d, day + 42).due);
  }
  fs::remove_all(dir);
}

TEST_CASE("banks: module arguments", "[learn]") {
  CHECK(parse_module("14") == 14);
  CHECK(parse_module("module07") == 7);
  CHECK(parse_module("m24") == 24);
  CHECK_THROWS_AS(parse_module("25"), UsageError);
  CHECK_THROWS_AS(parse_module("x"), UsageError);
}

TEST_CASE("banks: the real module14 bank loads", "[learn]") {
  Catalog catalog(WORKBOOK_SOURCE_DIR);
  ExerciseBank bank = load_bank(catalog, 14);
  CHECK(bank.items.size() >= 5);
  // Every module has a bank now (modules 01-24); a missing one is tested on a fixture.
  CHECK(load_bank(catalog, 23).items.size() >= 5);
  CHECK(load_bank(catalog, 24).drills.size() == 12);
}

TEST_CASE("banks: a module without a bank is a usage error", "[learn]") {
  // A catalog over an empty folder: no exercises/ at all.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("wb-nobank-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Catalog catalog(dir);
  CHECK_THROWS_AS(load_bank(catalog, 23), UsageError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("clock: WORKBOOK_NOW and calendar days", "[learn]") {
  ::setenv("WORKBOOK_NOW", "2026-09-01T12:00:00Z", 1);
  CHECK(now_unix() == 1788264000);
  ::setenv("WORKBOOK_NOW", "1788264000", 1);
  CHECK(now_unix() == 1788264000);
  ::setenv("WORKBOOK_NOW", "2026-09-01", 1);
  CHECK(iso_utc(now_unix()) == "2026-09-01T12:00:00Z");
  ::setenv("WORKBOOK_NOW", "yesterday", 1);
  CHECK_THROWS_AS(now_unix(), UsageError);
  ::unsetenv("WORKBOOK_NOW");
  CHECK(date_of_day(20697) == "2026-09-01");
  CHECK(day_of(1788264000 + 86400) == day_of(1788264000) + 1);
}

// --- issue 24: the order of a session -------------------------------------------------

TEST_CASE("session queue: new items of the assignment due next come first", "[learn][queue]") {
  Course course;
  course.assignments = {{"a1", "A1", "2026-11-06", {5, 6, 7, 8, 9}, "", 0},
                        {"a3", "A3", "2026-12-04", {16, 17, 18, 19}, "", 0},
                        {"a4", "A4", "2026-12-18", {20, 21, 22, 23}, "", 0}};
  const long long dec1 = *day_of_date("2026-12-01");
  std::vector<int> order = new_item_module_order(course, dec1);
  REQUIRE(order.size() == 24);
  CHECK(std::vector<int>(order.begin(), order.begin() + 5) == std::vector<int>{16, 17, 18, 19, 1});
  CHECK(order[5] == 2);
  // On the due date itself it is still the one due next; the day after, the next one.
  CHECK(new_item_module_order(course, *day_of_date("2026-12-04")).front() == 16);
  CHECK(new_item_module_order(course, *day_of_date("2026-12-05")).front() == 20);
  // After the last assignment, or without a calendar: 1-24.
  CHECK(new_item_module_order(course, *day_of_date("2027-01-01")).front() == 1);
  CHECK(new_item_module_order(std::nullopt, dec1).front() == 1);
}

TEST_CASE("session queue: an item on a learning step comes back in the session", "[learn][queue]") {
  ExerciseItem a, b, c;
  a.id = "a";
  b.id = "b";
  c.id = "c";
  SessionQueue q({{1, &a, true}, {1, &b, true}, {1, &c, true}});
  const long long t = 1'000'000;
  CHECK(q.next(t)->item == &a);
  q.again_in({1, &a, true}, 1, t);  // Again: 1 min
  CHECK(q.next(t + 10)->item == &b);
  CHECK(q.next(t + 61)->item == &a);  // its minute is up: before c
  q.again_in({1, &a, false}, 10, t + 61);
  CHECK(q.next(t + 70)->item == &c);
  // Nothing else left: asked at once, not waited for.
  auto last = q.next(t + 80);
  REQUIRE(last);
  CHECK(last->item == &a);
  CHECK_FALSE(last->fresh);
  CHECK_FALSE(q.next(t + 90));
}
