// Tests for profile/trace_parse and profile/trace_summary: the recorded trace of a
// two-stream pipeline summarised like `nsys --stats`, its timeline, and trace figures.
#include <catch2/catch.hpp>

#include "profile/trace_parse.hpp"
#include "profile/trace_summary.hpp"
#include "profile_fixture.hpp"

using namespace workbook;

namespace {

const TraceStat* find_stat(const std::vector<TraceStat>& v, const std::string& name) {
  for (const auto& s : v)
    if (s.name == name) return &s;
  return nullptr;
}

MetricSource trace_source(const std::string& of, const std::string& name, const std::string& stat) {
  MetricSource s;
  s.tool = "trace";
  s.of = of;
  s.name = name;
  s.stat = stat;
  return s;
}

}  // namespace

TEST_CASE("a recorded trace parses into kernels, copies, memsets, API calls and UM counters", "[profile]") {
  const TraceData t = parse_trace(wbtest::profile_fixture("trace_streams.jsonl"));
  CHECK(t.problems.empty());
  CHECK(t.has_meta);
  CHECK(t.ended);
  REQUIRE(t.kernels.size() == 4);
  CHECK(t.kernels[0].name == "scale(float*, int)");
  CHECK(t.kernels[0].grid == std::array<int, 3>{4096, 1, 1});
  CHECK(t.kernels[0].us() == Approx(20.0));
  CHECK(t.copies.size() == 9);
  CHECK(t.memsets.size() == 1);
  CHECK(t.api.size() == 13);
  CHECK(t.um.size() == 4);
}

TEST_CASE("the trace summary has nsys-like stats per kernel, copy kind and API call", "[profile]") {
  const TraceSummary s = summarize_trace(parse_trace(wbtest::profile_fixture("trace_streams.jsonl")));
  const TraceStat* k = find_stat(s.kernels, "scale");
  REQUIRE(k);
  CHECK(k->calls == 4);
  CHECK(k->total_us == Approx(80));
  CHECK(k->avg_us() == Approx(20));
  const TraceStat* h2d = find_stat(s.copies, "HtoD pinned");
  REQUIRE(h2d);
  CHECK(h2d->calls == 4);
  CHECK(h2d->bytes == 4u * 4194304u);
  CHECK(find_stat(s.copies, "DtoH pinned"));
  const TraceStat* pageable = find_stat(s.copies, "HtoD pageable");
  REQUIRE(pageable);
  CHECK(pageable->max_us == Approx(100));
  const TraceStat* memcpy_api = find_stat(s.api, "cudaMemcpyAsync");
  REQUIRE(memcpy_api);
  CHECK(memcpy_api->calls == 8);
  CHECK(memcpy_api->min_us == Approx(1));
  CHECK(memcpy_api->max_us == Approx(2));
  CHECK(memcpy_api->avg_us() == Approx(1.5));
  CHECK(s.api.front().name == "cudaStreamSynchronize");  // the largest total first
  CHECK(s.um.at("gpu_page_faults") == 16);
  CHECK(s.um.at("gpu_fault_groups") == 2);
  CHECK(s.um.at("cpu_page_faults") == 1);
  CHECK(s.um.at("bytes_htod") == 65536);
  // Streams 7 (setup), 13 and 14 (the pipeline). Busy: 280 us of pipeline (two 1 us
  // gaps at its ends) + 100 us pageable copy + 1 us memset; overlapped: 40 us between
  // each of the 3 pairs of neighbouring chunks; span: the first copy to the last one.
  CHECK(s.streams.size() == 3);
  CHECK(s.busy_us == Approx(381));
  CHECK(s.overlap_us == Approx(120));
  CHECK(s.span_us == Approx(482));
  CHECK(s.notes.empty());
}

TEST_CASE("trace figures select by group, name substring and statistic", "[profile]") {
  const TraceSummary s = summarize_trace(parse_trace(wbtest::profile_fixture("trace_streams.jsonl")));
  CHECK(trace_figure(s, trace_source("kernels", "", "calls")) == Approx(4));
  CHECK(trace_figure(s, trace_source("api", "cudaLaunchKernel", "avg_us")) == Approx(2));
  CHECK(trace_figure(s, trace_source("copies", "HtoD", "calls")) == Approx(5));  // pinned and pageable
  CHECK(trace_figure(s, trace_source("copies", "HtoD", "bytes_per_call")) == Approx((4.0 * 4194304 + 1048576) / 5));
  CHECK(trace_figure(s, trace_source("copies", "HtoD pinned", "gbps")) == Approx(4194304.0 / 40e-6 / 1e9));
  CHECK(trace_figure(s, trace_source("unified_memory", "", "gpu_page_faults")) == Approx(16));
  CHECK(trace_figure(s, trace_source("unified_memory", "", "thrashing")) == Approx(0));
  CHECK(trace_figure(s, trace_source("gpu", "", "overlap_pct")) == Approx(100.0 * 120 / 381));
  CHECK(trace_figure(s, trace_source("gpu", "", "streams")) == Approx(3));
  CHECK(trace_figure(s, trace_source("api", "cudaGraphLaunch", "calls")) == Approx(0));
  CHECK_FALSE(trace_figure(s, trace_source("api", "cudaGraphLaunch", "avg_us")));
}

TEST_CASE("the timeline shows one row per stream, with overlapping copies and kernels", "[profile]") {
  const std::vector<std::string> lines = trace_timeline(parse_trace(wbtest::profile_fixture("trace_streams.jsonl")), 48);
  REQUIRE(lines.size() == 4);  // axis + streams 7, 13, 14
  CHECK(lines[0].find("0.482 ms") != std::string::npos);
  CHECK(lines[1].find("stream 7") != std::string::npos);
  CHECK(lines[1].find('>') != std::string::npos);
  for (int i : {2, 3}) {
    CHECK(lines[static_cast<std::size_t>(i)].find('>') != std::string::npos);
    CHECK(lines[static_cast<std::size_t>(i)].find('K') != std::string::npos);
    CHECK(lines[static_cast<std::size_t>(i)].find('<') != std::string::npos);
  }
  CHECK(trace_timeline(TraceData{}, 48).empty());
}

TEST_CASE("a damaged or cut-off trace is read as far as it goes and says so", "[profile]") {
  const TraceData t = parse_trace(
      "{\"type\":\"meta\",\"format\":1}\nnot json\n{\"type\":\"kernel\",\"name\":\"k()\",\"start\":10,\"end\":2010,"
      "\"stream\":7}\n{\"type\":\"future_kind\"}\n[1,2]\n");
  CHECK(t.kernels.size() == 1);
  CHECK(t.problems.size() == 2);
  CHECK_FALSE(t.ended);
  const TraceSummary s = summarize_trace(t);
  CHECK(s.kernels.at(0).name == "k");
  bool said = false;
  for (const auto& n : s.notes) said = said || n.find("no end record") != std::string::npos;
  CHECK(said);
  const TraceData missing = read_trace_file("/nonexistent/trace.jsonl");
  REQUIRE(missing.problems.size() == 1);
  CHECK(missing.problems[0].find("no trace was written") != std::string::npos);
}

TEST_CASE("kernel base names drop the parameter list and return type, not template arguments", "[profile]") {
  CHECK(kernel_base_name("copy_row_wise(const float*, float*, int, int)") == "copy_row_wise");
  CHECK(kernel_base_name("void wb::detail::hold(int*)") == "wb::detail::hold");
  CHECK(kernel_base_name("void tiled<16, float>(const float*, int)") == "tiled<16, float>");
  CHECK(kernel_base_name("k") == "k");
}
