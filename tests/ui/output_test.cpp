// print_json and print_result (ui/output.hpp): one JSON value or the text, on stdout.
#include <catch2/catch.hpp>

#include <cstdio>

#include "../support/stdout_of.hpp"
#include "ui/output.hpp"

using namespace workbook;
using wbtest::stdout_of;

namespace {

struct Result {
  int n = 0;
};

}  // namespace

TEST_CASE("print_json: pretty, a trailing newline, bytes that are not UTF-8 as U+FFFD", "[output]") {
  CHECK(stdout_of([] { print_json({{"a", 1}}); }) == "{\n  \"a\": 1\n}\n");
  CHECK(stdout_of([] { print_json(std::string("x\xff")); }) == "\"x\xEF\xBF\xBD\"\n");
}

TEST_CASE("print_result hands the result to its JSON or its text printer, never both", "[output]") {
  const Result r{7};
  const auto to_json = [](const Result& x) { return nlohmann::json{{"n", x.n}}; };
  const auto print_text = [](const Result& x, const Style& s) { std::printf("%s is %d\n", s.bold("n").c_str(), x.n); };
  CHECK(stdout_of([&] { print_result(Output{true, Style(false)}, r, to_json, print_text); }) == "{\n  \"n\": 7\n}\n");
  CHECK(stdout_of([&] { print_result(Output{false, Style(false)}, r, to_json, print_text); }) == "n is 7\n");
  // The text printer gets the Output's style.
  CHECK(stdout_of([&] { print_result(Output{false, Style(true)}, r, to_json, print_text); }) == "\x1b[1mn\x1b[0m is 7\n");
  // A stream (watch --json): each result on one line.
  Output lines{true, Style(false)};
  lines.json_lines = true;
  CHECK(stdout_of([&] { print_result(lines, r, to_json, print_text); }) == "{\"n\":7}\n");
}

TEST_CASE("output_for: JSON turns colour off whatever the terminal allows and text keeps the terminal style", "[output]") {
  CHECK(output_for(true, Style(true)).json);
  CHECK_FALSE(output_for(true, Style(true)).style.color());
  CHECK_FALSE(output_for(false, Style(true)).json);
  CHECK(output_for(false, Style(true)).style.color());
}

TEST_CASE("print_json_line: one line, bytes that are not UTF-8 as U+FFFD", "[output]") {
  CHECK(stdout_of([] { print_json_line({{"a", {1, 2}}}); }) == "{\"a\":[1,2]}\n");
  CHECK(stdout_of([] { print_json_line(std::string("x\xff")); }) == "\"x\xEF\xBF\xBD\"\n");
}
