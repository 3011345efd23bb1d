// Tests for content/lab_id: lab and module references, and the lab-name character set.
#include <catch2/catch.hpp>

#include <string>

#include "content/lab_id.hpp"
#include "util/error.hpp"

using workbook::is_valid_name;
using workbook::LabRef;
using workbook::parse_lab_ref;
using workbook::parse_lab_ref_or_throw;

TEST_CASE("a full lab reference gives the module number and the lab name", "[lab_id]") {
  auto ref = parse_lab_ref("module14/tiled_gemm");
  REQUIRE(ref);
  CHECK(ref->module == 14);
  CHECK(ref->name == "tiled_gemm");
  CHECK(ref->module_id() == "module14");
  CHECK(ref->id() == "module14/tiled_gemm");
}

TEST_CASE("a module alone may be written module07, 7, 07 or m7", "[lab_id]") {
  for (const char* text : {"module07", "7", "07", "m7", "m07"}) {
    INFO(text);
    auto ref = parse_lab_ref(text);
    REQUIRE(ref);
    CHECK(ref->module == 7);
    CHECK(ref->name.empty());
    CHECK(ref->id() == "module07");
  }
  auto short_form = parse_lab_ref("3/reduce_sum");
  REQUIRE(short_form);
  CHECK(short_form->id() == "module03/reduce_sum");
}

TEST_CASE("module numbers outside 1..24 are rejected", "[lab_id]") {
  CHECK_FALSE(parse_lab_ref("0"));
  CHECK_FALSE(parse_lab_ref("module00"));
  CHECK_FALSE(parse_lab_ref("module25"));
  CHECK_FALSE(parse_lab_ref("99"));
  CHECK_FALSE(parse_lab_ref("module014"));  // at most two digits
  CHECK(parse_lab_ref("module24"));
  CHECK(parse_lab_ref("module01"));
}

TEST_CASE("malformed references are rejected, so an id can never name a path", "[lab_id]") {
  for (const char* text : {"", "m", "module", "abc", "module14x", "+14", " 14", "module14/", "module14/Tiled",
                           "module14/../etc", "module14/a/b", "module14/9lives", "module14/_x", "module14/a-b",
                           "module14/tiled gemm", "../module14/x", "/module14/x"}) {
    INFO("'" << text << "'");
    CHECK_FALSE(parse_lab_ref(text));
  }
}

TEST_CASE("lab names are [a-z][a-z0-9_]*, 1 to 64 characters", "[lab_id]") {
  CHECK(is_valid_name("a"));
  CHECK(is_valid_name("tiled_gemm2"));
  CHECK(is_valid_name(std::string(64, 'a')));
  CHECK_FALSE(is_valid_name(std::string(65, 'a')));
  CHECK_FALSE(is_valid_name(""));
  CHECK_FALSE(is_valid_name("2x"));
  CHECK_FALSE(is_valid_name("Upper"));
  CHECK_FALSE(is_valid_name("dot.cu"));
  CHECK_FALSE(is_valid_name("a/b"));
}

TEST_CASE("module_id pads to two digits", "[lab_id]") {
  CHECK(workbook::module_id(3) == "module03");
  CHECK(workbook::module_id(24) == "module24");
  CHECK(LabRef{5, "x"}.id() == "module05/x");
}

TEST_CASE("parse_lab_ref_or_throw names the bad text and shows the accepted forms", "[lab_id]") {
  CHECK(parse_lab_ref_or_throw("14/tiled_gemm").id() == "module14/tiled_gemm");
  try {
    parse_lab_ref_or_throw("module99/x");
    FAIL("no exception");
  } catch (const workbook::UsageError& e) {
    CHECK(std::string(e.what()).find("module99/x") != std::string::npos);
    CHECK(e.hint().find("module14/tiled_gemm") != std::string::npos);
    CHECK(e.code() == workbook::Exit::usage);
  }
}
