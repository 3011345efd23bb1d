// Tests for profile/trace_parse and profile/trace_summary: the recorded trace of a
// two-stream pipeline summarised like `nsys --stats`, its timeline, and trace figures.
#include <catch2/catch.hpp>

#include "present/profile_view.hpp"
#include "profile/profile_json.hpp"
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

namespace {

void check_same_stats(const std::vector<TraceStat>& a, const std::vector<TraceStat>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO(a[i].name);
    CHECK(a[i].name == b[i].name);
    CHECK(a[i].calls == b[i].calls);
    CHECK(a[i].total_us == Approx(b[i].total_us));
    CHECK(a[i].min_us == Approx(b[i].min_us));
    CHECK(a[i].max_us == Approx(b[i].max_us));
    CHECK(a[i].bytes == b[i].bytes);
  }
}

void check_same_summary(const TraceSummary& a, const TraceSummary& b) {
  check_same_stats(a.kernels, b.kernels);
  check_same_stats(a.copies, b.copies);
  check_same_stats(a.memsets, b.memsets);
  check_same_stats(a.api, b.api);
  CHECK(a.um == b.um);
  REQUIRE(a.streams.size() == b.streams.size());
  for (std::size_t i = 0; i < a.streams.size(); ++i) {
    CHECK(a.streams[i].id == b.streams[i].id);
    CHECK(a.streams[i].kernels == b.streams[i].kernels);
    CHECK(a.streams[i].copies == b.streams[i].copies);
    CHECK(a.streams[i].memsets == b.streams[i].memsets);
    CHECK(a.streams[i].busy_us == Approx(b.streams[i].busy_us));
  }
  CHECK(a.span_us == Approx(b.span_us));
  CHECK(a.busy_us == Approx(b.busy_us));
  CHECK(a.overlap_us == Approx(b.overlap_us));
}

}  // namespace

TEST_CASE("a format-2 trace keeps the first records and the totals of all of them", "[profile]") {
  // The records of trace_streams.jsonl, as the library writes them with WB_TRACE_MAX_RECORDS=8:
  // the first 8 records, then per-(type, name, stream) totals of all 31, the GPU's times
  // and the end line (totals computed apart from the runner, by a script).
  const TraceData t = parse_trace(wbtest::profile_fixture("trace_streams_capped.jsonl"));
  CHECK(t.problems.empty());
  CHECK(t.format == 2);
  CHECK(t.max_records == 8);
  CHECK(t.ended);
  CHECK(t.not_written == 23);
  CHECK(t.kernels.size() + t.copies.size() + t.memsets.size() + t.api.size() + t.um.size() == 8);
  CHECK(t.totals.size() == 14);
  REQUIRE(t.gpu);
  CHECK(t.gpu->busy_ns == 381000);
  const trace_format::TotalKey h2d{"memcpy", "HtoD", "pinned", "device", 14};
  REQUIRE(t.totals.count(h2d) == 1);
  CHECK(t.totals.at(h2d).calls == 2);
  CHECK(t.totals.at(h2d).bytes == 2u * 4194304u);
  // The old format (every record, no totals) still reads, with format 1.
  const TraceData old = parse_trace(wbtest::profile_fixture("trace_streams.jsonl"));
  CHECK(old.format == 1);
  CHECK(old.totals.empty());
  CHECK_FALSE(old.gpu);
  CHECK(old.not_written == 0);
}

TEST_CASE("the summary from a capped trace's totals equals the summary from all its records", "[profile]") {
  const TraceData full = parse_trace(wbtest::profile_fixture("trace_streams.jsonl"));
  const TraceData capped = parse_trace(wbtest::profile_fixture("trace_streams_capped.jsonl"));
  const TraceSummary a = summarize_trace(full), b = summarize_trace(capped);
  check_same_summary(a, b);
  CHECK(b.notes.empty());
  CHECK(a.records_not_written == 0);
  CHECK(b.records_not_written == 23);
  CHECK(b.records_written == 8);
  // Exact counts although most records were not written.
  CHECK(trace_figure(b, trace_source("kernels", "scale", "calls")) == Approx(4));
  CHECK(trace_figure(b, trace_source("api", "cudaMemcpyAsync", "calls")) == Approx(8));
  CHECK(trace_figure(b, trace_source("gpu", "", "overlap_us")) == Approx(120));
  // The timeline shows the written records only: the kept ones end 0.102 ms after the first.
  const std::vector<std::string> lines = trace_timeline(capped, 48);
  REQUIRE(lines.size() >= 2);
  CHECK(lines[0].find("0.102 ms") != std::string::npos);
  // The report says the timeline is cut short, and --json says so too.
  ProfileReport r;
  r.tool = ProfileTool::trace;
  r.trace = b;
  r.timeline = lines;
  bool said = false;
  for (const auto& l : profile_lines(r, Style(false))) said = said || l.find("first 8 records of 31") != std::string::npos;
  CHECK(said);
  const nlohmann::json j = profile_json(r);
  CHECK(j["trace"]["timeline_truncated"] == true);
  CHECK(j["trace"]["records_not_written"] == 23);
  CHECK(j["trace"]["kernels"][0]["calls"] == 4);
}

TEST_CASE("the library's totals lines read back as the totals of the records", "[profile]") {
  // The writer (profile/trace_totals.hpp, compiled into the injection library) and the
  // reader agree: records -> Totals -> lines -> parse -> the same totals and summary.
  const TraceData full = parse_trace(wbtest::profile_fixture("trace_streams.jsonl"));
  const auto totals = trace_totals(full);
  std::string text = "{\"type\":\"meta\",\"format\":2,\"max_records\":0}\n";
  for (const auto& [k, v] : totals) text += trace_format::total_line(k, v) + "\n";
  text += trace_format::gpu_line(trace_gpu_times(full)) + "\n";
  text += "{\"type\":\"end\",\"records\":31,\"written\":0,\"not_written\":31,\"dropped\":0}\n";
  const TraceData back = parse_trace(text);
  CHECK(back.problems.empty());
  REQUIRE(back.totals.size() == totals.size());
  for (const auto& [k, v] : totals) {
    INFO(k.of << " " << k.name << " " << k.stream);
    REQUIRE(back.totals.count(k) == 1);
    CHECK(back.totals.at(k).calls == v.calls);
    CHECK(back.totals.at(k).total_ns == v.total_ns);
    CHECK(back.totals.at(k).min_ns == v.min_ns);
    CHECK(back.totals.at(k).max_ns == v.max_ns);
    CHECK(back.totals.at(k).bytes == v.bytes);
  }
  check_same_summary(summarize_trace(full), summarize_trace(back));
  CHECK(trace_timeline(back, 48).empty());  // no records written: no timeline
  // A name that needs escaping survives the trip.
  trace_format::Totals odd;
  odd.add({"kernel", "k<\"q\\\\\">(char)\t", "", "", 3}, 100, 350, 0);
  const TraceData o = parse_trace(trace_format::total_line(odd.totals().begin()->first, odd.totals().begin()->second));
  REQUIRE(o.totals.size() == 1);
  CHECK(o.totals.begin()->first.name == "k<\"q\\\\\">(char)\t");
  CHECK(o.totals.begin()->second.total_ns == 250);
  CHECK(odd.gpu().busy_ns == 250);
}

TEST_CASE("a format-2 trace cut off before its totals falls back to its records", "[profile]") {
  const TraceData t = parse_trace(
      "{\"type\":\"meta\",\"format\":2,\"max_records\":20000}\n"
      "{\"type\":\"kernel\",\"name\":\"k()\",\"start\":10,\"end\":2010,\"stream\":7}\n"
      "{\"type\":\"kernel\",\"name\":\"k()\",\"start\":3000,\"end\":4000,\"stream\":7}\n");
  const TraceSummary s = summarize_trace(t);
  REQUIRE(s.kernels.size() == 1);
  CHECK(s.kernels[0].calls == 2);
  CHECK(s.busy_us == Approx(3));
  CHECK(s.span_us == Approx(3.99));
  CHECK_FALSE(s.ended);
}

TEST_CASE("the injection library's own output (fake CUPTI, 5000 records, cap 100) reads with exact counts", "[profile]") {
  // Written by runner/trace/wb_trace_inject.cpp itself, fed by scripts/trace/fake_cupti.cpp:
  // 2500 kernels of 50 ns every 100 ns on stream 7, and 2500 runtime API calls of 10 ns.
  const TraceData t = parse_trace(wbtest::profile_fixture("trace_fake_cupti_capped.jsonl"));
  CHECK(t.problems.empty());
  CHECK(t.format == 2);
  CHECK(t.max_records == 100);
  CHECK(t.ended);
  CHECK(t.not_written == 4900);
  CHECK(t.kernels.size() == 50);
  CHECK(t.api.size() == 50);
  REQUIRE(t.notes.size() == 1);  // the fake refuses Unified Memory counters
  const TraceSummary s = summarize_trace(t);
  REQUIRE(s.kernels.size() == 1);
  CHECK(s.kernels[0].name == "heat_step");
  CHECK(s.kernels[0].calls == 2500);
  CHECK(s.kernels[0].avg_us() == Approx(0.05));
  REQUIRE(s.api.size() == 1);
  CHECK(s.api[0].name == "cudaLaunchKernel");
  CHECK(s.api[0].calls == 2500);
  CHECK(s.busy_us == Approx(125));
  CHECK(s.overlap_us == Approx(0));
  CHECK(s.span_us == Approx(499.85));
  CHECK(s.records_written == 100);
  CHECK(s.records_not_written == 4900);
}

TEST_CASE("module17's real format-2 trace (H200): exact totals of 961,643 records from 20,000 written", "[profile]") {
  // Recorded on the H200 (CUDA 13.0): the first 40 and the last 60 lines of the trace of
  // module17/heat_graph with the default cap; the "..." line marks the cut (README).
  const TraceData t = parse_trace(wbtest::profile_fixture("trace_graph_head_tail.jsonl"));
  REQUIRE(t.problems.size() == 1);  // the "..." line, not JSON
  CHECK(t.problems[0].find("trace line 41") == 0);
  CHECK(t.format == 2);
  CHECK(t.max_records == 20000);
  CHECK(t.ended);
  CHECK(t.dropped == 0);
  CHECK(t.not_written == 941643);
  CHECK(t.kernels.size() == 16);
  CHECK(t.api.size() == 38);
  CHECK(t.memsets.size() == 6);
  CHECK(t.copies.size() == 2);
  REQUIRE(t.notes.size() == 1);
  CHECK(t.notes[0] == "unified memory counters not enabled: CUPTI_ERROR_NOT_READY");
  CHECK(t.totals.size() == 34);
  unsigned long long calls = 0;
  for (const auto& [key, total] : t.totals) calls += static_cast<unsigned long long>(total.calls);
  CHECK(calls == 961643ULL);  // the end line's "records": every record is in one total
  REQUIRE(t.gpu);
  CHECK(t.gpu->busy_ns == 523548105);

  const TraceSummary s = summarize_trace(t);
  CHECK(s.records_written == 62);  // the records left in this cut copy (the end line says 20000 written)
  CHECK(s.records_not_written == 941643);
  REQUIRE(s.kernels.size() == 3);  // by total time: heat_step, empty_step, the harness's hold kernel
  CHECK(s.kernels[0].name == "heat_step");
  CHECK(s.kernels[0].calls == 292576);
  CHECK(s.kernels[0].total_us == Approx(403521.906));
  CHECK(s.kernels[0].min_us == Approx(0.831));
  CHECK(s.kernels[0].max_us == Approx(6.496));
  CHECK(s.kernels[1].name == "empty_step");
  CHECK(s.kernels[1].calls == 210000);
  CHECK(s.kernels[2].name == "wb::detail::hold_kernel");
  CHECK(s.kernels[2].calls == 20);
  REQUIRE_FALSE(s.api.empty());
  CHECK(s.api[0].name == "cudaLaunchKernel");
  CHECK(s.api[0].calls == 455996);
  CHECK(s.span_us == Approx(2444194.608));
  CHECK(s.busy_us == Approx(523548.105));
  CHECK(s.overlap_us == Approx(0.033));
  CHECK(trace_figure(s, trace_source("kernels", "heat_step", "calls")) == Approx(292576));
  CHECK(trace_figure(s, trace_source("api", "cudaGraphLaunch", "calls")) == Approx(470));
}
