// The learning engine's tables in the journal (declared in journal/schema.cpp):
//
//   learn_cards    one card per exercise item: module, item, FSRS state, due day, reps, lapses
//                  (state: "new", "review", or "learning:N" / "relearning:N" on short-term
//                  step N: due today, interval 0 days; no new column, so no migration)
//   learn_revlog   every review as it happens: item, time, rating, mode, duration,
//                  interval before and after, R at the review, S and D after, the answer
//   learn_follow   worked-example steps the learner has done (`workbook follow`)
//   learn_drills   oral-drill attempts: points covered of the total, the points missed
//
// Each review is one transaction (card and revlog together), so a Ctrl-C or a crash keeps
// every review already answered and never half of one.
//
// learn_revlog is the record; learn_cards is derived from it. When reviews from another
// machine are merged in (`workbook journal import`), the cards are rebuilt by replaying
// the merged log in time order (rebuild_cards), so that each card is what the scheduler
// would have made of the whole history. The revlog rows themselves stay as recorded: their
// interval, R, S and D are what the learner was shown on the machine that day.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "journal/journal.hpp"
#include "learn/fsrs.hpp"

namespace workbook::learn {

struct StoredCard {
  int module = 0;
  std::string item;
  fsrs::Card card;
  std::string last_review;  // ISO time
  long long introduced_day = 0;
};

// One answered and self-graded item.
struct ReviewInput {
  int module = 0;
  std::string item;
  fsrs::Rating rating = fsrs::Rating::good;
  std::string mode = "scale";    // "scale" (Again/Hard/Good/Easy) or "pass-fail"
  std::string source;            // "exercises" or "review"
  double duration_s = 0;         // from showing the prompt to the grade
  std::string answer;            // what the learner typed (empty: answered out loud)
  int numbers_checked = 0, numbers_correct = 0;
  std::string variant;           // JSON of the drawn parameters, or empty
};

struct FollowStep {
  int module = 0;
  std::string example;
  int step = 0;  // 0-based
  std::string answer;
  int numbers_checked = 0, numbers_correct = 0;
};

struct DrillAttempt {
  int module = 0;
  std::string drill, attempted_at;
  long long day = 0;
  int covered = 0, total = 0;
  std::vector<int> missed;  // 1-based point numbers
  double seconds = 0;       // time spent answering
};

class ReviewStore {
 public:
  explicit ReviewStore(Journal& journal);

  std::optional<StoredCard> card(int module, const std::string& item) const;
  std::vector<StoredCard> cards() const;
  // Cards due on or before `today`, most overdue first, then by module. A card on a
  // (re)learning step is due on the day of its last review and after: a later session
  // asks it at once (as Anki does with cards due within its learn-ahead limit).
  std::vector<StoredCard> due(long long today) const;
  // How many cards were first reviewed on `day`.
  int introduced_on(long long day) const;
  // Schedules the review with `sched` at `now_unix` and writes card and revlog together.
  fsrs::Outcome record(const ReviewInput& in, const fsrs::Scheduler& sched, long long now_unix);
  // Writes a card as it is (learn/nudges.hpp moves cards due sooner with it).
  void write(const StoredCard& c);
  // Recomputes the card of every item with reviews from its review log in time order,
  // with the nudges of learn/nudges.hpp replayed between the reviews; returns how many cards it wrote. Run it inside a transaction (journal import does).
  int rebuild_cards(const fsrs::Scheduler& sched);

  void record_follow_step(const FollowStep& step, long long now_unix);
  // The number of leading steps of an example the learner has done (since the last restart).
  int follow_progress(int module, const std::string& example) const;
  void restart_follow(int module, const std::string& example, long long now_unix);

  void record_drill(const DrillAttempt& a);
  std::vector<DrillAttempt> drill_attempts(int module, const std::string& drill) const;  // oldest first

 private:
  sqlite3* db_;
};

}  // namespace workbook::learn
