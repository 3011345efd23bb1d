// Tests for util/text: trimming, choices, NAME=VALUE pairs and whole names.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "util/text.hpp"

using workbook::choice_index;
using workbook::ChoiceInput;
using workbook::match_choice;
using workbook::other_reading_of_choice;
using workbook::names_word;
using workbook::split_assignment;
using workbook::trim;

TEST_CASE("trim removes spaces, tabs and line ends at both ends only", "[text]") {
  CHECK(trim("  a b \t\r\n") == "a b");
  CHECK(trim("") == "");
  CHECK(trim(" \t\n ") == "");
  CHECK(trim("x") == "x");
}

TEST_CASE("match_choice matches the text case-insensitively or the 1-based number", "[text]") {
  std::vector<std::string> c{"memory", "compute", "Latency bound"};
  CHECK(match_choice("memory", c) == std::optional<std::string>("memory"));
  CHECK(match_choice("  COMPUTE ", c) == std::optional<std::string>("compute"));
  CHECK(match_choice("latency BOUND", c) == std::optional<std::string>("Latency bound"));
  CHECK(match_choice("1", c) == std::optional<std::string>("memory"));
  CHECK(match_choice("3", c) == std::optional<std::string>("Latency bound"));
  CHECK(match_choice(" 2 ", c) == std::optional<std::string>("compute"));
  CHECK_FALSE(match_choice("0", c));
  CHECK_FALSE(match_choice("4", c));
  CHECK_FALSE(match_choice("-1", c));
  CHECK_FALSE(match_choice("mem", c));  // no prefixes: they would be ambiguous
  CHECK_FALSE(match_choice("", c));
  CHECK_FALSE(match_choice("99999", c));
  CHECK_FALSE(match_choice("1", {}));
}

TEST_CASE("match_choice (a --predict flag): when choices are numbers, the exact text wins over the position, and #N "
          "is always the position",
          "[text]") {
  std::vector<std::string> c{"4", "1", "2"};
  CHECK(match_choice("1", c) == std::optional<std::string>("1"));
  CHECK(match_choice("3", c) == std::optional<std::string>("2"));
  CHECK(match_choice("#1", c) == std::optional<std::string>("4"));
  CHECK(match_choice("# 3", c) == std::optional<std::string>("2"));
  CHECK_FALSE(match_choice("#4", c));
}

TEST_CASE("choice_index at a prompt that asks for a number: the number is the option's position", "[text]") {
  // module16/streams_pipeline's options: typing 2 means the second option, 4.
  const std::vector<std::string> c{"2", "4", "8", "16"};
  CHECK(choice_index("2", c, ChoiceInput::prompt) == std::optional<std::size_t>(1));
  CHECK(choice_index(" 4 ", c, ChoiceInput::prompt) == std::optional<std::size_t>(3));
  CHECK(choice_index("16", c, ChoiceInput::prompt) == std::optional<std::size_t>(3));  // not a position: its text
  CHECK(choice_index("2", c, ChoiceInput::flag) == std::optional<std::size_t>(0));
  const std::vector<std::string> words{"memory", "compute"};
  CHECK(choice_index("Compute", words, ChoiceInput::prompt) == std::optional<std::size_t>(1));
  CHECK_FALSE(choice_index("3", words, ChoiceInput::prompt));
}

TEST_CASE("other_reading_of_choice finds an answer that is one option's text and another's number", "[text]") {
  const std::vector<std::string> c{"2", "4", "8"};
  CHECK(other_reading_of_choice("2", c) == std::optional<std::size_t>(1));  // option 1's text, option 2's number
  CHECK_FALSE(other_reading_of_choice("8", c));                              // no option 8
  CHECK_FALSE(other_reading_of_choice("memory", {"memory", "compute"}));
  CHECK_FALSE(other_reading_of_choice("1", {"1", "5"}));                     // its own position: no doubt
}

TEST_CASE("split_assignment splits NAME=VALUE at the first '=' and trims both", "[text]") {
  using Pair = std::pair<std::string, std::string>;
  CHECK(split_assignment("N=4096") == std::optional<Pair>(Pair{"N", "4096"}));
  CHECK(split_assignment(" N = 4096 ") == std::optional<Pair>(Pair{"N", "4096"}));
  CHECK(split_assignment("expr=a=b") == std::optional<Pair>(Pair{"expr", "a=b"}));
  CHECK(split_assignment("N=") == std::optional<Pair>(Pair{"N", ""}));
  CHECK(split_assignment("kind=a sum") == std::optional<Pair>(Pair{"kind", "a sum"}));
  CHECK_FALSE(split_assignment("N"));
  CHECK_FALSE(split_assignment("=5"));
  CHECK_FALSE(split_assignment(""));
}

TEST_CASE("split_assignment: a name made only of spaces is an empty name, so no pair", "[text]") {
  CHECK_FALSE(split_assignment(" =5"));
  CHECK_FALSE(split_assignment("\t = 5"));
}

TEST_CASE("first and last non-blank lines, trimmed", "[text]") {
  CHECK(workbook::first_nonblank_line("\n  \n  first \nsecond\n") == "first");
  CHECK(workbook::last_nonblank_line("first\n second \n\n \t\n") == "second");
  CHECK(workbook::last_nonblank_line("only") == "only");
  CHECK(workbook::first_nonblank_line("") == "");
  CHECK(workbook::last_nonblank_line(" \n\n") == "");
}

TEST_CASE("names_word finds a name only where it stands whole", "[text]") {
  CHECK(names_word("dram", "dram"));
  CHECK(names_word("naive_reads / 1e6", "naive_reads"));
  CHECK(names_word("a+dram*2", "dram"));
  CHECK(names_word("dram_ratio dram", "dram"));  // a later whole occurrence counts
  CHECK_FALSE(names_word("dram_ratio", "dram"));
  CHECK_FALSE(names_word("xdram", "dram"));
  CHECK_FALSE(names_word("dram2", "dram"));
  CHECK_FALSE(names_word("", "dram"));
  CHECK_FALSE(names_word("dram", ""));
}
