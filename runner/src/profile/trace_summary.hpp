// An `nsys --stats`-like summary of a trace (per kernel, copy kind and API call: calls,
// total, average, min, max), Unified Memory totals, how busy and overlapped the GPU was,
// a compact per-stream timeline, and the figures manifests name (MetricSource, tool trace).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "content/manifest.hpp"
#include "profile/trace_parse.hpp"

namespace workbook {

struct TraceStat {
  std::string name;        // kernel base name, "HtoD pageable", "cudaLaunchKernel"
  long long calls = 0;
  double total_us = 0, min_us = 0, max_us = 0;
  std::uint64_t bytes = 0;  // copies and memsets
  double avg_us() const { return calls > 0 ? total_us / static_cast<double>(calls) : 0.0; }
};

struct TraceStream {
  std::uint32_t id = 0;
  long long kernels = 0, copies = 0, memsets = 0;
  double busy_us = 0;
};

struct TraceSummary {
  std::vector<TraceStat> kernels, copies, memsets, api;  // each sorted by total time, largest first
  std::map<std::string, std::uint64_t> um;  // gpu_page_faults, gpu_fault_groups, cpu_page_faults, bytes_htod, ...
  std::vector<TraceStream> streams;         // by id
  double span_us = 0;     // first GPU activity to last
  double busy_us = 0;     // time at least one kernel, copy or memset ran
  double overlap_us = 0;  // time two or more ran at once (streams overlapping)
  bool ended = true;
  std::uint64_t dropped = 0;
  std::uint64_t records_written = 0;      // records in the file, the ones the timeline shows
  std::uint64_t records_not_written = 0;  // records past the library's cap: in the tables, not the timeline
  std::vector<std::string> notes;  // the library's notes and the parser's problems
};

TraceSummary summarize_trace(const TraceData& trace);

// One line a stream over the GPU's active span, `width` columns: K kernel, > HtoD copy,
// < DtoH, = other copy, m memset, . idle; a column shows what ran longest in it. The
// first line is the time axis. It shows the records written one by one: when the
// library's cap left some out (TraceSummary::records_not_written), only the first ones.
std::vector<std::string> trace_timeline(const TraceData& trace, int width = 64);

// The value of a trace figure (MetricSource with tool "trace"); nullopt when nothing
// matched (no calls of that name).
std::optional<double> trace_figure(const TraceSummary& s, const MetricSource& source);

}  // namespace workbook
