// A badly missed prediction brings the module's review items due sooner. A nudge is one
// row of learn_nudges (journal/schema.cpp): the lab and prediction id it is for (one per
// pair, never changed), how far it missed (log2 predicted / measured) and the day. It
// acts through the FSRS state of each of the module's cards in review: the days left
// until it is due are halved (at least one day is left) and its stability halves with
// them, so the next review is scheduled from the shorter memory. Rebuilding the cards
// from the review log (journal import) replays the nudges in time order with the reviews.
#pragma once

#include <string>
#include <vector>

#include "journal/journal.hpp"
#include "learn/fsrs.hpp"

struct sqlite3;

namespace workbook::learn {

struct Nudge {
  int module = 0;
  std::string lab, prediction;
  double log2_ratio = 0;
  long long day = 0;
  std::string recorded_at;  // ISO time
};

// Pure: the card after a nudge on `day` (only a card in review, due after tomorrow, moves).
fsrs::Card nudged(const fsrs::Card& card, long long day);

// Records `n` unless its lab and prediction already have a nudge, and moves the module's
// cards. Returns how many cards moved, or -1 when the nudge was recorded before.
int record_nudge(Journal& journal, const Nudge& n);

// Every recorded nudge, oldest first; of a lab's prediction nudged on two machines (an
// import merged both), only the oldest.
std::vector<Nudge> recorded_nudges(sqlite3* db);

// Pure: `card` of `module` after the nudges recorded after `after` and up to `upto`
// (ISO times; `upto` empty: no end), for replaying a review log.
fsrs::Card replay_nudges(fsrs::Card card, int module, const std::vector<Nudge>& nudges, const std::string& after,
                         const std::string& upto);

}  // namespace workbook::learn
