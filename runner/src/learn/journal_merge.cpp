// Journal import with the FSRS cards rebuilt (see journal_merge.hpp).
#include "learn/journal_merge.hpp"

#include "learn/fsrs.hpp"
#include "learn/review_store.hpp"

namespace workbook::learn {

MergeResult merge_journal_files(Journal& journal, const std::vector<std::filesystem::path>& files) {
  MergeResult out;
  out.summary = import_journal_files(journal, files, [&](const ImportSummary& s) {
    // The sessions schedule with the default parameters; so does the replay.
    if (s.added("learn_revlog") > 0) out.cards_rebuilt = ReviewStore(journal).rebuild_cards(fsrs::Scheduler());
  });
  return out;
}

}  // namespace workbook::learn
