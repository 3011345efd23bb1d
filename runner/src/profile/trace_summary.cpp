// The trace summary (see trace_summary.hpp).
#include "profile/trace_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace workbook {
namespace {

using trace_format::Total;
using trace_format::TotalKey;

void add(std::map<std::string, TraceStat>& groups, const std::string& name, const Total& t) {
  TraceStat& s = groups[name];
  const double min_us = static_cast<double>(t.min_ns) * 1e-3, max_us = static_cast<double>(t.max_ns) * 1e-3;
  s.min_us = s.calls == 0 ? min_us : std::min(s.min_us, min_us);
  s.max_us = s.calls == 0 ? max_us : std::max(s.max_us, max_us);
  s.name = name;
  s.calls += static_cast<long long>(t.calls);
  s.total_us += static_cast<double>(t.total_ns) * 1e-3;
  s.bytes += t.bytes;
}

std::vector<TraceStat> sorted(const std::map<std::string, TraceStat>& groups) {
  std::vector<TraceStat> v;
  for (const auto& kv : groups) v.push_back(kv.second);
  std::stable_sort(v.begin(), v.end(), [](const TraceStat& a, const TraceStat& b) { return a.total_us > b.total_us; });
  return v;
}

std::string copy_group(const std::string& kind, const std::string& src, const std::string& dst) {
  // The host side decides pinned or pageable: the source of an upload, the target of a download.
  const std::string& host = kind == "DtoH" ? dst : src;
  return kind == "HtoD" || kind == "DtoH" ? kind + " " + host : kind;
}

struct Activity {
  std::uint64_t start, end;
  std::uint32_t stream;
  char mark;
};

std::vector<Activity> activities(const TraceData& t) {
  std::vector<Activity> a;
  for (const auto& k : t.kernels) a.push_back({k.start, k.end, k.stream, 'K'});
  for (const auto& c : t.copies) {
    a.push_back({c.start, c.end, c.stream, c.kind == "HtoD" ? '>' : c.kind == "DtoH" ? '<' : '='});
  }
  for (const auto& m : t.memsets) a.push_back({m.start, m.end, m.stream, 'm'});
  a.erase(std::remove_if(a.begin(), a.end(), [](const Activity& x) { return x.end <= x.start; }), a.end());
  return a;
}

void add_stream(std::map<std::uint32_t, TraceStream>& streams, const TotalKey& k, const Total& t) {
  TraceStream& st = streams[k.stream];
  st.id = k.stream;
  const auto calls = static_cast<long long>(t.calls);
  (k.of == "kernel" ? st.kernels : k.of == "memcpy" ? st.copies : st.memsets) += calls;
  st.busy_us += static_cast<double>(t.total_ns) * 1e-3;
}

// Unified Memory: GPU faults come in groups (one record each); a CPU fault record counts
// at least one fault.
void add_um(std::map<std::string, std::uint64_t>& um, const TotalKey& k, const Total& t) {
  if (k.name == "gpu_page_fault") {
    um["gpu_page_faults"] += t.bytes;
    um["gpu_fault_groups"] += t.calls;
  } else if (k.name == "cpu_page_fault") {
    um["cpu_page_faults"] += std::max(t.bytes, t.calls);
  } else if (k.name == "bytes_htod" || k.name == "bytes_dtoh" || k.name == "bytes_dtod") {
    um[k.name] += t.bytes;
  } else if (k.name == "thrashing") {
    um["thrashing"] += t.calls;
  }
}

void add_notes(const TraceData& t, TraceSummary& s) {
  s.notes = t.notes;
  s.notes.insert(s.notes.end(), t.problems.begin(), t.problems.end());
  if (!t.ended && t.has_meta) s.notes.push_back("the trace has no end record: the program did not exit normally, so the last records may be missing");
  if (t.dropped > 0) s.notes.push_back(fmt::format("CUPTI dropped {} records (its buffers were full)", t.dropped));
  if (t.gpu && t.gpu->counted < t.gpu->activities) {
    s.notes.push_back(fmt::format("the GPU's busy and overlapped times count its first {} of {} activities",
                                  t.gpu->counted, t.gpu->activities));
  }
}

}  // namespace

TraceSummary summarize_trace(const TraceData& t) {
  TraceSummary s;
  std::map<std::string, TraceStat> kernels, copies, memsets, api;
  std::map<std::uint32_t, TraceStream> streams;
  for (const auto& [k, total] : trace_totals(t)) {
    if (k.of == "kernel") add(kernels, kernel_base_name(k.name), total);
    else if (k.of == "memcpy") add(copies, copy_group(k.name, k.src, k.dst), total);
    else if (k.of == "memset") add(memsets, "memset " + k.name, total);
    else if (k.of == "api") add(api, k.name, total);
    else if (k.of == "um") add_um(s.um, k, total);
    if (k.on_gpu()) add_stream(streams, k, total);
  }
  s.kernels = sorted(kernels);
  s.copies = sorted(copies);
  s.memsets = sorted(memsets);
  s.api = sorted(api);
  for (const auto& kv : streams) s.streams.push_back(kv.second);
  const trace_format::GpuTimes g = trace_gpu_times(t);
  s.span_us = static_cast<double>(g.span_ns) * 1e-3;
  s.busy_us = static_cast<double>(g.busy_ns) * 1e-3;
  s.overlap_us = static_cast<double>(g.overlap_ns) * 1e-3;
  s.ended = t.ended;
  s.dropped = t.dropped;
  s.records_not_written = t.not_written;
  s.records_written = t.kernels.size() + t.copies.size() + t.memsets.size() + t.api.size() + t.um.size();
  add_notes(t, s);
  return s;
}

std::vector<std::string> trace_timeline(const TraceData& t, int width) {
  const std::vector<Activity> acts = activities(t);
  if (acts.empty() || width < 8) return {};
  std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
  for (const auto& a : acts) lo = std::min(lo, a.start), hi = std::max(hi, a.end);
  const double span = static_cast<double>(hi - lo);
  const double col = span / width;
  std::map<std::uint32_t, std::vector<std::map<char, double>>> cells;
  for (const auto& a : acts) {
    auto& row = cells[a.stream];
    if (row.empty()) row.resize(static_cast<std::size_t>(width));
    const double s = static_cast<double>(a.start - lo), e = static_cast<double>(a.end - lo);
    const int c0 = std::clamp(static_cast<int>(s / col), 0, width - 1);
    const int c1 = std::clamp(static_cast<int>(e / col), 0, width - 1);
    for (int c = c0; c <= c1; ++c) {
      const double cs = c * col, ce = cs + col;
      row[static_cast<std::size_t>(c)][a.mark] += std::max(0.0, std::min(e, ce) - std::max(s, cs)) + 1e-9;
    }
  }
  std::vector<std::string> lines;
  lines.push_back(fmt::format("{:>10} 0{:>{}}", "", fmt::format("{:.4g} ms", span * 1e-6), width - 1));
  for (const auto& [stream, row] : cells) {
    std::string line;
    for (const auto& cell : row) {
      auto best = std::max_element(cell.begin(), cell.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
      line += best == cell.end() ? '.' : best->first;
    }
    lines.push_back(fmt::format("{:>10} |{}|", fmt::format("stream {}", stream), line));
  }
  return lines;
}

namespace {

std::optional<double> group_figure(const std::vector<TraceStat>& groups, const MetricSource& src) {
  TraceStat all;
  bool first = true;
  for (const auto& g : groups) {
    if (!src.name.empty() && g.name.find(src.name) == std::string::npos) continue;
    all.calls += g.calls;
    all.total_us += g.total_us;
    all.bytes += g.bytes;
    all.min_us = first ? g.min_us : std::min(all.min_us, g.min_us);
    all.max_us = first ? g.max_us : std::max(all.max_us, g.max_us);
    first = false;
  }
  if (all.calls == 0) return src.stat == "calls" ? std::optional<double>(0.0) : std::nullopt;
  const auto calls = static_cast<double>(all.calls);
  const auto bytes = static_cast<double>(all.bytes);
  if (src.stat == "calls") return calls;
  if (src.stat == "total_us") return all.total_us;
  if (src.stat == "avg_us") return all.avg_us();
  if (src.stat == "min_us") return all.min_us;
  if (src.stat == "max_us") return all.max_us;
  if (src.stat == "bytes") return bytes;
  if (src.stat == "bytes_per_call") return bytes / calls;
  if (src.stat == "gbps" && all.total_us > 0) return bytes / (all.total_us * 1e-6) / 1e9;
  return std::nullopt;
}

}  // namespace

std::optional<double> trace_figure(const TraceSummary& s, const MetricSource& src) {
  if (src.of == "kernels") return group_figure(s.kernels, src);
  if (src.of == "copies") return group_figure(s.copies, src);
  if (src.of == "memsets") return group_figure(s.memsets, src);
  if (src.of == "api") return group_figure(s.api, src);
  if (src.of == "unified_memory") {
    auto it = s.um.find(src.stat);
    return static_cast<double>(it == s.um.end() ? 0 : it->second);
  }
  if (src.of == "gpu") {
    if (src.stat == "span_us") return s.span_us;
    if (src.stat == "busy_us") return s.busy_us;
    if (src.stat == "overlap_us") return s.overlap_us;
    if (src.stat == "overlap_pct") return s.busy_us > 0 ? 100.0 * s.overlap_us / s.busy_us : 0.0;
    if (src.stat == "streams") return static_cast<double>(s.streams.size());
  }
  return std::nullopt;
}

}  // namespace workbook
