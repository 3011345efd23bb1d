// Tests for profile/gpu_clocks: nvidia-smi's clock query read by column name, the
// throttle reasons decoded, and the warnings.
#include <catch2/catch.hpp>

#include "profile/gpu_clocks.hpp"
#include "profile_fixture.hpp"

using namespace workbook;

TEST_CASE("nvidia-smi's clock query is read by column name", "[profile]") {
  const auto c = parse_clock_query(wbtest::profile_fixture("nvidia_smi_clocks.csv"));
  REQUIRE(c);
  CHECK(c->sm_mhz == Approx(1980));
  CHECK(c->mem_mhz == Approx(3201));
  CHECK(c->max_sm_mhz == Approx(1980));
  CHECK(c->power_w == Approx(118.42));
  CHECK(c->pstate == "P0");
  REQUIRE(c->reasons);
  CHECK(*c->reasons == 0);
  CHECK(describe(*c) == "SM 1980 MHz (max 1980), memory 3201 MHz, 36 C, 118.42 W, P0; reasons: none");
  CHECK(clock_warnings(c, c).empty());
}

TEST_CASE("a throttled GPU (older field names) gives warnings", "[profile]") {
  const auto c = parse_clock_query(wbtest::profile_fixture("nvidia_smi_throttled.csv"));
  REQUIRE(c);
  REQUIRE(c->reasons);
  CHECK(clock_reason_names(*c->reasons) == std::vector<std::string>{"sw_power_cap", "sw_thermal"});
  const auto w = clock_warnings(std::nullopt, c);
  REQUIRE(w.size() == 2);
  CHECK(w[0].find("throttled after the run (sw_power_cap, sw_thermal)") != std::string::npos);
  CHECK(w[1].find("1110 MHz") != std::string::npos);
}

TEST_CASE("an idle GPU's low clock is not a warning, unreadable output is no reading", "[profile]") {
  const auto idle = parse_clock_query(
      "clocks.current.sm [MHz], clocks.max.sm [MHz], clocks_event_reasons.active\n345, 1980, 0x0000000000000001\n");
  REQUIRE(idle);
  CHECK(clock_warnings(idle, std::nullopt).empty());
  CHECK(clock_reason_names(0x1 | 0x200) == std::vector<std::string>{"gpu_idle", "other (0x200)"});
  CHECK_FALSE(parse_clock_query(""));
  CHECK_FALSE(parse_clock_query("Field \"clocks_event_reasons.active\" is not a valid field to query.\n"));
  CHECK_FALSE(parse_clock_query("clocks.current.sm [MHz], pstate\n[N/A], P8\n"));
  CHECK(clock_query_fields().size() == 3);
}
