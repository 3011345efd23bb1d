// Badly missed first predictions (report/ledger.hpp: off by more than 2x) bring their
// module's review items due sooner (learn/nudges.hpp), once per lab and prediction.
#pragma once

#include <vector>

#include "content/catalog.hpp"
#include "journal/journal.hpp"

namespace workbook::progress {

struct MissedPrediction {
  std::string lab, prediction;
  double factor = 1;  // how far off: 2^|log2(predicted / measured)|
  int module = 0;
  int cards_moved = 0;
};

// Records a nudge for every badly missed first prediction in the ledger that has none
// yet (at `now_unix`); returns those recorded now.
std::vector<MissedPrediction> nudge_missed_predictions(Journal& journal, const Catalog& catalog, long long now_unix);

}  // namespace workbook::progress
