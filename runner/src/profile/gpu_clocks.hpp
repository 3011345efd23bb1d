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
  std::optional<double> power_limit_w;   // the enforced power limit ("700.00 W" on the H200)
  std::optional<std::uint64_t> reasons;  // the clocks event (throttle) reasons bit mask
  std::string pstate;                    // "P0"
  std::string driver;                    // "580.159.04"; "" when not asked or not given
  std::string cuda_version;              // the newest CUDA the driver supports, "13.0"; "" likewise
};

// What names the machine a run measured on, beyond the GPU: stored per run in table
// run_machine (journal/schema.cpp) beside the clocks of run_gpu_state.
struct MachineState {
  std::string driver;        // the NVIDIA driver, "580.159.04" (from the clocks query)
  std::string cuda_driver;   // the newest CUDA that driver supports, "13.0"
  std::string toolkit;       // the CUDA toolkit (nvcc release) that built the lab, "13.0"
  std::string power_source;  // "mains", "battery", or "" when the machine reports neither
                             // (a server or desktop without /sys/class/power_supply entries)
  bool empty() const { return driver.empty() && cuda_driver.empty() && toolkit.empty() && power_source.empty(); }
};

// Whether the machine runs on mains or battery, from Linux's power supplies under `root`
// (/sys/class/power_supply): "mains" when a supply of type Mains (or USB, a laptop's
// USB-C charger) is online, else "battery" when there is a Battery, else "" (most
// servers and desktops report no supply at all).
std::string read_power_source(const std::string& root = "/sys/class/power_supply");

// The nvidia-smi query fields, newest names first: the readings and the driver's version.
// Drivers from R535 name the reasons clocks_event_reasons, older ones
// clocks_throttle_reasons. A field a driver does not know fails the whole query, so each
// list is tried in turn (one nvidia-smi call on a current driver). The driver's CUDA
// version is no query field of any nvidia-smi (580 answers "Field \"cuda_version\" is not
// a valid field to query."): it comes from the driver library (driver_cuda_version).
const std::vector<std::string>& clock_query_fields();

// Parses `nvidia-smi --query-gpu=<fields> --format=csv,nounits` (header row, then one
// row per GPU; the first GPU is read). Columns are found by name; "[N/A]" is absent.
std::optional<GpuClocks> parse_clock_query(const std::string& csv);

// Runs nvidia-smi (each field list in turn); nullopt when it is missing or fails. The
// reading's cuda_version is driver_cuda_version()'s, asked once per process.
std::optional<GpuClocks> query_gpu_clocks();

// The newest CUDA the installed driver supports, asked of the driver library itself
// (libcuda.so.1's cuDriverGetVersion, which needs no cuInit and no toolkit): "13.0", or ""
// when there is no driver. format_cuda_version turns the driver's integer (1000 x major +
// 10 x minor: 13000, 12020) into "13.0", "12.2"; "" for a value that is no version.
std::string driver_cuda_version();
std::string format_cuda_version(int version);

// The names of the set reason bits: gpu_idle, applications_clocks, sw_power_cap,
// hw_slowdown, sync_boost, sw_thermal, hw_thermal, hw_power_brake, display_clocks.
std::vector<std::string> clock_reason_names(std::uint64_t mask);
// The bits that mean the GPU is being slowed against its will (power, heat, hardware).
inline constexpr std::uint64_t kThrottleReasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

// "SM 1980 MHz (max 1980), memory 3201 MHz, 41 C, 121 W (limit 700 W), P0; reasons: none"
std::string describe(const GpuClocks& c);

// Warnings for the report: the GPU throttled (power, thermal, hardware slowdown) before
// or after the run, or its SM clock was below 80 % of its maximum while not idle.
std::vector<std::string> clock_warnings(const std::optional<GpuClocks>& before, const std::optional<GpuClocks>& after);

}  // namespace workbook
