// Tests for util/closest_word: the name a typo was most likely meant to be.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "util/closest_word.hpp"

using workbook::closest_word;

TEST_CASE("closest_word: a typo within two edits, a swap or a prefix, and nothing for a stranger", "[util][closest_word]") {
  const std::vector<std::string> labs{"tiled_gemm", "conv1d", "tiled_gemm_sizes"};
  CHECK(closest_word("tiled_gem", labs) == "tiled_gemm");       // one letter short
  CHECK(closest_word("tiledgemm", labs) == "tiled_gemm");       // one left out
  CHECK(closest_word("cnov1d", labs) == "conv1d");              // two neighbours swapped: one edit
  CHECK(closest_word("tiled_gemm_size", labs) == "tiled_gemm_sizes");
  CHECK(closest_word("co", labs) == "conv1d");                  // a name the word begins
  CHECK_FALSE(closest_word("no_such_lab", labs).has_value());  // too far from every name
  CHECK_FALSE(closest_word("", labs).has_value());
  CHECK_FALSE(closest_word("x", {"y"}).has_value());  // one edit, but the whole of a one-letter name
}
