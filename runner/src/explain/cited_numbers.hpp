// The numbers a learner's explanation cites, read with the answers' number grammar
// (util/quantity.hpp), and whether one is a given figure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "util/quantity.hpp"

namespace workbook {

// Every number in `text` that reads as one (misread forms such as "1,5" are left out).
std::vector<NumberToken> numbers_in(const std::string& text);

// Whether `n` is `value` in `unit`, within `tolerance` (relative). A time, size, rate or
// intensity must be cited with a unit of its dimension (converted: "280 us" is 0.28 ms);
// a speed-up with x or "times", a share with %; a count (a unit the runner does not
// convert: "count", "threads") by its value alone.
bool cites(const NumberToken& n, double value, const std::string& unit, double tolerance = 0.1);

// How far `n` is from `value` in `unit` (relative), read as cites() reads it; nullopt when
// it cannot be that figure at all (another dimension, no unit for a time).
std::optional<double> cite_error(const NumberToken& n, double value, const std::string& unit);

// "0.28 ms" (the number as typed, then its unit as typed).
std::string typed(const NumberToken& n);

}  // namespace workbook
