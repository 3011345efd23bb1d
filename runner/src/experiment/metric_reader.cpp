// Reading metrics from output (see metric_reader.hpp).
#include "experiment/metric_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <sstream>

#include <re2/re2.h>

#include "util/utf8.hpp"

namespace workbook {

namespace {

std::optional<double> number_of(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  const double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(v)) return std::nullopt;
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

// Past kMostValues the newest value takes the last place: the last match still wins.
void keep(std::vector<double>& kept, double v, long long& unread) {
  if (kept.size() < kMostValues) {
    kept.push_back(v);
  } else {
    kept.back() = v;
    ++unread;
  }
}

RE2::Options pattern_options() {
  RE2::Options o;
  o.set_log_errors(false);
  return o;
}

}  // namespace

std::string pattern_problem(const std::string& pattern) {
  const RE2 re(pattern, pattern_options());
  if (!re.ok()) {
    return fmt::format("'{}' is not a pattern RE2 reads: {} (RE2 has no look-arounds such as (?=...) and no "
                       "back-references such as \\1; write the text around the number as it is)",
                       valid_utf8(pattern), re.error());
  }
  if (re.NumberOfCapturingGroups() != 1) {
    return fmt::format("'{}' has {} groups in parentheses; it needs exactly one, around the number "
                       "(write (?:...) for a group that captures nothing)", valid_utf8(pattern),
                       re.NumberOfCapturingGroups());
  }
  return "";
}

struct MetricStream::Patterns {
  std::vector<std::unique_ptr<RE2>> compiled;
};

MetricStream::MetricStream(const std::vector<ExperimentMetric>& metrics)
    : metrics_(metrics), patterns_(std::make_unique<Patterns>()) {
  for (const auto& m : metrics_) {
    patterns_->compiled.push_back(std::make_unique<RE2>(m.pattern, pattern_options()));
    readings_.values[m.name];
  }
}
MetricStream::~MetricStream() = default;
MetricStream::MetricStream(MetricStream&&) noexcept = default;
MetricStream& MetricStream::operator=(MetricStream&&) noexcept = default;

void MetricStream::feed(std::string_view piece) {
  // '\n' ends a line; so does '\r' (a progress bar rewriting its line: each piece is a
  // line of its own, and "\r\n" leaves an empty one, which matches nothing).
  while (!piece.empty()) {
    const std::size_t end = piece.find_first_of("\r\n");
    const std::string_view part = piece.substr(0, end);
    const std::size_t room = kLongestLine - line_.size();
    line_.append(part.substr(0, room));
    if (part.size() > room) line_cut_ = true;
    if (end == std::string_view::npos) return;
    read_line(line_);
    line_.clear();
    piece.remove_prefix(end + 1);
  }
}

void MetricStream::finish() {
  if (!line_.empty() || line_cut_) read_line(line_);
  line_.clear();
}

void MetricStream::read_line(std::string_view line) {
  if (line_cut_) ++readings_.cut_lines;
  line_cut_ = false;
  if (line.empty()) return;  // "\r\n" ends one line, not two
  for (std::size_t i = 0; i < metrics_.size(); ++i) {
    const RE2& re = *patterns_->compiled[i];
    if (!re.ok()) continue;
    const std::string& name = metrics_[i].name;
    re2::StringPiece match[2];
    for (std::size_t pos = 0; pos <= line.size();) {
      if (!re.Match(re2::StringPiece(line.data(), line.size()), pos, line.size(), RE2::UNANCHORED, match, 2)) break;
      std::vector<double>& kept = readings_.values[name];
      if (auto v = number_of(std::string_view(match[1].data(), match[1].size()))) {
        keep(kept, *v, readings_.unread[name]);
      } else {
        ++readings_.not_numbers[name];
      }
      const std::size_t after = static_cast<std::size_t>(match[0].data() - line.data()) + match[0].size();
      pos = match[0].empty() ? after + 1 : after;
    }
  }
}

MetricReadings join_readings(const MetricReadings& first, const MetricReadings& second) {
  MetricReadings r = first;
  for (const auto& [name, values] : second.values) {
    std::vector<double>& kept = r.values[name];
    for (double v : values) {
      keep(kept, v, r.unread[name]);
    }
  }
  for (const auto& [name, n] : second.not_numbers) r.not_numbers[name] += n;
  for (const auto& [name, n] : second.unread) r.unread[name] += n;
  r.cut_lines += second.cut_lines;
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
