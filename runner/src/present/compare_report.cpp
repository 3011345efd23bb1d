// A comparison as text and JSON (see compare_report.hpp).
#include "present/compare_report.hpp"

#include <fmt/format.h>

#include "present/run_report.hpp"
#include "run/report_json.hpp"
#include "run/sweep.hpp"
#include "ui/units.hpp"
#include "ui/wrap.hpp"
#include "util/json_or_null.hpp"
#include "util/utf8.hpp"

namespace workbook {

namespace {

std::string verdict_line(const RunReport& r) {
  return fmt::format("{} (run #{}{})", to_string(r.grade.verdict), r.run_id,
                     r.grade.verdict_reason.empty() ? "" : ": " + r.grade.verdict_reason);
}

// How your figure stood against its range: "in range", "above range", ... ("-": no range).
std::string graded_text(const RunReport& r, const std::string& name) {
  const MetricGrade* m = find_metric(r, name);
  const bool graded = m && (m->status == RangeStatus::in_range || outside_range(*m) || outside_warning(*m));
  return graded ? to_string(m->status) : "-";
}

}  // namespace

void print_compare(const CompareResult& r, const Style& s) {
  fmt::print("{} {} your copy against the reference solution, seed {}\n", s.bold(r.mine.lab.id), s.dim("·"), r.mine.seed);
  if (!r.mine.built) print_report(r.mine, s);  // the compiler's errors
  fmt::print("  {:<10} {}\n  {:<10} {}\n", "yours", verdict_line(r.mine), "reference",
             r.reference.run_id ? verdict_line(r.reference) : std::string("not run"));
  if (r.rows.empty()) return;
  fmt::print("\n{}\n", s.bold(fmt::format("  {:<18} {:>12} {:>12} {:>8}  {}", "metric", "yours", "reference", "ratio",
                                             "yours, graded")));
  for (const auto& row : r.rows) {
    const std::string a = row.mine ? format_figure(*row.mine, row.unit) : "-";
    const std::string b = row.reference ? format_figure(*row.reference, row.unit) : "-";
    const std::string ratio = row.ratio ? fmt::format("{:.3g} x", *row.ratio) : "-";
    fmt::print("  {:<18} {:>12} {:>12} {:>8}  {}\n", row.name, a, b, ratio, graded_text(r.mine, row.name));
  }
  fmt::print("{}\n", s.dim("  ratio: yours / reference (a time above 1 x is slower, a rate above 1 x is faster)"));
  fmt::print("{}\n", s.dim(wrap_text(r.graded_on_reference
                                          ? "graded: against the reference's figures from this comparison (the same "
                                            "GPU and state, minutes apart), each within its calibration band"
                                          : "graded: against this GPU's usual ranges (the reference did not run to "
                                            "its end, so its figures grade nothing)",
                                      text_width(), "  ", "  ")));
}

nlohmann::json compare_json(const CompareResult& r) {
  nlohmann::json j;
  j["lab"] = r.mine.lab.id;
  j["seed"] = r.mine.seed;
  j["yours"] = report_json(r.mine);
  j["reference"] = r.reference.run_id ? report_json(r.reference) : nlohmann::json();
  j["rows"] = nlohmann::json::array();
  for (const auto& row : r.rows) {
    j["rows"].push_back({{"name", row.name}, {"unit", row.unit}, {"yours", json_or_null(row.mine)},
                         {"reference", json_or_null(row.reference)}, {"ratio", json_or_null(row.ratio)}});
  }
  j["verdict"] = to_string(r.mine.grade.verdict);
  j["graded_on_reference"] = r.graded_on_reference;
  make_valid_utf8(j);
  return j;
}

}  // namespace workbook
