// What the learner marked handed in outside the runner (`workbook handin`), in the journal:
// table handins (journal/schema.cpp, migration add_handins; it travels with
// `journal export/import`):
//   handins(id, item, handed_in (1 a mark, 0 its undo), recorded_at (UTC ISO))
// An item is an assignment's id from the course calendar ("a1") or a module ("module05").
// Rows are never changed or deleted: an undo is a row of its own, and an item's latest
// row (by recorded_at, to the millisecond, then the order rows were added) says where it
// stands; a merge brings every row, so each machine reaches the same answer.
#pragma once

#include <map>
#include <string>

#include "journal/journal.hpp"

namespace workbook {

struct HandinMark {
  bool handed_in = false;
  std::string recorded_at;  // when the latest mark (or undo) was recorded
};

// A day from now (UTC ISO): rows of the handins table dated later are left out below.
std::string handin_horizon();

// Every item that has a row dated up to handin_horizon(), with its latest such row.
std::map<std::string, HandinMark> handin_marks(Journal& journal);

// The items marked handed in now (their latest row is a mark, not an undo).
std::map<std::string, std::string> handed_in_items(Journal& journal);

// Records a mark (handed_in) or its undo for `item` at `recorded_at` (utc_now() when
// empty), unless the item already stands that way; true when a row was added.
bool record_handin(Journal& journal, const std::string& item, bool handed_in, const std::string& recorded_at = {});

}  // namespace workbook
