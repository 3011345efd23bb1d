// Clock and calendar days (see clock.hpp).
#include "learn/clock.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <regex>

#include "util/error.hpp"

namespace workbook::learn {

long long now_unix() {
  const char* env = std::getenv("WORKBOOK_NOW");
  if (!env || !*env) {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  std::string s = env;
  static const std::regex digits("^[0-9]+$");
  static const std::regex date("^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?Z?)?$");
  std::smatch m;
  if (std::regex_match(s, digits)) return std::stoll(s);
  if (std::regex_match(s, m, date)) {
    std::tm tm{};
    tm.tm_year = std::stoi(m[1]) - 1900;
    tm.tm_mon = std::stoi(m[2]) - 1;
    tm.tm_mday = std::stoi(m[3]);
    tm.tm_hour = m[4].matched ? std::stoi(m[4]) : 12;
    tm.tm_min = m[5].matched ? std::stoi(m[5]) : 0;
    tm.tm_sec = m[6].matched ? std::stoi(m[6]) : 0;
    return static_cast<long long>(timegm(&tm));
  }
  throw UsageError(fmt::format("WORKBOOK_NOW is '{}', which is not a time", s),
                   "use 2026-09-01, 2026-09-01T18:30:00Z or Unix seconds, or unset it");
}

long long day_of(long long unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm local{};
  localtime_r(&t, &local);
  long long shifted = unix_seconds + static_cast<long long>(local.tm_gmtoff);
  return shifted >= 0 ? shifted / 86400 : -((-shifted + 86399) / 86400);
}

std::string iso_utc(long long unix_seconds) {
  std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec);
}

std::string date_of_day(long long day) { return iso_utc(day * 86400).substr(0, 10); }

std::optional<long long> day_of_date(const std::string& date) {
  static const std::regex pattern("^([0-9]{4})-([0-9]{2})-([0-9]{2})$");
  std::smatch m;
  if (!std::regex_match(date, m, pattern)) return std::nullopt;
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31) return std::nullopt;
  const long long seconds = static_cast<long long>(timegm(&tm));
  if (date_of_day(seconds / 86400) != date) return std::nullopt;  // 2026-02-31 and the like
  return seconds / 86400;
}

}  // namespace workbook::learn
