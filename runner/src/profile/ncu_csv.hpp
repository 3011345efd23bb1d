// Nsight Compute's metrics as lab figures: the command line the runner runs, and the
// wide CSV it prints with `--csv --page raw` (a header row of column names, a row of
// units, then one row per profiled kernel launch), read by column name.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "content/manifest.hpp"

namespace workbook {

struct NcuTable {
  std::vector<std::string> columns;               // "ID", "Kernel Name", "Block Size", metric names ...
  std::vector<std::string> units;                 // same length (empty where none)
  std::vector<std::vector<std::string>> rows;     // one per launch
  std::vector<std::string> messages;              // ==PROF== / ==ERROR== / ==WARNING== lines
  std::vector<std::string> errors;                // the text of the ==ERROR== lines, in order
  bool permission_denied = false;                 // ERR_NVGPUCTRPERM: no access to GPU counters
  bool no_kernels = false;                        // "No kernels were profiled"

  int column(const std::string& name) const;      // -1 when absent
  std::string kernel(std::size_t row) const;      // the "Kernel Name" cell
  std::string block(std::size_t row) const;       // "32,8,1" from "(32, 8, 1)"
};

// The metrics asked for by default: sectors per request (loads and stores), DRAM bytes,
// achieved and theoretical occupancy, shared-memory bank conflicts, the kernel's time.
const std::vector<std::string>& default_ncu_metrics();

// Parses ncu's output (its own lines, the program's lines and the CSV may be mixed:
// CSV lines are those that start with a quote). Never throws.
NcuTable parse_ncu_csv(const std::string& text);

// Why ncu failed, from its ==ERROR== lines: the first one, joined with the next when it
// ends with ':' ("An error was reported by the driver:" then the driver's reason, as on
// the H200 when another profiler held the counters); "" without errors.
std::string ncu_error_reason(const NcuTable& t);

// Columns ncu adds to every raw page whatever was asked: the device's attributes, the
// launch settings, the link and NUMA topology and its own replay counters.
bool ncu_housekeeping_column(const std::string& column);

// "1,024" -> 1024, "4.00" -> 4, "n/a" or "" -> nullopt.
std::optional<double> ncu_number(const std::string& cell);

// The value of an ncu figure (MetricSource with tool "ncu") over the matching launches.
std::optional<double> ncu_figure(const NcuTable& t, const MetricSource& source);

// The `--ncu` argument split: names holding "__" or "." are metrics, the rest sections.
struct NcuSelection {
  std::vector<std::string> metrics, sections;
};
NcuSelection parse_ncu_selection(const std::string& arg);

// The ncu command line (before the program's own argv): CSV, raw page, no clock control,
// the log in `log_file`; the metrics and sections asked for; `kernels` (base names) as a
// -k filter when not empty.
// How many launches `--ncu` profiles at most (ncu's --launch-count).
inline constexpr int kNcuLaunchCap = 300;

std::vector<std::string> ncu_command(const std::string& ncu, const NcuSelection& what,
                                     const std::vector<std::string>& kernels, const std::string& log_file);

}  // namespace workbook
