// Pieces of the learning flows that need no terminal (runner/src/learn/practice_session.hpp).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>

#include "learn/banks.hpp"
#include "learn/clock.hpp"
#include "learn/practice_session.hpp"
#include "util/error.hpp"
#include "../support/test_paths.hpp"

using namespace workbook;
using namespace workbook::learn;
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
