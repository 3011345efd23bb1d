// The day number (learn/clock) of a date written "YYYY-MM-DD", for tests pinned to a
// calendar day.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "learn/clock.hpp"

namespace wbtest {

// A failed REQUIRE when `date` is not a date.
inline long long day_number(const std::string& date) {
  auto d = workbook::learn::day_of_date(date);
  REQUIRE(d);
  return *d;
}

}  // namespace wbtest
