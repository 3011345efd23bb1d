// Profiler figures in manifests (see metric_source.hpp).
#include "content/metric_source.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/text.hpp"

namespace workbook {

const std::vector<std::string>& trace_groups() {
  static const std::vector<std::string> g{"kernels", "copies", "memsets", "api", "unified_memory", "gpu"};
  return g;
}

const std::vector<std::string>& trace_stats(const std::string& group) {
  static const std::vector<std::string> timed{"calls", "total_us", "avg_us", "min_us", "max_us"};
  static const std::vector<std::string> moved{"calls", "total_us", "avg_us", "min_us", "max_us", "bytes", "bytes_per_call", "gbps"};
  static const std::vector<std::string> um{"gpu_page_faults", "gpu_fault_groups", "cpu_page_faults", "bytes_htod", "bytes_dtoh", "thrashing"};
  static const std::vector<std::string> gpu{"span_us", "busy_us", "overlap_us", "overlap_pct", "streams"};
  static const std::vector<std::string> none;
  if (group == "kernels" || group == "api") return timed;
  if (group == "copies" || group == "memsets") return moved;
  if (group == "unified_memory") return um;
  if (group == "gpu") return gpu;
  return none;
}

const std::vector<std::string>& ncu_stats() {
  static const std::vector<std::string> s{"median", "mean", "min", "max", "sum", "count"};
  return s;
}

namespace {

bool one_of(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string joined(const std::vector<std::string>& list) {
  std::string s;
  for (const auto& x : list) s += (s.empty() ? "" : ", ") + x;
  return s;
}

void read_trace_source(MapReader& r, MetricSource& s) {
  s.of = r.str("of", true).value_or("");
  s.name = r.str("name", false).value_or("");
  s.stat = r.str("stat", true).value_or("");
  if (!s.of.empty() && !one_of(trace_groups(), s.of)) {
    r.problem("of", fmt::format("must be one of {}, got '{}'", joined(trace_groups()), s.of));
  } else if (!s.stat.empty() && !one_of(trace_stats(s.of), s.stat)) {
    r.problem("stat", fmt::format("for `of: {}` must be one of {}, got '{}'", s.of, joined(trace_stats(s.of)), s.stat));
  }
}

void read_ncu_source(MapReader& r, MetricSource& s) {
  s.metric = r.str("metric", true).value_or("");
  s.kernel = r.str("kernel", false).value_or("");
  s.block = r.str("block", false).value_or("");
  s.stat = r.str("stat", false).value_or("median");
  if (!s.metric.empty() && s.metric.find_first_of(" ,\"") != std::string::npos) {
    r.problem("metric", "an Nsight Compute metric name has no spaces, commas or quotes, e.g. dram__bytes_read.sum");
  }
  if (!one_of(ncu_stats(), s.stat)) r.problem("stat", fmt::format("must be one of {}, got '{}'", joined(ncu_stats()), s.stat));
}

}  // namespace

std::optional<MetricSource> read_metric_source(MapReader& metric) {
  YAML::Node n = metric.node("source");
  if (!present(n)) return std::nullopt;
  MapReader r(n, metric.file(), metric.path("source"), metric.problems());
  MetricSource s;
  s.line = line_of(n);
  s.tool = r.str("tool", true).value_or("");
  if (s.tool == "trace") read_trace_source(r, s);
  else if (s.tool == "ncu") read_ncu_source(r, s);
  else if (!s.tool.empty()) r.problem("tool", fmt::format("must be trace or ncu, got '{}'", s.tool));
  r.finish();
  return s;
}

bool measured_by(const MetricSpec& m, const std::string& tool) { return m.source && m.source->tool == tool; }

std::string prediction_tool(const LabSpec& lab, const PredictionSpec& p) {
  std::string uses = p.metric + " " + p.answer_expr;
  for (const auto& d : lab.derived)
    if (d.name == p.metric) uses += " " + d.expr;
  for (const auto& m : lab.metrics)
    if (m.source && names_word(uses, m.name)) return m.source->tool;
  return "";
}

}  // namespace workbook
