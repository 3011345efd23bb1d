// Reading the trace that libworkbook_trace.so (runner/trace) writes: one JSON object a
// line, each with a "type":
//   meta    {"format":1,"cupti_api":N}
//   kernel  {"name","start","end","stream","device","grid":[x,y,z],"block":[x,y,z],"regs",
//            "smem_static","smem_dynamic","corr"}
//   memcpy  {"kind":"HtoD"|"DtoH"|"DtoD"|...,"src","dst":"pageable"|"pinned"|"device"|"managed"|...,
//            "bytes","start","end","stream","async","corr"}
//   memset  {"memory","bytes","start","end","stream","corr"}
//   api     {"name":"cudaLaunchKernel","start","end","thread","corr"}
//   um      {"counter":"gpu_page_fault"|"cpu_page_fault"|"bytes_htod"|"bytes_dtoh"|"thrashing"|...,
//            "value","start","end"}
//   note    {"text"}                      something CUPTI refused
//   end     {"records","dropped"}         written at the program's exit
// Times are CUPTI timestamps in ns.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

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
  bool ended = false;                 // the program exited normally and the trace was flushed
  std::uint64_t dropped = 0;          // records CUPTI dropped (buffers full)
};

// Parses the trace text; never throws (bad lines become problems, at most 20 listed).
TraceData parse_trace(const std::string& text);
// Reads and parses a trace file; a missing file gives an empty trace with a problem.
TraceData read_trace_file(const std::filesystem::path& file);

// "copy_row_wise(const float*, float*, int, int)" -> "copy_row_wise";
// "void wb::detail::hold(int*)" -> "wb::detail::hold"; templates keep their arguments.
std::string kernel_base_name(const std::string& name);

}  // namespace workbook
