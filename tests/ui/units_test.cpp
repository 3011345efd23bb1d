// Tests for ui/units: figures in the unit that suits their size, and ranges with "to".
#include <catch2/catch.hpp>

#include "ui/units.hpp"

using namespace workbook;

TEST_CASE("format_quantity picks the time unit that suits the value", "[units]") {
  CHECK(format_quantity(8.33e-06, "ms") == "8.33 ns");
  CHECK(format_quantity(0.0001, "ms") == "100 ns");
  CHECK(format_quantity(0.532, "ms") == "532 µs");
  CHECK(format_quantity(1.2, "ms") == "1.2 ms");
  CHECK(format_quantity(2500, "ms") == "2.5 s");
  CHECK(format_quantity(3, "us") == "3 µs");
  CHECK(format_quantity(0, "ms") == "0 ms");
  CHECK(format_quantity(5000, "s") == "5000 s");  // no unit above seconds
}

TEST_CASE("format_quantity rescales decimal prefixes of bytes and FLOP, keeps other units", "[units]") {
  CHECK(format_quantity(1.23e4, "GB/s") == "12.3 TB/s");
  CHECK(format_quantity(0.5, "GB/s") == "500 MB/s");
  CHECK(format_quantity(8100, "GFLOP/s") == "8.1 TFLOP/s");
  CHECK(format_quantity(4096, "B") == "4.1 kB");
  CHECK(format_quantity(1000, "count") == "1000 count");
  CHECK(format_quantity(1.52, "x") == "1.52 x");
  CHECK(format_quantity(0.25, "") == "0.25");
  const ShownUnit u = suited_unit(0.005, "ms");  // 5 µs
  CHECK(u.unit == "µs");
  CHECK(u.factor == Approx(1000));
}

TEST_CASE("format_range joins its ends with 'to', each end in its own unit", "[units]") {
  CHECK(format_range(8.33e-06, 1.2, "ms") == "8.33 ns to 1.2 ms");
  CHECK(format_range(1000, 1000, "count") == "1000 count");
  CHECK(format_range(5.0, std::nullopt, "GB/s") == "at least 5 GB/s");
  CHECK(format_range(std::nullopt, 2.0, "ms") == "at most 2 ms");
  CHECK(format_range(std::nullopt, std::nullopt, "ms").empty());
  CHECK(format_range(-1.0, 1.0, "x") == "-1 x to 1 x");
}

TEST_CASE("format_figure keeps the unit as given, 3 significant digits, whole numbers from 1000", "[units]") {
  CHECK(format_figure(0.5321, "ms") == "0.532 ms");
  CHECK(format_figure(12345, "GB/s") == "12345 GB/s");
  CHECK(format_figure(1.234e7, "") == "1.23e+07");
  CHECK(format_figure(-2500, "x") == "-2500 x");
}

TEST_CASE("date_time_text: a journal time as a date and a time of day, other text as it is", "[units]") {
  CHECK(date_time_text("2027-01-02T10:04:31Z") == "2027-01-02 10:04 UTC");
  CHECK(date_time_text("2026-11-30T09:00:00.000Z") == "2026-11-30 09:00 UTC");
  CHECK(date_time_text("2026-11-30T09:00:00") == "2026-11-30 09:00");
  CHECK(date_time_text("2026-11-30") == "2026-11-30");
  CHECK(date_time_text("") == "");
}

TEST_CASE("path_from_here: relative under the current folder, as it is elsewhere", "[units]") {
  const std::filesystem::path here = std::filesystem::current_path();
  CHECK(workbook::path_from_here(here / "workbook" / "labs" / "x.cu") == "workbook/labs/x.cu");
  CHECK(workbook::path_from_here("/nowhere-else/x.cu") == "/nowhere-else/x.cu");
  CHECK(workbook::path_from_here("labs/x.cu") == "labs/x.cu");
}
