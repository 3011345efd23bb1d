// The trace summary (see trace_summary.hpp).
#include "profile/trace_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace workbook {
namespace {

void add(std::map<std::string, TraceStat>& groups, const std::string& name, double us, std::uint64_t bytes) {
  TraceStat& s = groups[name];
  if (s.calls == 0) {
    s.name = name;
    s.min_us = us;
    s.max_us = us;
  }
  ++s.calls;
  s.total_us += us;
  s.min_us = std::min(s.min_us, us);
  s.max_us = std::max(s.max_us, us);
  s.bytes += bytes;
}

std::vector<TraceStat> sorted(const std::map<std::string, TraceStat>& groups) {
  std::vector<TraceStat> v;
  for (const auto& kv : groups) v.push_back(kv.second);
  std::stable_sort(v.begin(), v.end(), [](const TraceStat& a, const TraceStat& b) { return a.total_us > b.total_us; });
  return v;
}

std::string copy_group(const TraceCopy& c) {
  // The host side decides pinned or pageable: the source of an upload, the target of a download.
  const std::string& host = c.kind == "DtoH" ? c.dst : c.src;
  return c.kind == "HtoD" || c.kind == "DtoH" ? c.kind + " " + host : c.kind;
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

// Busy time (at least one activity) and overlapped time (two or more), by a sweep.
void busy_and_overlap(const std::vector<Activity>& acts, TraceSummary& s) {
  std::vector<std::pair<std::uint64_t, int>> edges;
  for (const auto& a : acts) {
    edges.push_back({a.start, +1});
    edges.push_back({a.end, -1});
  }
  std::sort(edges.begin(), edges.end());
  int running = 0;
  std::uint64_t last = edges.empty() ? 0 : edges.front().first;
  for (const auto& [t, d] : edges) {
    const double dt = static_cast<double>(t - last) * 1e-3;
    if (running >= 1) s.busy_us += dt;
    if (running >= 2) s.overlap_us += dt;
    running += d;
    last = t;
  }
  if (!acts.empty()) {
    std::uint64_t lo = std::numeric_limits<std::uint64_t>::max(), hi = 0;
    for (const auto& a : acts) {
      lo = std::min(lo, a.start);
      hi = std::max(hi, a.end);
    }
    s.span_us = static_cast<double>(hi - lo) * 1e-3;
  }
}

void summarize_streams(const TraceData& t, TraceSummary& s) {
  std::map<std::uint32_t, TraceStream> streams;
  auto of = [&](std::uint32_t id) -> TraceStream& {
    TraceStream& st = streams[id];
    st.id = id;
    return st;
  };
  for (const auto& k : t.kernels) ++of(k.stream).kernels, of(k.stream).busy_us += k.us();
  for (const auto& c : t.copies) ++of(c.stream).copies, of(c.stream).busy_us += c.us();
  for (const auto& m : t.memsets) ++of(m.stream).memsets, of(m.stream).busy_us += m.us();
  for (const auto& kv : streams) s.streams.push_back(kv.second);
}

void summarize_um(const TraceData& t, TraceSummary& s) {
  for (const auto& u : t.um) {
    if (u.counter == "gpu_page_fault") {
      s.um["gpu_page_faults"] += u.value;
      s.um["gpu_fault_groups"] += 1;
    } else if (u.counter == "cpu_page_fault") {
      s.um["cpu_page_faults"] += std::max<std::uint64_t>(1, u.value);
    } else if (u.counter == "bytes_htod" || u.counter == "bytes_dtoh" || u.counter == "bytes_dtod") {
      s.um[u.counter] += u.value;
    } else if (u.counter == "thrashing") {
      s.um["thrashing"] += 1;
    }
  }
}

}  // namespace

TraceSummary summarize_trace(const TraceData& t) {
  TraceSummary s;
  std::map<std::string, TraceStat> kernels, copies, memsets, api;
  for (const auto& k : t.kernels) add(kernels, kernel_base_name(k.name), k.us(), 0);
  for (const auto& c : t.copies) add(copies, copy_group(c), c.us(), c.bytes);
  for (const auto& m : t.memsets) add(memsets, "memset " + m.memory, m.us(), m.bytes);
  for (const auto& a : t.api) add(api, a.name, a.us(), 0);
  s.kernels = sorted(kernels);
  s.copies = sorted(copies);
  s.memsets = sorted(memsets);
  s.api = sorted(api);
  summarize_um(t, s);
  summarize_streams(t, s);
  busy_and_overlap(activities(t), s);
  s.ended = t.ended;
  s.dropped = t.dropped;
  s.notes = t.notes;
  s.notes.insert(s.notes.end(), t.problems.begin(), t.problems.end());
  if (!t.ended && t.has_meta) s.notes.push_back("the trace has no end record: the program did not exit normally, so the last records may be missing");
  if (t.dropped > 0) s.notes.push_back(fmt::format("CUPTI dropped {} records (its buffers were full)", t.dropped));
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
