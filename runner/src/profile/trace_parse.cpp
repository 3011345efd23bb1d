// Reading the trace file (see trace_parse.hpp).
#include "profile/trace_parse.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "profile/lines.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace {

using nlohmann::json;

template <class T>
T field(const json& j, const char* key, T fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return it->get<T>();
}

void read_span(const json& j, TraceSpan& s) {
  s.start = field<std::uint64_t>(j, "start", 0);
  s.end = field<std::uint64_t>(j, "end", 0);
}

std::array<int, 3> dims(const json& j, const char* key) {
  std::array<int, 3> d{0, 0, 0};
  auto it = j.find(key);
  if (it != j.end() && it->is_array())
    for (std::size_t i = 0; i < 3 && i < it->size(); ++i) d[i] = (*it)[i].get<int>();
  return d;
}

void read_total(const json& j, TraceData& t) {
  trace_format::TotalKey k;
  k.of = field<std::string>(j, "of", "");
  k.name = field<std::string>(j, "name", "?");
  k.src = field<std::string>(j, "src", "");
  k.dst = field<std::string>(j, "dst", "");
  k.stream = field<std::uint32_t>(j, "stream", 0);
  trace_format::Total& total = t.totals[k];
  total.calls = field<std::uint64_t>(j, "calls", 0);
  total.total_ns = field<std::uint64_t>(j, "total_ns", 0);
  total.min_ns = field<std::uint64_t>(j, "min_ns", 0);
  total.max_ns = field<std::uint64_t>(j, "max_ns", 0);
  total.bytes = field<std::uint64_t>(j, "bytes", 0);
}

void read_record(const json& j, TraceData& t) {
  const std::string type = field<std::string>(j, "type", "");
  if (type == "kernel") {
    TraceKernel k;
    read_span(j, k);
    k.name = field<std::string>(j, "name", "?");
    k.stream = field<std::uint32_t>(j, "stream", 0);
    k.grid = dims(j, "grid");
    k.block = dims(j, "block");
    k.regs = field<int>(j, "regs", 0);
    t.kernels.push_back(std::move(k));
  } else if (type == "memcpy") {
    TraceCopy c;
    read_span(j, c);
    c.kind = field<std::string>(j, "kind", "unknown");
    c.src = field<std::string>(j, "src", "unknown");
    c.dst = field<std::string>(j, "dst", "unknown");
    c.bytes = field<std::uint64_t>(j, "bytes", 0);
    c.stream = field<std::uint32_t>(j, "stream", 0);
    c.async = field<bool>(j, "async", false);
    t.copies.push_back(std::move(c));
  } else if (type == "memset") {
    TraceMemset m;
    read_span(j, m);
    m.memory = field<std::string>(j, "memory", "unknown");
    m.bytes = field<std::uint64_t>(j, "bytes", 0);
    m.stream = field<std::uint32_t>(j, "stream", 0);
    t.memsets.push_back(std::move(m));
  } else if (type == "api") {
    TraceApi a;
    read_span(j, a);
    a.name = field<std::string>(j, "name", "?");
    t.api.push_back(std::move(a));
  } else if (type == "um") {
    TraceUm u;
    read_span(j, u);
    u.counter = field<std::string>(j, "counter", "unknown");
    u.value = field<std::uint64_t>(j, "value", 0);
    t.um.push_back(std::move(u));
  } else if (type == "note") {
    t.notes.push_back(field<std::string>(j, "text", ""));
  } else if (type == "total") {
    read_total(j, t);
  } else if (type == "gpu") {
    trace_format::GpuTimes g;
    g.span_ns = field<std::uint64_t>(j, "span_ns", 0);
    g.busy_ns = field<std::uint64_t>(j, "busy_ns", 0);
    g.overlap_ns = field<std::uint64_t>(j, "overlap_ns", 0);
    g.activities = field<std::uint64_t>(j, "activities", 0);
    g.counted = field<std::uint64_t>(j, "counted", g.activities);
    t.gpu = g;
  } else if (type == "meta") {
    t.has_meta = true;
    t.format = field<int>(j, "format", 1);
    t.max_records = field<std::uint64_t>(j, "max_records", 0);
  } else if (type == "end") {
    t.ended = true;
    t.dropped = field<std::uint64_t>(j, "dropped", 0);
    t.not_written = field<std::uint64_t>(j, "not_written", 0);
  }  // unknown types: a newer library; skipped
}

}  // namespace

TraceData parse_trace(const std::string& text) {
  TraceData t;
  std::size_t line_no = 0, bad = 0;
  for (const std::string& line : split_lines(text)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      const json j = json::parse(line);
      if (!j.is_object()) throw std::runtime_error("not a JSON object");
      read_record(j, t);
    } catch (const std::exception& e) {
      if (++bad <= 20) t.problems.push_back(fmt::format("trace line {}: {}", line_no, e.what()));
    }
  }
  if (bad > 20) t.problems.push_back(fmt::format("... {} unreadable lines in all", bad));
  return t;
}

TraceData read_trace_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    TraceData t;
    t.problems.push_back(fmt::format("no trace was written ({} is missing)", file.string()));
    return t;
  }
  return parse_trace(read_file_text(file).value_or(""));
}

namespace {

// The records as the library counts them (runner/trace/wb_trace_inject.cpp).
trace_format::Totals totals_of_records(const TraceData& t) {
  trace_format::Totals totals;
  for (const auto& k : t.kernels) totals.add({"kernel", k.name, "", "", k.stream}, k.start, k.end, 0);
  for (const auto& c : t.copies) totals.add({"memcpy", c.kind, c.src, c.dst, c.stream}, c.start, c.end, c.bytes);
  for (const auto& m : t.memsets) totals.add({"memset", m.memory, "", "", m.stream}, m.start, m.end, m.bytes);
  for (const auto& a : t.api) totals.add({"api", a.name, "", "", 0}, a.start, a.end, 0);
  for (const auto& u : t.um) totals.add({"um", u.counter, "", "", 0}, u.start, u.end, u.value);
  return totals;
}

}  // namespace

std::map<trace_format::TotalKey, trace_format::Total> trace_totals(const TraceData& t) {
  if (!t.totals.empty()) return t.totals;
  return totals_of_records(t).totals();
}

trace_format::GpuTimes trace_gpu_times(const TraceData& t) {
  if (t.gpu) return *t.gpu;
  return totals_of_records(t).gpu();
}

std::string kernel_base_name(const std::string& name) {
  std::string s = name;
  // The parameter list: the last '(' at template depth 0.
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    else if (s[i] == '>') --depth;
    else if (s[i] == '(' && depth == 0 && i > 0) {
      s.resize(i);
      break;
    }
  }
  // A leading return type ("void "), outside template arguments.
  depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    else if (s[i] == '>') --depth;
    else if (s[i] == ' ' && depth == 0) {
      s = s.substr(i + 1);
      break;
    }
  }
  return s.empty() ? name : s;
}

}  // namespace workbook
