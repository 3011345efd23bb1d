// The learning engine's journal tables (see review_store.hpp).
#include "learn/review_store.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <nlohmann/json.hpp>

#include "learn/clock.hpp"
#include "util/error.hpp"
#include "journal/sqlite_statement.hpp"

namespace workbook::learn {

namespace {

const char* kLearnSchema = R"sql(
CREATE TABLE IF NOT EXISTS learn_cards(
  module INTEGER NOT NULL, item TEXT NOT NULL, state TEXT NOT NULL,
  stability REAL NOT NULL, difficulty REAL NOT NULL,
  last_day INTEGER NOT NULL, interval_days INTEGER NOT NULL, due_day INTEGER NOT NULL, due TEXT NOT NULL,
  last_review TEXT NOT NULL, reps INTEGER NOT NULL, lapses INTEGER NOT NULL, introduced_day INTEGER NOT NULL,
  PRIMARY KEY(module, item));
CREATE INDEX IF NOT EXISTS learn_cards_by_due ON learn_cards(due_day);
CREATE TABLE IF NOT EXISTS learn_revlog(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, item TEXT NOT NULL, reviewed_at TEXT NOT NULL,
  day INTEGER NOT NULL, rating INTEGER NOT NULL, mode TEXT NOT NULL, source TEXT NOT NULL,
  duration_s REAL NOT NULL, interval_before INTEGER NOT NULL, interval_after INTEGER NOT NULL,
  elapsed_days INTEGER NOT NULL, retrievability REAL, stability REAL NOT NULL, difficulty REAL NOT NULL,
  answer TEXT NOT NULL, numbers_checked INTEGER NOT NULL, numbers_correct INTEGER NOT NULL, variant TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learn_follow(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, example TEXT NOT NULL, step INTEGER NOT NULL,
  answer TEXT NOT NULL, numbers_checked INTEGER NOT NULL, numbers_correct INTEGER NOT NULL,
  recorded_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learn_drills(
  id INTEGER PRIMARY KEY, module INTEGER NOT NULL, drill TEXT NOT NULL, attempted_at TEXT NOT NULL,
  day INTEGER NOT NULL, covered INTEGER NOT NULL, total INTEGER NOT NULL, missed TEXT NOT NULL,
  seconds REAL NOT NULL);
)sql";

using sql::exec;
using sql::Transaction;
using Stmt = sql::Statement;

constexpr const char* kCardColumns =
    "module, item, state, stability, difficulty, last_day, interval_days, reps, lapses, last_review, introduced_day";

StoredCard read_card(const Stmt& s) {
  StoredCard c;
  c.module = s.int32(0);
  c.item = s.text(1);
  c.card.state = s.text(2) == "new" ? fsrs::State::fresh : fsrs::State::review;
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

}  // namespace

ReviewStore::ReviewStore(Journal& journal) : db_(journal.handle()) {
  Transaction t(db_);
  exec(db_, kLearnSchema);
  t.commit();
}

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
  Stmt(db_,
       "INSERT INTO learn_cards(module, item, state, stability, difficulty, last_day, interval_days, due_day, due, "
       "last_review, reps, lapses, introduced_day) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?) "
       "ON CONFLICT(module, item) DO UPDATE SET state=excluded.state, stability=excluded.stability, "
       "difficulty=excluded.difficulty, last_day=excluded.last_day, interval_days=excluded.interval_days, "
       "due_day=excluded.due_day, due=excluded.due, last_review=excluded.last_review, reps=excluded.reps, "
       "lapses=excluded.lapses")
      .bind(in.module)
      .bind(in.item)
      .bind(std::string(fsrs::to_string(c.state)))
      .bind(c.memory.stability)
      .bind(c.memory.difficulty)
      .bind(c.last_day)
      .bind(c.interval)
      .bind(c.due_day())
      .bind(date_of_day(c.due_day()))
      .bind(at)
      .bind(c.reps)
      .bind(c.lapses)
      .bind(before ? before->introduced_day : today)
      .run();
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

std::vector<RevlogEntry> ReviewStore::revlog(int limit) const {
  Stmt s(db_,
         "SELECT id, module, item, reviewed_at, mode, source, rating, duration_s, interval_before, interval_after, "
         "elapsed_days, retrievability, stability, difficulty FROM learn_revlog ORDER BY id LIMIT ?");
  s.bind(limit);
  std::vector<RevlogEntry> out;
  while (s.next()) {
    RevlogEntry e;
    e.id = s.integer(0);
    e.module = s.int32(1);
    e.item = s.text(2);
    e.reviewed_at = s.text(3);
    e.mode = s.text(4);
    e.source = s.text(5);
    e.rating = s.int32(6);
    e.duration_s = s.real(7);
    e.interval_before = s.int32(8);
    e.interval_after = s.int32(9);
    e.elapsed_days = s.int32(10);
    if (!s.null(11)) e.retrievability = s.real(11);
    e.stability = s.real(12);
    e.difficulty = s.real(13);
    out.push_back(e);
  }
  return out;
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
  Stmt s(db_,
         "SELECT step FROM learn_follow WHERE module=? AND example=? AND id > "
         "COALESCE((SELECT MAX(id) FROM learn_follow WHERE module=? AND example=? AND step=-1), 0) ORDER BY step");
  s.bind(module).bind(example).bind(module).bind(example);
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
         "ORDER BY id");
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
