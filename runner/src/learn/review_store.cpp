// The learning engine's journal tables (see review_store.hpp).
#include "learn/review_store.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "learn/clock.hpp"
#include "learn/nudges.hpp"
#include "util/error.hpp"
#include "journal/sqlite_statement.hpp"

namespace workbook::learn {

namespace {

using sql::Transaction;
using Stmt = sql::Statement;

constexpr const char* kCardColumns =
    "module, item, state, stability, difficulty, last_day, interval_days, reps, lapses, last_review, introduced_day";

// The state column: "new", "review", or "learning:N" / "relearning:N" for a card on
// (re)learning step N (0-based). A journal from before the steps holds only "review".
std::string state_text(const fsrs::Card& c) {
  const std::string state = fsrs::to_string(c.state);
  if (c.state == fsrs::State::learning || c.state == fsrs::State::relearning) return fmt::format("{}:{}", state, c.step);
  return state;
}

void read_state(const std::string& text, fsrs::Card& c) {
  const auto colon = text.find(':');
  const std::string state = text.substr(0, colon);
  c.state = state == "new"          ? fsrs::State::fresh
            : state == "learning"   ? fsrs::State::learning
            : state == "relearning" ? fsrs::State::relearning
                                    : fsrs::State::review;
  c.step = 0;
  if (colon != std::string::npos) {
    const std::string n = text.substr(colon + 1);
    if (!n.empty() && n.size() < 4 && std::all_of(n.begin(), n.end(), ::isdigit)) c.step = std::stoi(n);
  }
}

StoredCard read_card(const Stmt& s) {
  StoredCard c;
  c.module = s.int32(0);
  c.item = s.text(1);
  read_state(s.text(2), c.card);
  c.card.memory.stability = s.real(3);
  c.card.memory.difficulty = s.real(4);
  c.card.last_day = s.integer(5);
  c.card.interval = s.int32(6);
  c.card.reps = s.int32(7);
  c.card.lapses = s.int32(8);
  c.last_review = s.text(9);
  c.introduced_day = s.integer(10);
  return c;
}

// Writes (inserts or replaces) the card of one item.
void write_card(sqlite3* db, int module, const std::string& item, const fsrs::Card& c, const std::string& last_review,
                long long introduced_day) {
  Stmt(db,
       "INSERT INTO learn_cards(module, item, state, stability, difficulty, last_day, interval_days, due_day, due, "
       "last_review, reps, lapses, introduced_day) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?) "
       "ON CONFLICT(module, item) DO UPDATE SET state=excluded.state, stability=excluded.stability, "
       "difficulty=excluded.difficulty, last_day=excluded.last_day, interval_days=excluded.interval_days, "
       "due_day=excluded.due_day, due=excluded.due, last_review=excluded.last_review, reps=excluded.reps, "
       "lapses=excluded.lapses, introduced_day=excluded.introduced_day")
      .bind(module)
      .bind(item)
      .bind(state_text(c))
      .bind(c.memory.stability)
      .bind(c.memory.difficulty)
      .bind(c.last_day)
      .bind(c.interval)
      .bind(c.due_day())
      .bind(date_of_day(c.due_day()))
      .bind(last_review)
      .bind(c.reps)
      .bind(c.lapses)
      .bind(introduced_day)
      .run();
}

}  // namespace

ReviewStore::ReviewStore(Journal& journal) : db_(journal.store_connection()) {}

std::optional<StoredCard> ReviewStore::card(int module, const std::string& item) const {
  Stmt s(db_, fmt::format("SELECT {} FROM learn_cards WHERE module=? AND item=?", kCardColumns).c_str());
  s.bind(module).bind(item);
  if (!s.next()) return std::nullopt;
  return read_card(s);
}

std::vector<StoredCard> ReviewStore::cards() const {
  Stmt s(db_, fmt::format("SELECT {} FROM learn_cards ORDER BY module, item", kCardColumns).c_str());
  std::vector<StoredCard> out;
  while (s.next()) out.push_back(read_card(s));
  return out;
}

std::vector<StoredCard> ReviewStore::due(long long today) const {
  Stmt s(db_, fmt::format("SELECT {} FROM learn_cards WHERE due_day <= ? ORDER BY due_day, module, item", kCardColumns)
                  .c_str());
  s.bind(today);
  std::vector<StoredCard> out;
  while (s.next()) out.push_back(read_card(s));
  return out;
}

int ReviewStore::introduced_on(long long day) const {
  Stmt s(db_, "SELECT COUNT(*) FROM learn_cards WHERE introduced_day=?");
  s.bind(day);
  return s.next() ? s.int32(0) : 0;
}

fsrs::Outcome ReviewStore::record(const ReviewInput& in, const fsrs::Scheduler& sched, long long now) {
  const long long today = day_of(now);
  const std::string at = iso_utc(now);
  Transaction t(db_);
  auto before = card(in.module, in.item);
  fsrs::Card current = before ? before->card : fsrs::Card{};
  fsrs::Outcome o = sched.review(current, today, in.rating);
  const fsrs::Card& c = o.card;
  write_card(db_, in.module, in.item, c, at, before ? before->introduced_day : today);
  Stmt(db_,
       "INSERT INTO learn_revlog(module, item, reviewed_at, day, rating, mode, source, duration_s, interval_before, "
       "interval_after, elapsed_days, retrievability, stability, difficulty, answer, numbers_checked, "
       "numbers_correct, variant) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
      .bind(in.module)
      .bind(in.item)
      .bind(at)
      .bind(today)
      .bind(static_cast<int>(in.rating))
      .bind(in.mode)
      .bind(in.source)
      .bind(in.duration_s)
      .bind(current.interval)
      .bind(c.interval)
      .bind(o.elapsed_days)
      .bind(o.retrievability)
      .bind(c.memory.stability)
      .bind(c.memory.difficulty)
      .bind(in.answer)
      .bind(in.numbers_checked)
      .bind(in.numbers_correct)
      .bind(in.variant)
      .run();
  t.commit();
  return o;
}

// Replays each item's reviews in time order (reviewed_at, then id: one journal's reviews
// within one second keep their order) from a new card, with the day and rating each row
// recorded. On an unmerged journal this gives back exactly the cards record() wrote, as
// record() schedules from the same card with the same day and rating.
void ReviewStore::write(const StoredCard& c) { write_card(db_, c.module, c.item, c.card, c.last_review, c.introduced_day); }

int ReviewStore::rebuild_cards(const fsrs::Scheduler& sched) {
  const std::vector<Nudge> nudges = recorded_nudges(db_);
  Stmt s(db_, "SELECT module, item, day, rating, reviewed_at, uid FROM learn_revlog ORDER BY module, item, reviewed_at, id");
  int rebuilt = 0;
  std::optional<StoredCard> cur;
  auto flush = [&] {
    if (!cur) return;
    cur->card = replay_nudges(cur->card, cur->module, nudges, cur->last_review, "");
    write_card(db_, cur->module, cur->item, cur->card, cur->last_review, cur->introduced_day);
    ++rebuilt;
  };
  while (s.next()) {
    const int module = s.int32(0);
    const std::string item = s.text(1);
    const long long day = s.integer(2);
    const int rating = s.int32(3);
    if (rating < 1 || rating > 4) {
      throw Error(Exit::usage, fmt::format("the review {} of {} item {} has rating {} (1 to 4 expected)", s.text(5),
                                           module, item, rating),
                  "the review log is damaged; restore the journal or the export it came from");
    }
    if (!cur || cur->module != module || cur->item != item) {
      flush();
      cur = StoredCard{module, item, fsrs::Card{}, "", day};
    }
    cur->card = replay_nudges(cur->card, module, nudges, cur->last_review, s.text(4));
    cur->card = sched.review(cur->card, day, static_cast<fsrs::Rating>(rating)).card;
    cur->last_review = s.text(4);
  }
  flush();
  return rebuilt;
}

void ReviewStore::record_follow_step(const FollowStep& st, long long now) {
  Stmt(db_,
       "INSERT INTO learn_follow(module, example, step, answer, numbers_checked, numbers_correct, recorded_at) "
       "VALUES(?,?,?,?,?,?,?)")
      .bind(st.module)
      .bind(st.example)
      .bind(st.step)
      .bind(st.answer)
      .bind(st.numbers_checked)
      .bind(st.numbers_correct)
      .bind(iso_utc(now))
      .run();
}

int ReviewStore::follow_progress(int module, const std::string& example) const {
  // Steps recorded after the last restart (a row with step -1), counted from the start.
  // "After" is by time, then by id (rows imported from another machine get later ids).
  Stmt s(db_,
         "SELECT step FROM learn_follow f WHERE module=?1 AND example=?2 AND NOT EXISTS (SELECT 1 FROM learn_follow r "
         "WHERE r.module=?1 AND r.example=?2 AND r.step=-1 AND (r.recorded_at, r.id) >= (f.recorded_at, f.id)) "
         "ORDER BY step");
  s.bind(module).bind(example);
  int done = 0;
  while (s.next()) {
    if (s.int32(0) == done) ++done;
  }
  return done;
}

void ReviewStore::restart_follow(int module, const std::string& example, long long now) {
  record_follow_step({module, example, -1, "", 0, 0}, now);
}

void ReviewStore::record_drill(const DrillAttempt& a) {
  Stmt(db_,
       "INSERT INTO learn_drills(module, drill, attempted_at, day, covered, total, missed, seconds) "
       "VALUES(?,?,?,?,?,?,?,?)")
      .bind(a.module)
      .bind(a.drill)
      .bind(a.attempted_at)
      .bind(a.day)
      .bind(a.covered)
      .bind(a.total)
      .bind(nlohmann::json(a.missed).dump())
      .bind(a.seconds)
      .run();
}

std::vector<DrillAttempt> ReviewStore::drill_attempts(int module, const std::string& drill) const {
  Stmt s(db_,
         "SELECT attempted_at, day, covered, total, missed, seconds FROM learn_drills WHERE module=? AND drill=? "
         "ORDER BY attempted_at, id");
  s.bind(module).bind(drill);
  std::vector<DrillAttempt> out;
  while (s.next()) {
    DrillAttempt a;
    a.module = module;
    a.drill = drill;
    a.attempted_at = s.text(0);
    a.day = s.integer(1);
    a.covered = s.int32(2);
    a.total = s.int32(3);
    auto missed = nlohmann::json::parse(s.text(4), nullptr, false);
    if (missed.is_array()) {
      for (const auto& m : missed) {
        if (m.is_number_integer()) a.missed.push_back(m.get<int>());
      }
    }
    a.seconds = s.real(5);
    out.push_back(a);
  }
  return out;
}

}  // namespace workbook::learn
