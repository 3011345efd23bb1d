// Tests for util/quantity: the one grammar of the learner's numbers, units and conversion.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "util/quantity.hpp"

using namespace workbook;

TEST_CASE("parse_quantity: the grammar's forms", "[quantity]") {
  auto value = [](const std::string& s) { return parse_quantity(s).value().value; };
  CHECK(value("1.72 x 10^10") == Approx(1.72e10));
  CHECK(value("1.72\xC3\x97" "10^-3") == Approx(1.72e-3));  // ×, negative exponent
  CHECK(value("\xE2\x88\x92" "2.5") == Approx(-2.5));        // U+2212
  CHECK(value("1,000,000") == Approx(1e6));
  CHECK(value("1\xE2\x80\xAF" "000") == Approx(1000));        // a narrow no-break space
  CHECK(value("8 960") == Approx(8960));                      // plain spaces where the text is one number
  CHECK(value("1.2 million FLOPs") == Approx(1.2e6));
  CHECK(value(".5") == Approx(0.5));
  auto ms = parse_quantity("2.1ms");
  REQUIRE(ms);
  REQUIRE(ms->unit);
  CHECK(ms->unit->symbol == "ms");
  CHECK(parse_quantity("8 warps per block")->unit_text == "warps per block");
  CHECK_FALSE(parse_quantity("8 warps per block")->unit);
}

TEST_CASE("parse_quantity: misread forms are errors that say why", "[quantity]") {
  std::string error;
  CHECK_FALSE(parse_quantity("1,5", &error));
  CHECK(error.find("decimal point") != std::string::npos);
  CHECK(error.find("1.5") != std::string::npos);
  CHECK_FALSE(parse_quantity("1.5.5", &error));
  CHECK(error.find("two decimal points") != std::string::npos);
  CHECK_FALSE(parse_quantity("1e999", &error));
  CHECK(error.find("too large") != std::string::npos);
  for (const char* bad : {"2N", "513th", "2 x 3", "0x10", "2^20", "nan", "inf", "--1", "5 %x"}) {
    INFO(bad);
    CHECK_FALSE(parse_quantity(bad));
  }
}

TEST_CASE("parse_quantity reads numbers as learners type them", "[quantity]") {
  auto value = [](const std::string& s) { return parse_quantity(s).value().value; };
  CHECK(value("2.5") == Approx(2.5));
  CHECK(value("2.5x") == Approx(2.5));
  CHECK(value("2.5 x") == Approx(2.5));
  CHECK(value("2.5X") == Approx(2.5));
  CHECK(value("2.5\xC3\x97") == Approx(2.5));  // 2.5×
  CHECK(value("1,024") == Approx(1024));
  CHECK(value("1 024") == Approx(1024));
  CHECK(value("1,048,576") == Approx(1048576));
  CHECK(value("1_000") == Approx(1000));
  CHECK(value("3e-4") == Approx(3e-4));
  CHECK(value("75%") == Approx(75));
  CHECK(value("0.8 ms") == Approx(0.8));
  CHECK(value("300 GB/s") == Approx(300));
  CHECK(value("  42  ") == Approx(42));
  CHECK(value("+3") == Approx(3));
  CHECK(value("-1.5") == Approx(-1.5));
  CHECK(value("0") == Approx(0));
}

TEST_CASE("parse_quantity rejects what is not one number", "[quantity]") {
  for (const char* bad : {"abc", "1.2.3", "", "   ", "x2", "1,", "5 %x", "inf", "nan", "1e999", "--1", "2.5??"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_quantity(bad));
  }
}

TEST_CASE("parse_quantity: a separator is dropped only between digits", "[quantity]") {
  auto value = [](const std::string& s) { return parse_quantity(s).value().value; };
  CHECK_FALSE(parse_quantity(",5"));
  CHECK(value("1 024 ms") == Approx(1024));
  CHECK(value("12 ms") == Approx(12));  // the space before a unit stays a space
}

TEST_CASE("find_unit and convert: one dimension converts, another does not", "[quantity]") {
  REQUIRE(find_unit("\xC2\xB5s"));
  CHECK(find_unit("\xC2\xB5s")->symbol == "us");
  CHECK(find_unit("TFLOPS")->symbol == "TFLOP/s");
  CHECK(find_unit("FLOPs")->symbol == "FLOP");
  CHECK(find_unit("FLOPs per byte")->symbol == "FLOP/byte");
  CHECK(find_unit("x per step")->symbol == "x");
  CHECK_FALSE(find_unit("warps"));
  CHECK_FALSE(find_unit("sectors"));
  CHECK(convert(1500, *find_unit("us"), *find_unit("ms")) == std::vector<double>{1.5});
  CHECK(convert(0.32, *find_unit("TB/s"), *find_unit("GB/s")).front() == Approx(320));
  CHECK(convert(75, *find_unit("%"), *find_unit("x")).front() == Approx(0.75));
  CHECK(convert(64, *find_unit("GB"), *find_unit("GB")) == std::vector<double>{64});  // never 68.7
  auto kb = convert(262144, *find_unit("B"), *find_unit("KB"));  // KB is read both ways
  REQUIRE(kb.size() == 2);
  CHECK(kb[0] == Approx(262.144));
  CHECK(kb[1] == Approx(256));
  CHECK(convert(1, *find_unit("GB"), *find_unit("ms")).empty());
}

TEST_CASE("read_in_unit: one reading for every place a number is typed (issue 26)", "[quantity]") {
  // parse_quantity, then read_in_unit, as learn/answer_check reads a typed number in its unit.
  auto reading_in = [](const std::string& typed, const std::string& want, const std::string& name) {
    return read_in_unit(parse_quantity(typed).value(), typed, want, name);
  };
  CHECK(reading_in("1.5 min", "s", "t").readings.front().value == Approx(90));
  CHECK(reading_in("1 hour", "min", "t").readings.front().value == Approx(60));
  CHECK(reading_in("12 Gbit/s", "GB/s", "bw").readings.front().value == Approx(1.5));
  CHECK(reading_in("1.72 \xC3\x97 10\xC2\xB9\xE2\x81\xB0", "", "n").readings.front().value == Approx(1.72e10));
  CHECK(reading_in("2e3", "", "n").readings.front().value == Approx(2000));
  // Refused, each saying what unit is expected.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"1000 ms", "count"}, {"1.5 foo", "ms"}, {"1.5 cycles", "ms"}, {"3 GB", "ms"}, {"1000 ms", "threads"}};
  for (const auto& [typed, unit] : refused) {
    INFO(typed << " in " << unit);
    InUnit in = reading_in(typed, unit, "p");
    CHECK_FALSE(in.ok());
    CHECK(in.error.find(unit) != std::string::npos);
  }
  CHECK(reading_in("1000", "count", "p").ok());
  CHECK(reading_in("1000 elements", "elements", "p").ok());
  CHECK_FALSE(parse_quantity("1,5"));  // not a number in any unit
  // kB is 1000 B and KiB 1024 B; KB is read both ways.
  CHECK(convert(1.5, *find_unit("kB"), *find_unit("B")) == std::vector<double>{1500});
  CHECK(convert(1.5, *find_unit("KiB"), *find_unit("B")) == std::vector<double>{1536});
  CHECK(convert(1, *find_unit("MB"), *find_unit("B")) == std::vector<double>{1e6});
  CHECK(convert(1, *find_unit("GiB"), *find_unit("GB")).front() == Approx(1.073741824));
  CHECK_FALSE(find_unit("K"));
}
