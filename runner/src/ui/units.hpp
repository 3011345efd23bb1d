// Figures in the unit that suits their size: 8.3e-06 ms reads "8.3 ns", 1.23e+04 GB/s
// reads "12.3 TB/s", and a range reads "8.3 ns to 1.2 ms" (never "8.3e-06 - 1.2", which
// looks like a subtraction). Time units (s, ms, us, µs, ns) and decimal-prefixed rates and
// sizes (B, B/s, FLOP, FLOP/s, with k M G T P) are rescaled; any other unit is kept.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace workbook {

// A unit to show values in: value_in_it = value * factor.
struct ShownUnit {
  double factor = 1;
  std::string unit;
};

// The unit of `unit`'s family in which `magnitude` (a value in `unit`) lies in [1, 1000),
// as near as the family allows; `unit` itself (factor 1) when it has no family or the
// magnitude is 0 or not finite.
ShownUnit suited_unit(double magnitude, const std::string& unit);

// `value` (in `unit`) with 3 significant digits in its suited unit: "8.33 ns", "532 µs".
std::string format_quantity(double value, const std::string& unit);

// A range with "to" between its ends, each end in the unit that suits it:
// "8.33 ns to 1.2 ms", "at least 5 GB/s", "at most 2 ms"; "" when both ends are missing.
std::string format_range(std::optional<double> lo, std::optional<double> hi, const std::string& unit);

// "0.532 ms", "1.23e+04 GB/s": a figure with 3 significant digits and its unit as given
// (not rescaled): the verdict tables, reports and history.
std::string format_figure(double value, const std::string& unit);

// A journal time ("2027-01-02T10:04:31Z") as a reader writes it: "2027-01-02 10:04 UTC";
// a text of another shape as it is.
std::string date_time_text(const std::string& iso);

// A file as the learner types it from here: relative to the current folder when it lies
// under it ("workbook/labs/module16/x.cu"), else as it is; long absolute paths are what an
// 80-column line breaks mid-word.
std::string path_from_here(const std::filesystem::path& file);

}  // namespace workbook
