// Tests for profile/gpu_clocks: nvidia-smi's clock query read by column name, the
// throttle reasons decoded, and the warnings.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include "profile/gpu_clocks.hpp"
#include "profile_fixture.hpp"
#include "../support/temp_dir.hpp"

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

TEST_CASE("nvidia-smi has no cuda_version field: no list asks for it, the driver library answers", "[profile]") {
  // Recorded on the H200 (driver 580.159.04): nvidia-smi's whole answer to a field list with
  // cuda_version, with and without units (exit status 2): no reading at all. So no list
  // asks for it (each refused list would cost one more nvidia-smi call per reading).
  const std::string refused = wbtest::profile_fixture("nvidia_smi_h200_cuda_version.txt");
  CHECK(refused.find("Field \"cuda_version\" is not a valid field to query.") == 0);
  CHECK_FALSE(parse_clock_query(refused));
  for (const auto& f : clock_query_fields()) CHECK(f.find("cuda_version") == std::string::npos);
  CHECK(clock_query_fields().front().find("power.limit,pstate,driver_version") != std::string::npos);
  // The driver's integer: 1000 x major + 10 x minor.
  CHECK(format_cuda_version(13000) == "13.0");
  CHECK(format_cuda_version(12020) == "12.2");
  CHECK(format_cuda_version(11080) == "11.8");
  CHECK(format_cuda_version(0).empty());
  CHECK(format_cuda_version(-1).empty());
  // Without a driver (CI) the library is absent and the answer is empty, never a guess;
  // with one it has the form "13.0".
  const std::string here = driver_cuda_version();
  CHECK((here.empty() || std::regex_match(here, std::regex("[0-9]+\\.[0-9]"))));
  // The answer to the first list, recorded on the H200 (session 7, machine_line_check.sh):
  // two calls a moment apart, so the power draw differs.
  struct Recorded {
    const char* file;
    double power_w;
    const char* described;
  };
  for (const Recorded& r :
       {Recorded{"nvidia_smi_h200_machine.csv", 152.55,
                 "SM 1980 MHz (max 1980), memory 3201 MHz, 39 C, 152.55 W (limit 700 W), P0; reasons: none"},
        Recorded{"nvidia_smi_h200_units.csv", 152.19,
                 "SM 1980 MHz (max 1980), memory 3201 MHz, 39 C, 152.19 W (limit 700 W), P0; reasons: none"}}) {
    INFO(r.file);
    const auto c = parse_clock_query(wbtest::profile_fixture(r.file));
    REQUIRE(c);
    CHECK(c->sm_mhz == Approx(1980));
    CHECK(c->mem_mhz == Approx(3201));
    CHECK(c->power_w == Approx(r.power_w));
    CHECK(c->power_limit_w == Approx(700));  // "700.00 W" with units, "700.00" without
    CHECK(c->reasons == std::uint64_t{0});
    CHECK(c->pstate == "P0");
    CHECK(c->driver == "580.159.04");
    CHECK(c->cuda_version.empty());  // asked of the driver library, not of nvidia-smi
    CHECK(describe(*c) == r.described);
  }
}

TEST_CASE("the clock query also reads the power limit, driver and CUDA version where a driver has them", "[profile]") {
  // An older driver's answer has neither: empty, never guessed.
  const auto old = parse_clock_query(wbtest::profile_fixture("nvidia_smi_throttled.csv"));
  REQUIRE(old);
  CHECK_FALSE(old->power_limit_w);
  CHECK(old->driver.empty());
  CHECK(old->cuda_version.empty());
  const auto na = parse_clock_query("clocks.current.sm [MHz], power.limit [W], driver_version, cuda_version\n1410, [N/A], 535.54.03, [N/A]\n");
  REQUIRE(na);
  CHECK_FALSE(na->power_limit_w);
  CHECK(na->driver == "535.54.03");
  CHECK(na->cuda_version.empty());
  const auto known = parse_clock_query("clocks.current.sm [MHz], cuda_version\n1980, 13.0\n");
  REQUIRE(known);
  CHECK(known->cuda_version == "13.0");
  // One query asks for everything; each fallback keeps the clocks, pstate and power draw.
  CHECK(clock_query_fields().front().find("power.limit") != std::string::npos);
  CHECK(clock_query_fields().front().find("driver_version") != std::string::npos);
  for (const auto& f : clock_query_fields()) CHECK(f.find("clocks.sm,clocks.mem") == 0);
}

TEST_CASE("the power source: mains, battery, or nothing reported", "[profile]") {
  wbtest::TempDir dir;
  auto supply = [&](const std::string& name, const std::string& type, const std::string& online) {
    std::filesystem::create_directories(dir.path / name);
    dir.write(name + "/type", type + "\n");
    if (!online.empty()) dir.write(name + "/online", online + "\n");
  };
  CHECK(read_power_source((dir.path / "absent").string()).empty());  // no /sys/class/power_supply
  CHECK(read_power_source(dir.path.string()).empty());               // a server: no supply at all
  supply("ucsi-source-psy-1", "USB", "0");                           // a desktop's idle USB-C port
  CHECK(read_power_source(dir.path.string()).empty());
  supply("BAT0", "Battery", "");
  supply("AC", "Mains", "0");
  CHECK(read_power_source(dir.path.string()) == "battery");
  supply("AC", "Mains", "1");
  CHECK(read_power_source(dir.path.string()) == "mains");
}
