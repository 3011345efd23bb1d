// Badly missed predictions nudge their module's reviews (see missed_predictions.hpp).
#include "progress/missed_predictions.hpp"

#include <cmath>

#include "learn/clock.hpp"
#include "learn/nudges.hpp"
#include "report/ledger.hpp"

namespace workbook::progress {

std::vector<MissedPrediction> nudge_missed_predictions(Journal& journal, const Catalog& catalog, long long now_unix) {
  std::vector<MissedPrediction> out;
  for (const auto& e : gather_ledger(journal, catalog).entries) {
    if (!e.badly_missed()) continue;
    const learn::Nudge n{e.module, e.lab, e.prediction, *e.log2_ratio, learn::day_of(now_unix), learn::iso_utc(now_unix)};
    const int moved = learn::record_nudge(journal, n);
    if (moved >= 0) out.push_back({e.lab, e.prediction, std::exp2(std::fabs(*e.log2_ratio)), e.module, moved});
  }
  return out;
}

}  // namespace workbook::progress
