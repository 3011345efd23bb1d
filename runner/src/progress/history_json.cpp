// `workbook history --json` (see history.hpp).
#include <nlohmann/json.hpp>

#include "progress/history.hpp"
#include "report/machine_line.hpp"
#include "util/json_or_null.hpp"
#include "util/lines.hpp"

namespace workbook::progress {

namespace {

using nlohmann::json;

json run_json(const RunDetail& r, int hints_total) {
  json figures = json::array(), predictions = json::array();
  for (const auto& f : r.figures) {
    figures.push_back({{"name", f.name}, {"unit", f.unit}, {"derived", f.derived}, {"value", json_or_null(f.value)},
                       {"min", json_or_null(f.lo)}, {"max", json_or_null(f.hi)}, {"status", f.status}});
  }
  for (const auto& p : r.predictions) {
    predictions.push_back({{"prediction", p.id}, {"answer", p.answer}, {"predicted", json_or_null(p.predicted)},
                           {"measured", json_or_null(p.measured)}, {"factor", json_or_null(p.factor)}, {"band", p.band},
                           {"score", p.score}, {"max_score", p.max_score},
                           {"correct", p.correct ? json(*p.correct) : json(nullptr)}, {"graded", p.graded},
                           {"first", p.first}, {"after_measurement", p.after_measurement},
                           {"recorded_at", p.recorded_at}, {"entered", p.entered}, {"unclear", p.unclear}});
  }
  json params = json::parse(r.params, nullptr, false);
  return {{"id", r.id}, {"lab", r.lab}, {"variant", r.variant}, {"started_at", r.started_at},
          {"verdict", r.verdict}, {"device", r.device}, {"arch", r.arch},
          {"params", params.is_discarded() ? json(r.params) : params}, {"figures", figures},
          {"predictions", predictions}, {"explanation", r.explanation ? json(*r.explanation) : json(nullptr)},
          {"explanation_feedback", split_lines(r.explanation_feedback)},
          {"hints_used", r.hints_used}, {"hints_total", hints_total},
          {"machine", machine_json(r.machine)}};
}

json row_json(const CalibrationRow& r) {
  return {{"scope", r.scope},
          {"n", r.n},
          {"median_factor", r.median_factor},
          {"typical_ratio", r.typical_ratio},
          {"bands", {{"within 1.25x", r.within_1_25}, {"within 2x", r.within_2}, {"within 4x", r.within_4},
                     {"off by more than 4x", r.beyond}}},
          {"over", r.over},
          {"under", r.under}};
}

json rows_json(const std::vector<CalibrationRow>& rows) {
  json out = json::array();
  for (const auto& r : rows) out.push_back(row_json(r));
  return out;
}

}  // namespace

nlohmann::json to_json(const HistoryReport& h) {
  json runs = json::array();
  for (const auto& r : h.runs) runs.push_back(run_json(r, h.hints_total(r.lab)));
  const Calibration& c = h.calibration;
  return {{"lab", h.lab.empty() ? json(nullptr) : json(h.lab)},
          {"limit", h.limit},
          {"runs", runs},
          {"calibration",
           {{"overall", row_json(c.overall)}, {"modules", rows_json(c.modules)}, {"halves", rows_json(c.halves)},
            {"weeks", rows_json(c.weeks)}, {"trend", c.trend.empty() ? json(nullptr) : json(c.trend)}}}};
}

}  // namespace workbook::progress
