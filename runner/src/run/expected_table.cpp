// Expected figures before a run (see expected_table.hpp).
#include "run/expected_table.hpp"

#include "grade/grade.hpp"
#include "util/error.hpp"

namespace workbook {

std::vector<MetricGrade> expected_rows(const LabSpec& lab, const Figures& device, const std::string& reference_gpu_name,
                                       const GradeBasis& basis) {
  Figures params;
  for (const auto& p : lab.params) params[p.name] = p.default_value;
  std::vector<MetricGrade> rows;
  Figures scope;
  std::string scope_error;
  try {
    scope = expression_scope(lab, device, params);
  } catch (const Error& e) {
    scope_error = e.what();
  }
  for (const auto* list : {&lab.metrics, &lab.derived}) {
    for (const auto& m : *list) {
      MetricGrade row = figure_of(m, reference_gpu_name);
      if (m.expected) {
        if (device.empty()) {
          row.note = kNoDeviceFigures;
        } else if (!scope_error.empty()) {
          row.note = scope_error;
        } else {
          try {
            // A derived figure's conversion to this workspace's basis needs the run's figures.
            set_band(m, scope, basis, m.expr.empty() ? std::optional<double>(1.0) : std::nullopt, row);
          } catch (const Error&) {
            row.note = kAfterTheRun;
          }
        }
      }
      if (m.source) row.note += (row.note.empty() ? "" : "; ") + ("measured with --" + m.source->tool);
      rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace workbook
