// Review cards brought due sooner by badly missed predictions (see nudges.hpp).
#include "learn/nudges.hpp"

#include <algorithm>

#include "journal/sqlite_statement.hpp"
#include "learn/clock.hpp"
#include "learn/review_store.hpp"

namespace workbook::learn {

namespace {
using Stmt = sql::Statement;
}  // namespace

fsrs::Card nudged(const fsrs::Card& card, long long day) {
  if (card.state != fsrs::State::review) return card;
  const long long left = card.due_day() - day;
  if (left <= 1) return card;
  fsrs::Card c = card;
  c.interval = static_cast<int>(day - c.last_day + std::max(1LL, left / 2));
  c.memory.stability = std::max(0.1, c.memory.stability / 2);
  return c;
}

int record_nudge(Journal& journal, const Nudge& n) {
  sqlite3* db = journal.store_connection();
  sql::Transaction t(db);
  Stmt seen(db, "SELECT 1 FROM learn_nudges WHERE lab=? AND prediction=?");
  seen.bind(n.lab).bind(n.prediction);
  if (seen.next()) return -1;
  Stmt(db, "INSERT INTO learn_nudges(module, lab, prediction, log2_ratio, day, recorded_at) VALUES(?,?,?,?,?,?)")
      .bind(n.module).bind(n.lab).bind(n.prediction).bind(n.log2_ratio).bind(n.day).bind(n.recorded_at).run();
  ReviewStore store(journal);
  int moved = 0;
  for (const auto& c : store.cards()) {
    if (c.module != n.module) continue;
    const fsrs::Card after = nudged(c.card, n.day);
    if (after.interval == c.card.interval && after.memory.stability == c.card.memory.stability) continue;
    store.write(StoredCard{c.module, c.item, after, c.last_review, c.introduced_day});
    ++moved;
  }
  t.commit();
  return moved;
}

std::vector<Nudge> recorded_nudges(sqlite3* db) {
  Stmt s(db,
         "SELECT module, lab, prediction, log2_ratio, day, recorded_at FROM learn_nudges ORDER BY recorded_at, id");
  std::vector<Nudge> out;
  while (s.next()) {
    Nudge n{s.int32(0), s.text(1), s.text(2), s.real(3), s.integer(4), s.text(5)};
    const bool seen = std::any_of(out.begin(), out.end(), [&](const Nudge& o) { return o.lab == n.lab && o.prediction == n.prediction; });
    if (!seen) out.push_back(n);  // two machines' nudges of one prediction (an import): the oldest counts
  }
  return out;
}

fsrs::Card replay_nudges(fsrs::Card card, int module, const std::vector<Nudge>& nudges, const std::string& after,
                         const std::string& upto) {
  for (const auto& n : nudges) {
    if (n.module == module && n.recorded_at > after && (upto.empty() || n.recorded_at <= upto)) card = nudged(card, n.day);
  }
  return card;
}

}  // namespace workbook::learn
