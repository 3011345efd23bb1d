// Importing journal exports from other machines with the learning engine's derived state
// kept sound: journal/journal_import merges the rows (by uid, all or nothing), and in the
// same transaction the FSRS cards are rebuilt from the merged review log in time order
// (ReviewStore::rebuild_cards), as a card is a function of its item's review history.
#pragma once

#include <filesystem>
#include <vector>

#include "journal/journal.hpp"
#include "journal/journal_import.hpp"

namespace workbook::learn {

struct MergeResult {
  ImportSummary summary;
  int cards_rebuilt = 0;  // 0 when no review was added
};

MergeResult merge_journal_files(Journal& journal, const std::vector<std::filesystem::path>& files);

}  // namespace workbook::learn
