// Nsight Compute CSV (see ncu_csv.hpp).
#include "profile/ncu_csv.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "profile/lines.hpp"
#include "util/text.hpp"

namespace workbook {

int NcuTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

std::string NcuTable::kernel(std::size_t row) const {
  int c = column("Kernel Name");
  if (c < 0) c = column("Function Name");
  if (c < 0 || row >= rows.size() || static_cast<std::size_t>(c) >= rows[row].size()) return "";
  return rows[row][static_cast<std::size_t>(c)];
}

std::string NcuTable::block(std::size_t row) const {
  const int c = column("Block Size");
  if (c < 0 || row >= rows.size() || static_cast<std::size_t>(c) >= rows[row].size()) return "";
  std::string s;
  for (char ch : rows[row][static_cast<std::size_t>(c)])
    if (ch != '(' && ch != ')' && ch != ' ') s += ch;
  return s;
}

const std::vector<std::string>& default_ncu_metrics() {
  static const std::vector<std::string> m{
      "gpu__time_duration.sum",
      "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
      "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
      "dram__bytes_read.sum",
      "dram__bytes_write.sum",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "sm__maximum_warps_per_active_cycle_pct",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
  };
  return m;
}

NcuTable parse_ncu_csv(const std::string& text) {
  NcuTable t;
  for (const std::string& line : split_lines(text)) {
    if (line.rfind("==", 0) == 0) {
      t.messages.push_back(line);
      if (line.find("ERR_NVGPUCTRPERM") != std::string::npos) t.permission_denied = true;
      if (line.find("No kernels were profiled") != std::string::npos) t.no_kernels = true;
      if (line.rfind("==ERROR==", 0) == 0) t.errors.push_back(trim(line.substr(9)));
      continue;
    }
    if (line.empty() || line[0] != '"') continue;
    std::vector<std::string> f = csv_fields(line);
    if (t.columns.empty()) {
      if (std::find(f.begin(), f.end(), "ID") == f.end()) continue;  // not the header
      t.columns = std::move(f);
    } else if (t.units.empty() && !f.empty() && f[0].empty()) {
      t.units = std::move(f);  // the units row has no ID
    } else if (f.size() == t.columns.size()) {
      t.rows.push_back(std::move(f));
    }
  }
  t.units.resize(t.columns.size());
  return t;
}

std::string ncu_error_reason(const NcuTable& t) {
  if (t.errors.empty()) return "";
  std::string reason = t.errors.front();
  if (!reason.empty() && reason.back() == ':' && t.errors.size() > 1) reason += " " + t.errors[1];
  return reason;
}

bool ncu_housekeeping_column(const std::string& column) {
  for (const char* prefix : {"device__", "launch__", "c2clink__", "nvlink__", "numa__", "profiler__"})
    if (column.rfind(prefix, 0) == 0) return true;
  return false;
}

std::optional<double> ncu_number(const std::string& cell) {
  std::string s;
  for (char c : cell)
    if (c != ',' && c != ' ') s += c;
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

std::optional<double> ncu_figure(const NcuTable& t, const MetricSource& src) {
  const int c = t.column(src.metric);
  std::vector<double> values;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (!src.kernel.empty() && t.kernel(r).find(src.kernel) == std::string::npos) continue;
    if (!src.block.empty() && t.block(r) != src.block) continue;
    if (src.stat == "count") {
      values.push_back(1);
      continue;
    }
    if (c < 0) continue;
    if (auto v = ncu_number(t.rows[r][static_cast<std::size_t>(c)])) values.push_back(*v);
  }
  if (src.stat == "count") return static_cast<double>(values.size());
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  const std::size_t n = values.size();
  if (src.stat == "sum") return sum;
  if (src.stat == "mean") return sum / static_cast<double>(n);
  if (src.stat == "min") return values.front();
  if (src.stat == "max") return values.back();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;  // median
}

NcuSelection parse_ncu_selection(const std::string& arg) {
  NcuSelection s;
  std::string cur;
  auto flush = [&] {
    std::string item = trim(cur);
    cur.clear();
    if (item.empty()) return;
    (item.find("__") != std::string::npos || item.find('.') != std::string::npos ? s.metrics : s.sections)
        .push_back(item);
  };
  for (char c : arg) {
    if (c == ',') flush();
    else cur += c;
  }
  flush();
  return s;
}

std::vector<std::string> ncu_command(const std::string& ncu, const NcuSelection& what,
                                     const std::vector<std::string>& kernels, const std::string& log_file) {
  std::vector<std::string> argv{ncu, "--csv", "--page", "raw", "--clock-control", "none", "--target-processes", "all",
                                "--log-file", log_file,
                                // A lab that launches thousands of kernels (module09's heat steps,
                                // module17's graph) would spend minutes in ncu's replays: the first
                                // kNcuLaunchCap matching launches are profiled, the rest run unprofiled.
                                "--launch-count", std::to_string(kNcuLaunchCap)};
  for (const auto& s : what.sections) argv.insert(argv.end(), {"--section", s});
  if (!what.metrics.empty()) {
    std::string list;
    std::set<std::string> seen;
    for (const auto& m : what.metrics)
      if (seen.insert(m).second) list += (list.empty() ? "" : ",") + m;
    argv.insert(argv.end(), {"--metrics", list});
  }
  if (!kernels.empty()) {
    std::string re;
    for (const auto& k : kernels) re += (re.empty() ? "" : "|") + k;
    argv.insert(argv.end(), {"--kernel-name-base", "function", "-k", "regex:" + re});
  }
  return argv;
}

}  // namespace workbook
