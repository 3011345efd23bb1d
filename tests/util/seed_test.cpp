// Tests for util/seed: fresh seeds differ.
#include <catch2/catch.hpp>

#include <set>

#include "util/seed.hpp"

TEST_CASE("new_seed gives different 64-bit seeds, with high bits set", "[seed]") {
  std::set<std::uint64_t> seen;
  bool high = false;
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t s = workbook::new_seed();
    seen.insert(s);
    high = high || (s >> 32) != 0;
  }
  CHECK(seen.size() == 64);
  CHECK(high);
}
