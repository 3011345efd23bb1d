// Tests for model/expr: muparser-backed expressions over named figures.
#include <catch2/catch.hpp>

#include <string>

#include "model/expr.hpp"
#include "util/error.hpp"

using workbook::evaluate;
using workbook::Figures;
using workbook::variables_of;

TEST_CASE("arithmetic follows the usual precedence", "[expr]") {
  CHECK(evaluate("1 + 2 * 3", {}) == 7);
  CHECK(evaluate("(1 + 2) * 3", {}) == 9);
  CHECK(evaluate("2^10", {}) == 1024);
  CHECK(evaluate("-3 + 10 / 4", {}) == Approx(-0.5));
  CHECK(evaluate("1e3 * 2.5e-3", {}) == Approx(2.5));
}

TEST_CASE("variables are looked up by name", "[expr]") {
  Figures f{{"N", 1024}, {"fp32_tflops", 8.1}, {"sm_count", 40}};
  CHECK(evaluate("2*N*N*N", f) == Approx(2.0 * 1024 * 1024 * 1024));
  CHECK(evaluate("2*N*N*N / (fp32_tflops*1e12*0.05) * 1e3", f) == Approx(2.0 * 1024 * 1024 * 1024 / (8.1e12 * 0.05) * 1e3));
  CHECK(evaluate("sm_count * 100", f) == 4000);
}

TEST_CASE("ceil, floor and round are available beside muparser's built-ins", "[expr]") {
  CHECK(evaluate("ceil(2.1)", {}) == 3);
  CHECK(evaluate("ceil(-2.1)", {}) == -2);
  CHECK(evaluate("floor(2.9)", {}) == 2);
  CHECK(evaluate("floor(-2.5)", {}) == -3);
  CHECK(evaluate("round(2.5)", {}) == 3);
  CHECK(evaluate("round(2.4)", {}) == 2);
  CHECK(evaluate("ceil(n/t)", {{"n", 50}, {"t", 16}}) == 4);
  CHECK(evaluate("min(3, 4) + max(3, 4)", {}) == 7);
  CHECK(evaluate("sqrt(16)", {}) == 4);
}

TEST_CASE("the ternary operator and comparisons work (answer_expr uses them)", "[expr]") {
  Figures f{{"count", 1000}};
  CHECK(evaluate("count > 500 ? 2 : 1", f) == 2);
  CHECK(evaluate("count < 500 ? 2 : 1", f) == 1);
  CHECK(evaluate("count > 500", f) == 1);
  CHECK(evaluate("count == 999", f) == 0);
  CHECK(evaluate("count >= 1000 && count <= 1000", f) == 1);
}

TEST_CASE("an unknown variable throws a usage error naming it and the known names", "[expr]") {
  try {
    evaluate("dram_gbps * 2 + N", {{"N", 1}, {"sm_count", 40}});
    FAIL("no exception");
  } catch (const workbook::Error& e) {
    CHECK(e.code() == workbook::Exit::usage);
    std::string what = e.what();
    CHECK(what.find("'dram_gbps'") != std::string::npos);
    CHECK(what.find("dram_gbps * 2 + N") != std::string::npos);
    CHECK(e.hint().find("N, sm_count") != std::string::npos);
  }
  try {
    evaluate("x", {});
    FAIL("no exception");
  } catch (const workbook::Error& e) {
    CHECK(e.hint().find("(none)") != std::string::npos);
  }
}

TEST_CASE("a syntax error throws a usage error naming the expression", "[expr]") {
  for (const char* bad : {"2 *", "(1 + 2", "1 + + * 2", "ceil()", "N N", ""}) {
    INFO("'" << bad << "'");
    try {
      evaluate(bad, {{"N", 1}});
      FAIL("no exception");
    } catch (const workbook::Error& e) {
      CHECK(e.code() == workbook::Exit::usage);
      CHECK(std::string(e.what()).find(std::string("'") + bad + "'") != std::string::npos);
    }
  }
}

TEST_CASE("a result that is not finite throws", "[expr]") {
  CHECK_THROWS_AS(evaluate("1 / 0", {}), workbook::Error);
  CHECK_THROWS_AS(evaluate("x / y", {{"x", 0}, {"y", 0}}), workbook::Error);
  CHECK_THROWS_AS(evaluate("sqrt(-1)", {}), workbook::Error);
}

TEST_CASE("variables_of lists every name an expression uses", "[expr]") {
  CHECK(variables_of("2*M*N*P + sm_count") == std::set<std::string>{"M", "N", "P", "sm_count"});
  CHECK(variables_of("ceil(n/tile)*(tile+mw-1)") == std::set<std::string>{"mw", "n", "tile"});
  CHECK(variables_of("3.5 * 2").empty());
  CHECK(variables_of("a > b ? a : b") == std::set<std::string>{"a", "b"});
  CHECK_THROWS_AS(variables_of("a * (b"), workbook::Error);
}

TEST_CASE("the figures passed in are not changed, and extra ones are ignored", "[expr]") {
  Figures f{{"a", 2}, {"unused", 5}};
  CHECK(evaluate("a * 3", f) == 6);
  CHECK(f == Figures{{"a", 2}, {"unused", 5}});
}
