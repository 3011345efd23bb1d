// Reading a lab's results file (JSON lines, docs/lab-contract.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace workbook {

struct ReportedMetric {
  std::string name, unit;
  double value = 0;
  std::optional<double> min, max, spread;
  std::optional<int> samples;
};

struct ReportedCheck {
  std::string name;
  bool pass = false;
  std::optional<double> value, limit;
  std::string detail;
  bool skipped = false;  // the lab could not make this check in this run (e.g. under a
                         // profiler that replays kernels): reported, neither pass nor fail
};

struct LabResults {
  std::optional<std::string> device_name, device_cc;
  std::map<std::string, double> params;
  std::vector<ReportedMetric> metrics;  // in the order reported; a repeated name keeps the last
  std::vector<ReportedCheck> checks;
  std::vector<std::string> errors;      // "where: message"
  std::vector<std::string> protocol_problems;  // lines that could not be understood, limits reached
  // Records that contradict each other or the run: a check or metric reported more than
  // once, more than one `start`, a `start` seed that is not the seed the runner passed.
  // Grading turns them into a failed `results_consistent` check.
  std::vector<std::string> inconsistencies;
  std::optional<std::uint64_t> seed;    // the (first) `start` record's seed
  bool ended = false;                   // the `end` line was written
  bool over_limit = false;              // the file was longer than kMaxResultsBytes: the rest unread
  bool end_pass = false;

  const ReportedMetric* metric(const std::string& name) const;
  const ReportedCheck* check(const std::string& name) const;
};

// What is read of a results file at most; what lies beyond is not read, and a protocol
// problem says so (a lab that writes this much is broken, and must not cost the runner
// its memory).
inline constexpr std::size_t kMaxResultsBytes = std::size_t{16} << 20;  // 16 MB
inline constexpr std::size_t kMaxResultsRecords = 100000;
inline constexpr std::size_t kMaxResultsDepth = 64;  // nesting of one record (a real one: 2)
// Problems listed one by one; beyond, one line counts the rest.
inline constexpr std::size_t kMaxProblemLines = 10;

// Parses the results text; never throws (bad lines become protocol_problems).
// `expected_seed`: the seed the runner passed; a `start` record with another one is an
// inconsistency (none given: not checked).
LabResults parse_results(const std::string& text, std::optional<std::uint64_t> expected_seed = std::nullopt);
// Reads at most kMaxResultsBytes of the file (a missing file reads as no results).
LabResults read_results_file(const std::filesystem::path& file,
                             std::optional<std::uint64_t> expected_seed = std::nullopt);

}  // namespace workbook
