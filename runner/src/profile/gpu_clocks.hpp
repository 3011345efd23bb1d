// The GPU's clocks and the reasons they are held down, asked of nvidia-smi before and
// after a run, as nvbench does: a figure measured while the GPU throttled (power cap,
// heat, a laptop on battery) is not the GPU's figure, and the report says so.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace workbook {

struct GpuClocks {
  std::optional<double> sm_mhz, mem_mhz, max_sm_mhz, max_mem_mhz, temp_c, power_w;
  std::optional<std::uint64_t> reasons;  // the clocks event (throttle) reasons bit mask
  std::string pstate;                    // "P0"
};

// The nvidia-smi query fields, newest names first: drivers from R535 name the reasons
// clocks_event_reasons, older ones clocks_throttle_reasons (a field a driver does not
// know fails the whole query, so each list is tried in turn).
const std::vector<std::string>& clock_query_fields();

// Parses `nvidia-smi --query-gpu=<fields> --format=csv,nounits` (header row, then one
// row per GPU; the first GPU is read). Columns are found by name; "[N/A]" is absent.
std::optional<GpuClocks> parse_clock_query(const std::string& csv);

// Runs nvidia-smi (each field list in turn); nullopt when it is missing or fails.
std::optional<GpuClocks> query_gpu_clocks();

// The names of the set reason bits: gpu_idle, applications_clocks, sw_power_cap,
// hw_slowdown, sync_boost, sw_thermal, hw_thermal, hw_power_brake, display_clocks.
std::vector<std::string> clock_reason_names(std::uint64_t mask);
// The bits that mean the GPU is being slowed against its will (power, heat, hardware).
inline constexpr std::uint64_t kThrottleReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

// "SM 1980 MHz (max 1980), memory 3201 MHz, 41 C, 121 W, P0; reasons: none"
std::string describe(const GpuClocks& c);

// Warnings for the report: the GPU throttled (power, thermal, hardware slowdown) before
// or after the run, or its SM clock was below 80 % of its maximum while not idle.
std::vector<std::string> clock_warnings(const std::optional<GpuClocks>& before, const std::optional<GpuClocks>& after);

}  // namespace workbook
