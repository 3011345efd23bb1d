// Totals of a CUPTI trace per (record type, name, stream), shared by the injection library
// (runner/trace/wb_trace_inject.cpp keeps them in-process and writes them at the
// program's exit, so a trace of 500,000 launches needs only its first records written)
// and the runner's reader (profile/trace_parse.cpp reads them, or builds the same totals
// from the records of a trace written without them). Standard C++ only: the library is
// loaded into any CUDA program and links nothing but CUPTI.
//
// Lines this header writes (the trace format, version 2; trace_parse.hpp has the records):
//   total  {"type":"total","of":"kernel"|"memcpy"|"memset"|"api"|"um","name","src","dst",
//           "stream","calls","total_ns","min_ns","max_ns","bytes"}   (um: bytes = sum of values)
//   gpu    {"type":"gpu","span_ns","busy_ns","overlap_ns","activities","counted"}
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace workbook::trace_format {

inline constexpr int kFormat = 2;                        // the meta line's "format"
inline constexpr std::uint64_t kDefaultMaxRecords = 20000;  // WB_TRACE_MAX_RECORDS
inline constexpr std::size_t kMaxSpans = std::size_t{8} << 20;  // GPU activities kept for busy/overlap (128 MB)

struct TotalKey {
  std::string of;          // kernel, memcpy, memset, api, um
  std::string name;        // kernel name, copy kind (HtoD), memory kind, API function, UM counter
  std::string src, dst;    // memcpy: "pinned", "pageable", "device", ...
  std::uint32_t stream = 0;  // kernel, memcpy, memset
  bool operator<(const TotalKey& o) const {
    return std::tie(of, name, src, dst, stream) < std::tie(o.of, o.name, o.src, o.dst, o.stream);
  }
  bool on_gpu() const { return of == "kernel" || of == "memcpy" || of == "memset"; }
};

struct Total {
  std::uint64_t calls = 0, total_ns = 0, min_ns = 0, max_ns = 0, bytes = 0;
  void add(std::uint64_t ns, std::uint64_t b) {
    min_ns = calls == 0 ? ns : std::min(min_ns, ns);
    max_ns = calls == 0 ? ns : std::max(max_ns, ns);
    ++calls;
    total_ns += ns;
    bytes += b;
  }
};

// How long the GPU ran anything, and two or more things at once, over its active span.
struct GpuTimes {
  std::uint64_t span_ns = 0, busy_ns = 0, overlap_ns = 0;
  std::uint64_t activities = 0;  // kernels, copies and memsets seen
  std::uint64_t counted = 0;     // of those, the ones the times include (all, unless over kMaxSpans)
};

// A sweep over [start, end) spans; sorts `spans`.
inline GpuTimes gpu_times(std::vector<std::pair<std::uint64_t, std::uint64_t>>& spans) {
  GpuTimes g;
  g.activities = g.counted = spans.size();
  std::vector<std::pair<std::uint64_t, int>> edges;
  edges.reserve(spans.size() * 2);
  std::uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& [s, e] : spans) {
    edges.push_back({s, +1});
    edges.push_back({e, -1});
    lo = std::min(lo, s);
    hi = std::max(hi, e);
  }
  std::sort(edges.begin(), edges.end());  // at one instant, ends before starts: touching is not overlap
  int running = 0;
  std::uint64_t last = edges.empty() ? 0 : edges.front().first;
  for (const auto& [t, d] : edges) {
    if (running >= 1) g.busy_ns += t - last;
    if (running >= 2) g.overlap_ns += t - last;
    running += d;
    last = t;
  }
  if (!spans.empty()) g.span_ns = hi - lo;
  return g;
}

class Totals {
 public:
  // One record; GPU activities with end > start also count toward busy and overlap.
  void add(const TotalKey& key, std::uint64_t start, std::uint64_t end, std::uint64_t bytes) {
    totals_[key].add(end > start ? end - start : 0, bytes);
    if (!key.on_gpu() || end <= start) return;
    ++activities_;
    if (spans_.size() < kMaxSpans) spans_.push_back({start, end});
  }
  const std::map<TotalKey, Total>& totals() const { return totals_; }
  GpuTimes gpu() const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans = spans_;
    GpuTimes g = gpu_times(spans);
    g.activities = activities_;
    return g;
  }

 private:
  std::map<TotalKey, Total> totals_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans_;
  std::uint64_t activities_ = 0;
};

// A JSON string literal of `text` (quotes, backslashes and control characters escaped).
inline void append_json_string(std::string& s, const std::string& text) {
  s += '"';
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      s += '\\';
      s += ch;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      s += buf;
    } else {
      s += ch;
    }
  }
  s += '"';
}

inline std::string total_line(const TotalKey& k, const Total& t) {
  std::string s = "{\"type\":\"total\",\"of\":";
  append_json_string(s, k.of);
  s += ",\"name\":";
  append_json_string(s, k.name);
  if (!k.src.empty() || !k.dst.empty()) {
    s += ",\"src\":";
    append_json_string(s, k.src);
    s += ",\"dst\":";
    append_json_string(s, k.dst);
  }
  s += ",\"stream\":" + std::to_string(k.stream) + ",\"calls\":" + std::to_string(t.calls) +
       ",\"total_ns\":" + std::to_string(t.total_ns) + ",\"min_ns\":" + std::to_string(t.min_ns) +
       ",\"max_ns\":" + std::to_string(t.max_ns) + ",\"bytes\":" + std::to_string(t.bytes) + "}";
  return s;
}

inline std::string gpu_line(const GpuTimes& g) {
  return "{\"type\":\"gpu\",\"span_ns\":" + std::to_string(g.span_ns) + ",\"busy_ns\":" + std::to_string(g.busy_ns) +
         ",\"overlap_ns\":" + std::to_string(g.overlap_ns) + ",\"activities\":" + std::to_string(g.activities) +
         ",\"counted\":" + std::to_string(g.counted) + "}";
}

}  // namespace workbook::trace_format
