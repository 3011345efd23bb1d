// A profiled run on the terminal (see profile_view.hpp).
#include "present/profile_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "profile/ncu_csv.hpp"

namespace workbook {
namespace {

constexpr std::size_t kRows = 10;  // rows per table in the terminal (--json has them all)

void table(std::vector<std::string>& out, const Style& s, const std::string& title,
           const std::vector<TraceStat>& rows, bool bytes) {
  if (rows.empty()) return;
  out.push_back(s.bold(fmt::format(" {:<34} {:>7} {:>10} {:>10} {:>10} {:>10}{}", title, "calls", "total ms", "avg us",
                                   "min us", "max us", bytes ? fmt::format(" {:>10} {:>8}", "MB", "GB/s") : "")));
  for (std::size_t i = 0; i < rows.size() && i < kRows; ++i) {
    const TraceStat& r = rows[i];
    std::string name = r.name.size() > 34 ? r.name.substr(0, 33) + "~" : r.name;
    std::string extra;
    if (bytes) {
      const double gbps = r.total_us > 0 ? static_cast<double>(r.bytes) / (r.total_us * 1e3) : 0.0;
      extra = fmt::format(" {:>10.3f} {:>8.1f}", static_cast<double>(r.bytes) / 1e6, gbps);
    }
    out.push_back(fmt::format(" {:<34} {:>7} {:>10.3f} {:>10.2f} {:>10.2f} {:>10.2f}{}", name, r.calls,
                              r.total_us * 1e-3, r.avg_us(), r.min_us, r.max_us, extra));
  }
  if (rows.size() > kRows) out.push_back(s.dim(fmt::format(" ... {} more (see --json)", rows.size() - kRows)));
}

void trace_lines(std::vector<std::string>& out, const ProfileReport& r, const Style& s) {
  const TraceSummary& t = *r.trace;
  out.push_back(s.bold("Trace (CUPTI)") +
                fmt::format(": GPU busy {:.3f} ms of {:.3f} ms, {:.3f} ms with two or more activities at once "
                            "({:.0f} %), {} stream{}",
                            t.busy_us * 1e-3, t.span_us * 1e-3, t.overlap_us * 1e-3,
                            t.busy_us > 0 ? 100 * t.overlap_us / t.busy_us : 0.0, t.streams.size(),
                            t.streams.size() == 1 ? "" : "s"));
  table(out, s, "Kernels", t.kernels, false);
  table(out, s, "Copies", t.copies, true);
  table(out, s, "Memsets", t.memsets, true);
  table(out, s, "CUDA API calls", t.api, false);
  if (!t.um.empty()) {
    auto um = [&](const char* k) { auto it = t.um.find(k); return it == t.um.end() ? 0ull : static_cast<unsigned long long>(it->second); };
    out.push_back(fmt::format(" Unified Memory: {} GPU page faults ({} groups), {} CPU page faults, {:.3f} MB HtoD, "
                              "{:.3f} MB DtoH, {} thrashing events",
                              um("gpu_page_faults"), um("gpu_fault_groups"), um("cpu_page_faults"),
                              static_cast<double>(um("bytes_htod")) / 1e6, static_cast<double>(um("bytes_dtoh")) / 1e6,
                              um("thrashing")));
  }
  if (!r.timeline.empty()) {
    out.push_back(s.dim(" Timeline (K kernel, > HtoD, < DtoH, = other copy, m memset, . idle):"));
    if (t.records_not_written > 0) {
      out.push_back(s.yellow(fmt::format(" truncated: it shows the first {} records of {}; the tables above count "
                                         "them all (WB_TRACE_MAX_RECORDS keeps more)",
                                         t.records_written, t.records_written + t.records_not_written)));
    }
    for (const auto& l : r.timeline) out.push_back(" " + l);
  }
}

void ncu_lines(std::vector<std::string>& out, const ProfileReport& r, const Style& s) {
  const NcuTable& t = *r.ncu;
  out.push_back(s.bold("Nsight Compute") + fmt::format(": {} kernel launch{} profiled (medians per kernel and block; "
                                                       "the raw CSV is {})",
                                                       t.rows.size(), t.rows.size() == 1 ? "" : "es", r.output.string()));
  if (t.rows.size() >= static_cast<std::size_t>(kNcuLaunchCap))
    out.push_back(s.yellow(fmt::format(" capped: ncu profiles the first {} launches and lets the rest run unprofiled, "
                                       "so a lab that launches thousands (a time-step loop) is seen at its start only",
                                       kNcuLaunchCap)));
  std::map<std::string, std::vector<std::size_t>> groups;  // "kernel (block)" -> rows
  for (std::size_t i = 0; i < t.rows.size(); ++i) groups[t.kernel(i) + "\n" + t.block(i)].push_back(i);
  const auto asked = [&](const std::string& col) {
    return r.ncu_metrics.empty() || std::find(r.ncu_metrics.begin(), r.ncu_metrics.end(), col) != r.ncu_metrics.end();
  };
  std::size_t shown = 0;
  for (const auto& [key, rows] : groups) {
    if (++shown > kRows) break;
    // ncu prints the whole signature; the name without its parameters, as --trace shows it.
    const std::string name = kernel_base_name(t.kernel(rows.front())) + " (" + t.block(rows.front()) + ")";
    out.push_back(fmt::format(" {} x{}", s.bold(name), rows.size()));
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      const std::string& col = t.columns[c];
      if (col.find("__") == std::string::npos || ncu_housekeeping_column(col) || !asked(col)) continue;
      std::vector<double> v;
      for (std::size_t i : rows)
        if (auto x = ncu_number(t.rows[i][c])) v.push_back(*x);
      if (v.empty()) continue;
      std::sort(v.begin(), v.end());
      const double median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
      out.push_back(fmt::format("   {:<72} {:>14.6g} {}", col, median, t.units[c]));
    }
  }
  if (groups.size() > kRows) out.push_back(s.dim(fmt::format(" ... {} more kernels (see --json)", groups.size() - kRows)));
  if (t.rows.empty())
    for (std::size_t i = 0; i < t.messages.size() && i < 8; ++i) out.push_back(" " + t.messages[i]);
}

void sanitizer_lines(std::vector<std::string>& out, const ProfileReport& r, const Style& s) {
  const SanitizerReport& z = *r.sanitizer;
  const bool clean = z.error_count && *z.error_count == 0;
  out.push_back(s.bold("compute-sanitizer " + z.tool) + ": " + (clean ? s.green(describe(z)) : s.red(describe(z))));
  for (const auto& e : z.errors) {
    out.push_back("  " + e.what);
    if (!e.where.empty() || !e.function.empty())
      out.push_back("    at " + (e.where.empty() ? e.function : e.where + "  " + s.dim(e.function)));
    if (!e.frames.empty() && e.frames.front().where != e.where && !e.frames.front().where.empty())
      out.push_back(s.dim("    (inlined from " + e.frames.front().where + "  " + e.frames.front().function + ")"));
    if (!e.thread.empty()) out.push_back("    " + e.thread);
    if (!e.detail.empty()) out.push_back("    " + e.detail);
  }
  if (z.errors_printed > static_cast<long long>(z.errors.size()))
    out.push_back(s.dim(fmt::format("  ... the full report is {}", r.output.string())));
  if (!z.error_count)
    for (const auto& m : z.tool_messages) out.push_back("  " + m);
}

}  // namespace

std::vector<std::string> profile_lines(const ProfileReport& r, const Style& s) {
  std::vector<std::string> out;
  if (r.clocks_before) out.push_back(s.dim("GPU before the run: ") + describe(*r.clocks_before));
  if (r.clocks_after) out.push_back(s.dim("GPU after the run:  ") + describe(*r.clocks_after));
  if (r.trace) trace_lines(out, r, s);
  if (r.ncu) ncu_lines(out, r, s);
  if (r.sanitizer) sanitizer_lines(out, r, s);
  for (const auto& [name, value] : r.figures) out.push_back(fmt::format(" {} = {:.6g}", name, value));
  for (const auto& w : r.warnings) out.push_back(s.yellow("warning: ") + w);
  if (!r.not_run_reason.empty()) out.push_back(s.red("not measured: ") + r.not_run_reason);
  return out;
}

}  // namespace workbook
