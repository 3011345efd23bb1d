// Run history and prediction calibration (see history.hpp).
#include "progress/history.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "learn/clock.hpp"

namespace workbook::progress {

namespace {

CalibrationRow row_of(const std::string& scope, const std::vector<PredictionOutcome>& group) {
  CalibrationRow r;
  r.scope = scope;
  r.n = static_cast<int>(group.size());
  if (group.empty()) return r;
  std::vector<double> factors;
  double log_ratio = 0;
  for (const auto& o : group) {
    factors.push_back(o.factor);
    if (o.predicted > 0 && o.measured > 0) log_ratio += std::log(o.predicted / o.measured);
    if (o.factor <= 1.25) ++r.within_1_25;
    else if (o.factor <= 2.0) ++r.within_2;
    else if (o.factor <= 4.0) ++r.within_4;
    else ++r.beyond;
    if (o.predicted > o.measured) ++r.over;
    else if (o.predicted < o.measured) ++r.under;
  }
  std::sort(factors.begin(), factors.end());
  const std::size_t mid = factors.size() / 2;
  r.median_factor = factors.size() % 2 ? factors[mid] : (factors[mid - 1] + factors[mid]) / 2;
  r.typical_ratio = std::exp(log_ratio / static_cast<double>(group.size()));
  return r;
}

std::string module_of(const std::string& lab) { return lab.substr(0, lab.find('/')); }

// The Monday of the week an ISO time falls in, as a date; "" when the time does not parse.
std::string week_of(const std::string& iso) {
  const auto day = learn::day_of_date(iso.substr(0, 10));
  if (!day) return "";
  const long long since_monday = ((*day + 3) % 7 + 7) % 7;  // 1970-01-01 was a Thursday
  return learn::date_of_day(*day - since_monday);
}

}  // namespace

Calibration calibrate(const std::vector<PredictionOutcome>& outcomes) {
  Calibration c;
  c.overall = row_of("all", outcomes);
  std::map<std::string, std::vector<PredictionOutcome>> by_module, by_week;
  for (const auto& o : outcomes) {
    by_module[module_of(o.lab)].push_back(o);
    if (auto w = week_of(o.recorded_at); !w.empty()) by_week[w].push_back(o);
  }
  for (const auto& [m, group] : by_module) c.modules.push_back(row_of(m, group));
  for (const auto& [w, group] : by_week) c.weeks.push_back(row_of("week of " + w, group));
  if (outcomes.size() >= 2) {
    const auto half = outcomes.begin() + static_cast<std::ptrdiff_t>(outcomes.size() / 2);
    c.halves.push_back(row_of("first half", {outcomes.begin(), half}));
    c.halves.push_back(row_of("second half", {half, outcomes.end()}));
  }
  if (outcomes.size() >= 4) {
    const double before = c.halves[0].median_factor, after = c.halves[1].median_factor;
    c.trend = after < before / 1.1 ? "closer" : after > before * 1.1 ? "further" : "steady";
  }
  return c;
}

HistoryReport gather_history(Journal& journal, const std::string& lab, int limit) {
  HistoryReport h;
  h.lab = lab;
  h.limit = limit;
  h.runs = run_details(journal, lab, limit);
  std::vector<PredictionOutcome> outcomes = prediction_outcomes(journal);
  if (!lab.empty()) {
    outcomes.erase(std::remove_if(outcomes.begin(), outcomes.end(), [&](const auto& o) { return o.lab != lab; }),
                   outcomes.end());
  }
  h.calibration = calibrate(outcomes);
  return h;
}

int HistoryReport::hints_total(const std::string& of_lab) const {
  const auto it = hint_totals.find(of_lab);
  return it == hint_totals.end() ? 0 : it->second;
}

}  // namespace workbook::progress
