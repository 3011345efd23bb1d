// Reading the trace that libworkbook_trace.so (runner/trace) writes: one JSON object a
// line, each with a "type":
//   meta    {"format":2,"cupti_api":N,"max_records":N}   (format 1: no max_records, no totals)
//   kernel  {"name","start","end","stream","device","grid":[x,y,z],"block":[x,y,z],"regs",
//            "smem_static","smem_dynamic","corr"}
//   memcpy  {"kind":"HtoD"|"DtoH"|"DtoD"|...,"src","dst":"pageable"|"pinned"|"device"|"managed"|...,
//            "bytes","start","end","stream","async","corr"}
//   memset  {"memory","bytes","start","end","stream","corr"}
//   api     {"name":"cudaLaunchKernel","start","end","thread","corr"}
//   um      {"counter":"gpu_page_fault"|"cpu_page_fault"|"bytes_htod"|"bytes_dtoh"|"thrashing"|...,
//            "value","start","end"}
//   note    {"text"}                      something CUPTI refused
//   total   one per (type, name, stream), every record counted; and
//   gpu     the GPU's busy and overlapped time      (format 2, at the exit: trace_totals.hpp)
//   end     {"records","written","not_written","dropped"}   written at the program's exit
// Format 2 writes the records above only up to a cap (the first max_records); the totals
// count them all. Format 1 wrote every record and no totals: its totals are built here
// from the records. Times are CUPTI timestamps in ns.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "profile/trace_totals.hpp"

namespace workbook {

struct TraceSpan {
  std::uint64_t start = 0, end = 0;
  double us() const { return end > start ? static_cast<double>(end - start) * 1e-3 : 0.0; }
};

struct TraceKernel : TraceSpan {
  std::string name;  // demangled, with its parameter list
  std::uint32_t stream = 0;
  std::array<int, 3> grid{}, block{};
  int regs = 0;
};

struct TraceCopy : TraceSpan {
  std::string kind, src, dst;  // "HtoD", "pageable", "device"
  std::uint64_t bytes = 0;
  std::uint32_t stream = 0;
  bool async = false;
};

struct TraceMemset : TraceSpan {
  std::string memory;
  std::uint64_t bytes = 0;
  std::uint32_t stream = 0;
};

struct TraceApi : TraceSpan {
  std::string name;
};

struct TraceUm : TraceSpan {
  std::string counter;
  std::uint64_t value = 0;
};

struct TraceData {
  std::vector<TraceKernel> kernels;
  std::vector<TraceCopy> copies;
  std::vector<TraceMemset> memsets;
  std::vector<TraceApi> api;
  std::vector<TraceUm> um;
  std::vector<std::string> notes;     // from the library: what CUPTI refused
  std::vector<std::string> problems;  // lines that could not be read
  bool has_meta = false;
  int format = 0;                     // the meta line's format (1 or 2)
  bool ended = false;                 // the program exited normally and the trace was flushed
  std::uint64_t dropped = 0;          // records CUPTI dropped (buffers full)
  std::uint64_t max_records = 0;      // format 2: the records written one by one at most
  std::uint64_t not_written = 0;      // format 2: records past that cap (only in the totals)
  std::map<trace_format::TotalKey, trace_format::Total> totals;  // format 2: every record
  std::optional<trace_format::GpuTimes> gpu;                      // format 2: busy and overlap
};

// The totals of the trace: the library's (format 2), else built from its records.
std::map<trace_format::TotalKey, trace_format::Total> trace_totals(const TraceData& trace);
// The GPU's busy and overlapped time: the library's, else swept over the records.
trace_format::GpuTimes trace_gpu_times(const TraceData& trace);

// Parses the trace text; never throws (bad lines become problems, at most 20 listed).
TraceData parse_trace(const std::string& text);
// Reads and parses a trace file; a missing file gives an empty trace with a problem.
TraceData read_trace_file(const std::filesystem::path& file);

// "copy_row_wise(const float*, float*, int, int)" -> "copy_row_wise";
// "void wb::detail::hold(int*)" -> "wb::detail::hold"; templates keep their arguments.
std::string kernel_base_name(const std::string& name);

}  // namespace workbook
