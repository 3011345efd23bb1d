// Tests for learn/input and learn/answer_check on very long lines (issue 10): a line is
// read up to a cap and the rest discarded; checking a long answer never crashes.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "learn/answer_check.hpp"
#include "learn/input.hpp"

using workbook::learn::check_answer;
using workbook::learn::kMaxLineBytes;
using workbook::learn::read_capped_line;

TEST_CASE("read_capped_line keeps short lines whole and cuts long ones at the cap", "[input]") {
  std::istringstream in("short\n" + std::string(50000, '7') + "\nnext\nlast without newline");
  auto a = read_capped_line(in);
  REQUIRE(a);
  CHECK(a->text == "short");
  CHECK_FALSE(a->truncated);
  auto b = read_capped_line(in);
  REQUIRE(b);
  CHECK(b->truncated);
  CHECK(b->length == 50000);
  CHECK(b->text == std::string(kMaxLineBytes, '7'));
  auto c = read_capped_line(in);  // the rest of the long line was discarded, not read as a line
  REQUIRE(c);
  CHECK(c->text == "next");
  auto d = read_capped_line(in);
  REQUIRE(d);
  CHECK(d->text == "last without newline");
  CHECK_FALSE(read_capped_line(in));
}

TEST_CASE("read_capped_line never cuts a UTF-8 character in two", "[input]") {
  // "×" is two bytes; at a cap of 5 the line "ab××" (6 bytes) keeps "ab×" (4 bytes).
  std::istringstream in("ab\xC3\x97\xC3\x97\n");
  auto a = read_capped_line(in, 5);
  REQUIRE(a);
  CHECK(a->truncated);
  CHECK(a->text == "ab\xC3\x97");
}

// Answers reach check_answer through LearnerInput, one line of at most kMaxLineBytes
// (4,096); twice that is more than any answer can be. (At 50,000 characters this case
// took 106 s under ASan in ctest, 15 s of it for "2^(" nested 12,500 deep: the reader
// retries at every '(' and each try goes kMaxDepth deep, so its cost is length x 64.)
TEST_CASE("checking an answer twice as long as a line can be does not crash", "[answer]") {
  const std::size_t n = 2 * kMaxLineBytes;
  const std::vector<workbook::NumericAnswer> one{{"n", 42, "", 0.01, std::nullopt}};
  const std::vector<workbook::NumericAnswer> two{{"a", 1, "", 0.01, std::nullopt}, {"b", 2, "", 0.01, std::nullopt}};
  for (const std::string& text : {std::string(n, '7'), std::string(n, ' ') + "8", std::string(n, 'a'),
                                  "a=" + std::string(n, '1'), std::string(n / 2, '1') + std::string(n / 2, ','),
                                  "1." + std::string(n, '0'), std::string(n, '='), std::string(n, '('),
                                  std::string(n, '-') + "1", [n] {
                                    std::string s;
                                    while (s.size() < n) s += "2^(";
                                    return s;
                                  }()}) {
    INFO(text.substr(0, 10) << "... (" << text.size() << " characters)");
    CHECK_NOTHROW(check_answer(text, one));
    CHECK_NOTHROW(check_answer(text, two));
  }
}
