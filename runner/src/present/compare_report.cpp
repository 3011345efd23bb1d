// A comparison as text and JSON (see compare_report.hpp).
#include "present/compare_report.hpp"

#include <fmt/format.h>

#include "present/run_report.hpp"
#include "run/report_json.hpp"
#include "ui/units.hpp"
#include "util/utf8.hpp"

namespace workbook {

namespace {

std::string verdict_line(const RunReport& r) {
  return fmt::format("{} (run #{}{})", to_string(r.grade.verdict), r.run_id,
                     r.grade.verdict_reason.empty() ? "" : ": " + r.grade.verdict_reason);
}

}  // namespace

void print_compare(const CompareResult& r, const Style& s) {
  fmt::print("{} {} your copy against the reference solution, seed {}\n", s.bold(r.mine.lab.id), s.dim("·"), r.mine.seed);
  if (!r.mine.built) print_report(r.mine, s);  // the compiler's errors
  fmt::print("  {:<10} {}\n  {:<10} {}\n", "yours", verdict_line(r.mine), "reference",
             r.reference.run_id ? verdict_line(r.reference) : std::string("not run"));
  if (r.rows.empty()) return;
  fmt::print("\n{}\n", s.bold(fmt::format("  {:<20} {:>14} {:>14} {:>10}", "metric", "yours", "reference", "ratio")));
  for (const auto& row : r.rows) {
    const std::string a = row.mine ? format_figure(*row.mine, row.unit) : "-";
    const std::string b = row.reference ? format_figure(*row.reference, row.unit) : "-";
    const std::string ratio = row.ratio ? fmt::format("{:.3g} x", *row.ratio) : "-";
    fmt::print("  {:<20} {:>14} {:>14} {:>10}\n", row.name, a, b, ratio);
  }
  fmt::print("{}\n", s.dim("  ratio: yours / reference (a time above 1 x is slower, a rate above 1 x is faster)"));
}

nlohmann::json compare_json(const CompareResult& r) {
  nlohmann::json j;
  j["lab"] = r.mine.lab.id;
  j["seed"] = r.mine.seed;
  j["yours"] = report_json(r.mine);
  j["reference"] = r.reference.run_id ? report_json(r.reference) : nlohmann::json();
  j["rows"] = nlohmann::json::array();
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(); };
  for (const auto& row : r.rows) {
    j["rows"].push_back({{"name", row.name}, {"unit", row.unit}, {"yours", opt(row.mine)},
                         {"reference", opt(row.reference)}, {"ratio", opt(row.ratio)}});
  }
  j["verdict"] = to_string(r.mine.grade.verdict);
  make_valid_utf8(j);
  return j;
}

}  // namespace workbook
