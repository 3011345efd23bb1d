// dev check shown (see dev_check_report.hpp).
#include "present/dev_check_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "run/report_json.hpp"

namespace workbook {

void print_dev_header(const DevCheckResult& r, const Style& s) {
  fmt::print("Device: {} · arch {}\n", r.device, r.arch);
  if (!r.basis.empty()) fmt::print("Basis: {}\n", r.basis);
  if (!r.problems.empty()) {
    fmt::print("{}\n", s.red(fmt::format("{} content problem(s):", r.problems.size())));
    for (const auto& p : r.problems) fmt::print("  {}\n", p);
  }
  std::fflush(stdout);
}

void print_dev_row(const DevLabRow& row, const Style& s) {
  std::string status = row.ok ? s.green(" ok ") : s.red("FAIL");
  std::string what = row.ran ? fmt::format("compiled, ran: {} (expected {})", row.verdict, row.expected)
                             : row.compiled ? "compiled" : "did not compile";
  fmt::print("  {}  {:<28} {:<24} {}\n", status, row.lab, row.variant, what);
  if (!row.problem.empty()) fmt::print("        {}\n", s.dim(row.problem));
  if (!row.compiled && !row.diagnostics.empty()) fmt::print("{}\n", row.diagnostics);
  std::fflush(stdout);
}

void print_dev_summary(const DevCheckResult& r, const Style& s) {
  std::size_t bad = static_cast<std::size_t>(std::count_if(r.rows.begin(), r.rows.end(), [](const DevLabRow& x) { return !x.ok; }));
  const bool ran = std::any_of(r.rows.begin(), r.rows.end(), [](const DevLabRow& x) { return x.ran; });
  if (r.interrupted) fmt::print("{}\n", s.yellow("Interrupted: the rows after the last one shown were not checked."));
  fmt::print("{} passed, {} failed{}\n", r.rows.size() - bad, bad + (r.problems.empty() ? 0 : 1),
             ran ? "" : s.dim(" · compiled only: nothing was run (--run runs every lab; CUDA labs need a GPU)"));
}

nlohmann::json dev_check_json(const DevCheckResult& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : r.rows) {
    nlohmann::json j = {{"lab", row.lab}, {"variant", row.variant}, {"compiled", row.compiled}, {"ran", row.ran},
                        {"verdict", row.verdict}, {"expected", row.expected}, {"ok", row.ok}, {"problem", row.problem}};
    if (row.report) j["report"] = report_json(*row.report);
    rows.push_back(j);
  }
  return {{"ok", r.ok()}, {"device", r.device}, {"basis", r.basis}, {"arch", r.arch}, {"problems", r.problems}, {"labs", rows}};
}

}  // namespace workbook
