// Tests for run/params: a lab's parameters for one run, each value checked before the
// build (a value the lab's wb::param would refuse, or misread, never reaches it).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "run/params.hpp"
#include "util/error.hpp"

using namespace workbook;

namespace {

LabSpec lab_with_n() {
  LabSpec lab;
  lab.id = "module01/pass_lab";
  ParamSpec n;
  n.name = "N";
  n.default_value = 1000;
  n.quick = 10;
  ParamSpec t;
  t.name = "T";
  t.default_value = 16;
  lab.params = {n, t};
  return lab;
}

// The UsageError message resolve_params throws for `flag` ("" when it throws none).
std::string refusal(const std::string& flag) {
  try {
    resolve_params(lab_with_n(), {flag}, false);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("resolve_params: defaults, quick values, then -p overrides", "[run][params]") {
  LabSpec lab = lab_with_n();
  CHECK(resolve_params(lab, {}, false) == Figures{{"N", 1000}, {"T", 16}});
  CHECK(resolve_params(lab, {}, true) == Figures{{"N", 10}, {"T", 16}});  // T has no quick value
  CHECK(resolve_params(lab, {"T=32", "N=4096"}, true) == Figures{{"N", 4096}, {"T", 32}});  // a parameter once each
}

TEST_CASE("parse_param_value reads integers as the lab harness does: decimal or 0x-hex", "[run][params]") {
  std::string why;
  CHECK(parse_param_value("4096", why) == std::optional<double>(4096));
  CHECK(parse_param_value("-3", why) == std::optional<double>(-3));
  CHECK(parse_param_value("+7", why) == std::optional<double>(7));
  CHECK(parse_param_value("0x10", why) == std::optional<double>(16));  // wb_host.hpp parse_int takes 0x
  CHECK(parse_param_value("0X1f", why) == std::optional<double>(31));
  CHECK(parse_param_value("-0x10", why) == std::optional<double>(-16));
  // Whole numbers in the learner's forms: the lab is passed the plain decimal.
  CHECK(parse_param_value("1e6", why) == std::optional<double>(1000000));
  CHECK(parse_param_value("1,048,576", why) == std::optional<double>(1048576));
  CHECK(parse_param_value("9007199254740992", why) == std::optional<double>(9007199254740992.0));
}

TEST_CASE("parse_param_value refuses fractions, huge values, junk and non-finite values", "[run][params]") {
  for (const char* bad : {"1.5", "0.5", "1e20", "-1e20", "9007199254740993", "0x20000000000001", "0xFFFFFFFFFFFFFFFFF",
                          "inf", "nan", "-inf", "1e999", "0x", "0xg", "12abc", "", " ", "1,5", "N", "2^20"}) {
    INFO("'" << bad << "'");
    std::string why;
    CHECK_FALSE(parse_param_value(bad, why));
    CHECK_FALSE(why.empty());
  }
  std::string why;
  CHECK_FALSE(parse_param_value("1.5", why));
  CHECK(why.find("whole number") != std::string::npos);
  CHECK_FALSE(parse_param_value("1e20", why));
  CHECK(why.find("9007199254740992") != std::string::npos);  // says the limit
}

TEST_CASE("resolve_params: a bad -p is a UsageError naming the parameter and what is wrong", "[run][params]") {
  CHECK(refusal("N=0x10").empty());
  CHECK(resolve_params(lab_with_n(), {"N=0x10"}, false).at("N") == 16);  // never N=0
  CHECK(refusal("N=1.5").find("-p N: '1.5' is not a whole number") != std::string::npos);
  CHECK(refusal("N=1e20").find("-p N: '1e20' is too large") != std::string::npos);
  CHECK(refusal("N=nan").find("-p N: 'nan' is not a number") != std::string::npos);
  CHECK(refusal("N=inf").find("-p N: 'inf' is not a number") != std::string::npos);
  CHECK(refusal("N=lots").find("-p N: 'lots' is not a number") != std::string::npos);
  CHECK(refusal("N").find("write NAME=VALUE") != std::string::npos);
  CHECK(refusal("M=4").find("has no parameter 'M'") != std::string::npos);
}

TEST_CASE("parse_timeout: finite seconds, from 1 to 24 h", "[run][params]") {
  CHECK(parse_timeout("30") == 30);
  CHECK(parse_timeout("1") == 1);
  CHECK(parse_timeout("86400") == 86400);
  CHECK(parse_timeout("1500 ms") == Approx(1.5));
  CHECK(parse_timeout("90 s") == 90);
  for (const char* bad : {"inf", "nan", "-inf", "1e12", "86401", "0", "-5", "1e999", "", "soon", "5 GB", "1,5", "1e-9",
                          "0.5", "500 ms", "0.999"}) {
    INFO("'" << bad << "'");
    try {
      parse_timeout(bad);
      FAIL("accepted");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()).find("--timeout " + std::string(bad) + ":") == 0);
      CHECK(std::string(e.what()).find("from 1 to 86400") != std::string::npos);
    }
  }
}

TEST_CASE("resolve_params refuses a parameter given twice, a sweep refuses -p of its parameter", "[run][params]") {
  LabSpec lab;
  lab.id = "module01/pass_lab";
  ParamSpec n;
  n.name = "N";
  n.default_value = 1000;
  ParamSpec m = n;
  m.name = "M";
  lab.params = {n, m};
  try {
    resolve_params(lab, {"N=5", "M=2", "N=6"}, false);
    FAIL("accepted");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "-p N is given twice (-p N=5, then -p N=6)");
    CHECK(e.hint().find("give each parameter once") != std::string::npos);
  }
  CHECK(resolve_params(lab, {"N=5", "M=6"}, false).at("M") == 6);
  CHECK_NOTHROW(refuse_swept_param("N=1,2", {"M=5"}));
  CHECK_NOTHROW(refuse_swept_param("N", {}));
  for (const char* sweep : {"N=1,2", "N"}) {
    try {
      refuse_swept_param(sweep, {"M=3", "N=5"});
      FAIL("accepted");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()) == fmt::format("-p N=5 and --sweep {} both set N", sweep));
      CHECK(e.hint().find("drop -p N") == 0);
    }
  }
}

TEST_CASE("parse_seed: a whole number 0 .. 2^64 - 1, decimal or 0x-hex", "[run][params]") {
  CHECK(parse_seed("0") == 0);
  CHECK(parse_seed("42") == 42);
  CHECK(parse_seed("18446744073709551615") == 18446744073709551615ULL);
  CHECK(parse_seed("0xff") == 255);
  for (const char* bad : {"18446744073709551616", "2^64", "-1", "1.5", "1e3", "", "abc", "0x", "+5"}) {
    INFO("'" << bad << "'");
    try {
      parse_seed(bad);
      FAIL("accepted");
    } catch (const UsageError& e) {
      CHECK(std::string(e.what()).find("--seed " + std::string(bad) + ":") == 0);
      CHECK(std::string(e.what()).find("18446744073709551615") != std::string::npos);
    }
  }
}
