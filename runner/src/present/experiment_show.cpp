// The experiment summary as text (see experiment_show.hpp).
#include "present/experiment_show.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "present/experiment_report.hpp"
#include "ui/markdown.hpp"
#include "ui/units.hpp"

namespace workbook {

std::string figure_text(const Spread& s, const std::string& unit) {
  std::string text = unit.empty() ? fmt::format("{:.4g}", s.median) : format_quantity(s.median, unit);
  if (s.samples > 1) text += fmt::format(" ±{:.1f}%", 50.0 * s.relative());
  return text + fmt::format(" ({} run{})", s.samples, s.samples == 1 ? "" : "s");
}

std::vector<KernelRow> kernel_rows(const ExperimentSummary& s, std::size_t limit) {
  std::map<std::string, double> longest;
  for (const auto& v : s.variants)
    for (const auto& [name, t] : v.kernels) longest[name] = std::max(longest[name], t.total_us);
  std::vector<std::pair<std::string, double>> order(longest.begin(), longest.end());
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<KernelRow> rows;
  for (const auto& [name, total] : order) {
    if (rows.size() == limit) break;
    KernelRow row{name, {}};
    for (const auto& v : s.variants) {
      auto it = v.kernels.find(name);
      row.per_variant.push_back(it == v.kernels.end() ? std::nullopt : std::optional<KernelTime>(it->second));
    }
    rows.push_back(row);
  }
  return rows;
}

std::string scored_answer_origin(const ExperimentSummary& s, const LabPrediction& a) {
  return fmt::format("made {}{}, {}", a.recorded_at.substr(0, 10),
                     a.run_id == s.run.id ? " with this run" : fmt::format(" with experiment run #{}", a.run_id),
                     a.after_measurement ? "after an earlier run was measured" : "before any measurement");
}

std::string experiment_text(const ExperimentSummary& s, const Style& style, std::size_t width) {
  return render_markdown(experiment_markdown(s, {}), width, style);
}

std::string experiment_list_text(const ExperimentList& list, const Style& s) {
  std::string out = s.bold("Experiments in " + list.dir) + "\n";
  for (const auto& f : list.files) out += "  " + f + "\n";
  if (list.files.empty()) out += "  " + s.dim("none yet: workbook experiment new NAME") + "\n";
  if (!list.runs.empty()) out += s.bold("Runs") + "\n";
  for (const auto& r : list.runs) {
    out += fmt::format("  #{:<5} {:<20} {:<12} {} {}\n", r.id, r.experiment, r.status.empty() ? "unfinished" : r.status,
                       r.started_at, s.dim(r.gpu.empty() ? "no GPU" : r.gpu));
  }
  return out;
}

nlohmann::json experiment_list_json(const ExperimentList& list) {
  nlohmann::json j{{"files", list.files}, {"runs", nlohmann::json::array()}};
  for (const auto& r : list.runs) {
    j["runs"].push_back({{"id", r.id}, {"experiment", r.experiment}, {"started_at", r.started_at}, {"status", r.status},
                         {"gpu", r.gpu}, {"slurm_job", r.slurm_job}});
  }
  return j;
}

}  // namespace workbook
