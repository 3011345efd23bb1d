// Time for the learning engine: reviews are scheduled in whole local calendar days.
//
// $WORKBOOK_NOW, when set, stands in for the clock ("2026-09-01", "2026-09-01T18:30:00Z"
// or Unix seconds), so tests and demos can let days pass.
#pragma once

#include <optional>
#include <string>

namespace workbook::learn {

// Now, in Unix seconds ($WORKBOOK_NOW or the system clock). Throws UsageError if
// $WORKBOOK_NOW cannot be read.
long long now_unix();
// The local calendar day of a moment: days since 1970-01-01 in the local time zone.
long long day_of(long long unix_seconds);
// "2026-09-01T18:30:00Z"
std::string iso_utc(long long unix_seconds);
// The calendar date of a day number: "2026-09-01".
std::string date_of_day(long long day);
// The day number of a calendar date "YYYY-MM-DD" (the inverse of date_of_day); nullopt
// if the text is not such a date.
std::optional<long long> day_of_date(const std::string& date);

}  // namespace workbook::learn
