// What the learner was shown, in the journal (tables of the "gate" migration, schema.cpp):
//
//   solution_views  each reference solution shown or run through the gate: the lab, what
//                   was shown ("full", "diff" or "run"), and whether it came before any
//                   attempt (a recorded run of the learner's own copy of that lab)
//   readings        each module reading printed in full to a terminal (`workbook show N`)
#pragma once

#include <set>
#include <string>
#include <vector>

#include "journal/journal.hpp"

namespace workbook {

// True when the journal holds a run of the learner's own code for `lab` (the copy in the
// workspace, or --file: any variant but the reference solution and the authors' variants)
// that reached the GPU: its verdict is pass, fail, out_of_range, runtime_error or timeout.
// A compile error, a NOT RUN (no GPU) or a run stopped before it started is no attempt.
bool has_attempt(Journal& journal, const std::string& lab);

struct SolutionView {
  std::string lab, shown, viewed_at;
  bool before_attempt = false;
};
void record_solution_view(Journal& journal, const std::string& lab, const std::string& shown, bool before_attempt);
// Every view of `lab` (every lab when empty), oldest first.
std::vector<SolutionView> solution_views(Journal& journal, const std::string& lab = {});

void record_reading(Journal& journal, int module);
// The modules whose reading was shown in full at least once.
std::set<int> modules_read(Journal& journal);

// Modules that count as read only by inference: a journal written before readings were
// recorded holds runs, worked-example steps or answers (of those modules) from that time,
// and the method reads first. Activity recorded since never implies a reading.
std::set<int> modules_read_before_records(Journal& journal);

}  // namespace workbook
