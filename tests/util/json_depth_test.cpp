// Tests for util/json_depth: the nesting scan that runs before a JSON text is parsed.
#include <catch2/catch.hpp>

#include <string>

#include "util/json_depth.hpp"

using workbook::json_nests_deeper_than;

TEST_CASE("json_nests_deeper_than counts arrays and objects, not brackets inside strings", "[json_depth]") {
  CHECK_FALSE(json_nests_deeper_than(R"({"a":[1,{"b":[]}]})", 4));
  CHECK(json_nests_deeper_than(R"({"a":[1,{"b":[]}]})", 3));
  CHECK_FALSE(json_nests_deeper_than("", 0));
  CHECK_FALSE(json_nests_deeper_than("42", 0));
  // Brackets in strings, escaped quotes included, are text.
  CHECK_FALSE(json_nests_deeper_than(R"(["[[[[\"[[[[", "\\"])", 1));
  CHECK(json_nests_deeper_than(R"(["\\", [[]]])", 2));
  // Siblings do not add up; closing brackets beyond the opening ones do not go negative.
  CHECK_FALSE(json_nests_deeper_than("[[],[],[],[]]", 2));
  CHECK(json_nests_deeper_than("]]]][[[", 2));
  CHECK(json_nests_deeper_than(std::string(200000, '['), 64));
}
