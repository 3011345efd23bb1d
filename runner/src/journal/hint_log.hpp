// Hints shown by `workbook hint`, in the journal: table hints_shown (journal/schema.cpp,
// migration add_hint_log; it travels with `journal export/import`):
//   hints_shown(id, lab "module14/tiled_gemm", hint (1-based index), shown_at (UTC ISO))
// One row the first time a hint of a lab is shown; rows are never changed or deleted
// (a hint used is part of the learner's record, not a penalty).
#pragma once

#include <string>
#include <vector>

#include "journal/journal.hpp"

namespace workbook {

struct HintShown {
  std::string lab;
  int hint = 0;  // 1-based
  std::string shown_at;
};

// Records that hint `hint` (1-based) of `lab` was shown at `shown_at` (utc_now() when
// empty); a hint already recorded for the lab is not recorded again. True when a row was added.
bool record_hint_shown(Journal& journal, const std::string& lab, int hint, const std::string& shown_at = {});

// The hints of `lab` shown so far, first shown first.
std::vector<HintShown> hints_shown(Journal& journal, const std::string& lab);

// How many different hints of `lab` had been shown at `moment` (an ISO time such as a
// run's started_at; hints shown at that very moment count).
int hints_used_before(Journal& journal, const std::string& lab, const std::string& moment);

}  // namespace workbook
