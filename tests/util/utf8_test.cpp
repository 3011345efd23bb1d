// Tests for util/utf8: repairing text that goes into JSON.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "util/utf8.hpp"

#include "../support/text_checks.hpp"

using workbook::printable_text;
using workbook::is_valid_utf8;
using workbook::make_valid_utf8;
using workbook::valid_utf8;
using wbtest::kFFFD;

TEST_CASE("valid_utf8 keeps valid text and replaces each invalid byte with U+FFFD", "[utf8]") {
  CHECK(valid_utf8("") == "");
  CHECK(valid_utf8("plain ascii\n") == "plain ascii\n");
  CHECK(valid_utf8("4.6\xC3\x97 \xE2\x88\x92 \xF0\x9F\x98\x80") == "4.6\xC3\x97 \xE2\x88\x92 \xF0\x9F\x98\x80");
  CHECK(valid_utf8("a\xFF" "b") == "a" + kFFFD + "b");
  CHECK(valid_utf8("\x80") == kFFFD);                        // stray continuation byte
  CHECK(valid_utf8("\xC3") == kFFFD);                        // truncated at the end
  CHECK(valid_utf8("\xC3(") == kFFFD + "(");                 // truncated in the middle
  CHECK(valid_utf8("\xC0\xAF") == kFFFD + kFFFD);            // overlong '/'
  CHECK(valid_utf8("\xED\xA0\x80") == kFFFD + kFFFD + kFFFD);  // a UTF-16 surrogate
  CHECK(valid_utf8("\xF4\x90\x80\x80") == kFFFD + kFFFD + kFFFD + kFFFD);  // beyond U+10FFFF
  CHECK(std::string(valid_utf8(std::string("a\0b", 3))) == std::string("a\0b", 3));  // NUL is valid
  CHECK(is_valid_utf8(valid_utf8("\xFE\xFF\xC3\x97\xE2\x82")));
  CHECK_FALSE(is_valid_utf8("\xFF"));
}

TEST_CASE("make_valid_utf8 repairs every string in a JSON value, keys included, so it can be printed", "[utf8]") {
  nlohmann::json j = {{"out", "x\xFFy"}, {"list", {"ok", "\xC3"}}, {"n", 3}, {"nested", {{"k\xFE", "v"}}}};
  CHECK_THROWS_AS(j.dump(), nlohmann::json::type_error);
  make_valid_utf8(j);
  std::string text;
  REQUIRE_NOTHROW(text = j.dump());
  CHECK(j["out"] == "x" + kFFFD + "y");
  CHECK(j["list"][1] == kFFFD);
  CHECK(j["n"] == 3);
  CHECK(j["nested"].contains("k" + kFFFD));
  CHECK(nlohmann::json::parse(text) == j);
}

TEST_CASE("printable_text: escape sequences and other controls are shown as U+FFFD, never sent", "[utf8]") {
  CHECK(printable_text("plain, tab\tand\nlines") == "plain, tab\tand\nlines");
  CHECK(printable_text("a\r\nb") == "a\nb");
  CHECK(printable_text("\x1b]0;title\x07") == "\xEF\xBF\xBD]0;title\xEF\xBF\xBD");
  CHECK(printable_text("x\x7fy") == "x\xEF\xBF\xBDy");
  CHECK(printable_text("c1 \xc2\x9b and \xc2\xa0 kept") == "c1 \xEF\xBF\xBD and \xc2\xa0 kept");
  CHECK(printable_text("bad \xff") == "bad \xEF\xBF\xBD");
  CHECK(printable_text("\xe2\x9c\x93 ok") == "\xe2\x9c\x93 ok");
}
