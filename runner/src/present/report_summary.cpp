// The written report shown (see report_summary.hpp).
#include "present/report_summary.hpp"

#include <fmt/format.h>

#include "plot/roofline.hpp"
#include "report/machine_line.hpp"
#include "ui/units.hpp"

namespace workbook {

void print_report_summary(const WrittenReport& r, const Style& s) {
  const ReportData& d = r.data;
  const auto& files = r.files;
  fmt::print("{} {}\n", s.bold("Report:"), path_from_here(files.back()));
  for (const auto& e : d.labs) {
    fmt::print("  {:<32} run #{:<5} {:<13} {}\n", e.lab, e.run.id, e.run.verdict, s.dim(e.run.device.empty() ? "no GPU" : e.run.device));
  }
  const bool experiments = r.experiments.is_array() && !r.experiments.empty();
  if (d.labs.empty()) {
    fmt::print("  {}\n", s.dim(experiments ? "no lab runs in this scope yet; the report holds the experiments"
                                           : "no runs recorded in this scope yet: the report says so"));
  }
  for (const auto& m : d.machines) {
    fmt::print("{} {}: {}\n", s.dim("Machine"), m.gpu, machine_text(m.machine));
  }
  for (const auto& roof : d.roofs) fmt::print("\n{}", plot::roofline_sketch(roof.roof, roof.points, s));
  for (std::size_t i = 0; i + 1 < files.size(); ++i) fmt::print("{} {}\n", s.dim("Plot:"), path_from_here(files[i]));
}

nlohmann::json written_report_json(const WrittenReport& r) {
  nlohmann::json j = report_data_json(r.data);
  j["experiments"] = r.experiments;
  j["files"] = nlohmann::json::array();
  for (const auto& f : r.files) j["files"].push_back(f.string());
  j["markdown"] = r.files.back().string();
  return j;
}

}  // namespace workbook
