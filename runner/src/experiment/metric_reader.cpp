// Reading metrics from output (see metric_reader.hpp).
#include "experiment/metric_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <regex>
#include <sstream>

#include "util/utf8.hpp"

namespace workbook {

namespace {

// std::regex recurses per character: a line of garbage megabytes long must not blow the
// stack, and no training log line is near this long.
constexpr std::size_t kLongestLine = 4096;

std::optional<double> number_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // A progress bar rewrites its line with '\r': each piece is a line of its own.
    std::size_t start = 0;
    for (std::size_t cr; (cr = line.find('\r', start)) != std::string::npos; start = cr + 1)
      out.push_back(line.substr(start, std::min(cr - start, kLongestLine)));
    out.push_back(line.substr(start, kLongestLine));
  }
  return out;
}

}  // namespace

MetricReadings read_metrics(const std::vector<ExperimentMetric>& metrics, const std::string& output) {
  MetricReadings r;
  std::vector<std::regex> patterns;
  for (const auto& m : metrics) {
    patterns.emplace_back(m.pattern);
    r.values[m.name];
  }
  for (const auto& line : lines_of(output)) {
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      for (std::sregex_iterator it(line.begin(), line.end(), patterns[i]), end; it != end; ++it) {
        if (auto v = number_of((*it)[1].str())) r.values[metrics[i].name].push_back(*v);
        else ++r.not_numbers[metrics[i].name];
      }
    }
  }
  return r;
}

std::optional<double> run_figure(const ExperimentMetric& metric, const std::vector<double>& all) {
  if (all.empty()) return std::nullopt;
  if (metric.per == MetricPer::once) return all.back();
  const std::size_t skip = std::min(all.size() - 1, static_cast<std::size_t>(metric.skip));  // keep one at least
  std::vector<double> v(all.begin() + static_cast<std::ptrdiff_t>(skip), all.end());
  switch (metric.summary) {
    case MetricSummary::last: return v.back();
    case MetricSummary::min: return *std::min_element(v.begin(), v.end());
    case MetricSummary::max: return *std::max_element(v.begin(), v.end());
    case MetricSummary::mean: return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    case MetricSummary::median: return spread_of(v)->median;
  }
  return std::nullopt;
}

double Spread::relative() const {
  if (samples < 2 || median == 0) return 0;
  return (max - min) / std::fabs(median);
}

std::optional<Spread> spread_of(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  Spread s;
  s.samples = static_cast<int>(v.size());
  s.min = v.front();
  s.max = v.back();
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return s;
}

std::string no_match_message(const ExperimentMetric& metric, const std::string& where, const std::string& output,
                             int lines) {
  std::string head;
  int shown = 0;
  const std::vector<std::string> all = lines_of(output);
  for (const auto& line : all) {
    if (shown == lines) break;
    std::string cut = line.size() > 160 ? line.substr(0, 160) + "..." : line;
    head += "\n    | " + valid_utf8(cut);
    ++shown;
  }
  const std::string what = all.empty() ? "the output was empty"
                                       : fmt::format("its first {} of {} lines:{}", shown, all.size(), head);
  return fmt::format("metric '{}': the pattern '{}' matched nothing in the output of {}; {}", metric.name,
                     metric.pattern, where, what);
}

}  // namespace workbook
