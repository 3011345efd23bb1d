// Reading an experiment's metrics from a command's output: each metric's pattern is
// searched line by line (every match of a per-step metric is a point of its curve, the
// last match of a once metric is its value), then each run's figure is summarised and the
// repeats of a variant give a median and a spread. Patterns are the learner's, so they
// are matched by RE2 (linear in the line, never backtracking), and the output is read as
// a stream while the command runs: no cap on its size, only on what is kept. Pure.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiment/experiment_spec.hpp"

namespace workbook {

// The values each metric's pattern captured, in output order (a capture that is not a
// number is skipped and counted).
struct MetricReadings {
  std::map<std::string, std::vector<double>> values;
  std::map<std::string, int> not_numbers;
  // Values past the most kept of a metric (kMostValues): each replaced the last one kept,
  // so a once metric and `summary: last` still read the last match.
  std::map<std::string, long long> unread;
  long long cut_lines = 0;  // lines longer than kLongestLine, read up to that length only
};

// The most values kept of one metric, and the longest line read whole.
inline constexpr std::size_t kMostValues = std::size_t{1} << 20;
inline constexpr std::size_t kLongestLine = std::size_t{64} << 10;

// "" when `pattern` is a pattern RE2 reads with exactly one capturing group, else what is
// wrong with it and what to write instead.
std::string pattern_problem(const std::string& pattern);

// An output read piece by piece as it arrives (a line may span pieces): feed() each
// piece, finish() at the end, then readings(). Patterns that do not compile are matched
// by nothing (load_experiment refuses them first).
class MetricStream {
 public:
  explicit MetricStream(const std::vector<ExperimentMetric>& metrics);
  ~MetricStream();
  MetricStream(MetricStream&&) noexcept;
  MetricStream& operator=(MetricStream&&) noexcept;
  void feed(std::string_view piece);
  void finish();
  const MetricReadings& readings() const { return readings_; }

 private:
  void read_line(std::string_view line);
  struct Patterns;
  std::vector<ExperimentMetric> metrics_;
  std::unique_ptr<Patterns> patterns_;
  std::string line_;
  bool line_cut_ = false;
  MetricReadings readings_;
};

// Readings of stdout followed by those of stderr, as if the two were one output.
MetricReadings join_readings(const MetricReadings& first, const MetricReadings& second);

// One run's figure of a metric: per step, its summary of the values after `skip`; once,
// the last value. nullopt when there is none.
std::optional<double> run_figure(const ExperimentMetric& metric, const std::vector<double>& values);

// The repeats of a variant, summarised.
struct Spread {
  double median = 0, min = 0, max = 0;
  int samples = 0;
  // (max - min) / |median|; 0 for one sample or a zero median.
  double relative() const;
};
std::optional<Spread> spread_of(std::vector<double> values);

// What to say when a metric's pattern matched nothing: the pattern, the metric, and the
// first lines of the output (at most `lines`, each cut at 160 characters), or that the
// output was empty.
std::string no_match_message(const ExperimentMetric& metric, const std::string& where, const std::string& output,
                             int lines = 8);

}  // namespace workbook
