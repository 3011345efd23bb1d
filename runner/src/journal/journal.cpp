// SQLite journal (see journal.hpp).
#include "journal/journal.hpp"

#include <fmt/format.h>

#include <thread>
#include <sqlite3.h>

#include <unistd.h>

#include <chrono>
#include <ctime>

#include "util/error.hpp"
#include "util/utf8.hpp"
#include "journal/schema.hpp"
#include "journal/sqlite_statement.hpp"

namespace workbook {

namespace {

using Stmt = sql::Statement;

}  // namespace

std::string utc_now() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}.{:03d}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
}

namespace {

// The journal exists, and this process may not write it or its folder (where SQLite keeps
// its -wal and -shm files): a read-only workspace.
bool read_only_journal(const std::filesystem::path& file) {
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
  return ::access(file.c_str(), F_OK) == 0 && (::access(file.c_str(), W_OK) != 0 || ::access(dir.c_str(), W_OK) != 0);
}

// An SQLite URI for `file` opened immutable: read as it is, with no -shm or -wal file made
// (a read-only folder could hold none), so nothing may write it while it is open.
std::string immutable_uri(const std::filesystem::path& file) {
  std::string uri = "file:";
  for (const char c : std::filesystem::absolute(file).string()) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '%' || c == '?' || c == '#' || u < 0x21 || u >= 0x7f) uri += fmt::format("%{:02X}", static_cast<unsigned>(u));
    else uri += c;
  }
  return uri + "?immutable=1";
}

}  // namespace

void Journal::open_read_only() {
  if (sqlite3_open_v2(immutable_uri(file_).c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(Exit::io_error, fmt::format("cannot read the journal {} in this read-only workspace: {}", file_.string(), msg),
                "make the workspace folder and its .workbook/ readable, or choose another with --workspace DIR");
  }
  int version = -1;
  try {
    version = stored_schema_version(db_);
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
  if (version != kSchemaVersion) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw Error(Exit::io_error,
                fmt::format("the journal {} is read-only here and holds schema version {}, not this runner's {}: it "
                            "cannot be brought up to date", file_.string(), version, kSchemaVersion),
                "make the workspace folder and its .workbook/ writable once (any command then updates it), or use "
                "the runner that wrote it");
  }
}

Journal::Journal(const std::filesystem::path& file, JournalAccess access) : file_(file) {
  if (std::error_code ec; file.has_parent_path() && !std::filesystem::is_directory(file.parent_path(), ec)) {
    throw Error(Exit::usage, fmt::format("cannot open the journal {}: its folder does not exist", file.string()),
                "check the workspace folder (--workspace DIR)");
  }
  if (access == JournalAccess::read && read_only_journal(file)) {
    open_read_only();
    return;
  }
  if (const int rc = sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
      rc != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    try {
      sql::throw_journal_failure(db_, db_ ? sqlite3_extended_errcode(db_) : rc, "open", msg);
    } catch (...) {
      sqlite3_close(db_);
      db_ = nullptr;
      throw;
    }
  }
  sqlite3_busy_timeout(db_, 10000);
  try {
    // Switching a new journal to WAL needs the file to itself, and SQLite answers "database
    // is locked" at once (no busy wait) while another process creates and migrates it: two
    // runs started together on a fresh workspace (a Slurm job and a login-node run). Wait.
    for (int attempt = 0;; ++attempt) {
      const int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL;", nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) break;
      if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || attempt >= 200) exec("PRAGMA journal_mode=WAL;");  // throws
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    exec("PRAGMA synchronous=NORMAL;");
    migrate_schema(db_, file);  // every table is declared in journal/schema.cpp
    exec("PRAGMA foreign_keys=ON;");
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

Journal::~Journal() { sqlite3_close(db_); }

void Journal::exec(const char* sql) { sql::exec(db_, sql); }

long long Journal::begin_run(const RunRecord& r) {
  Stmt(db_, "INSERT INTO runs(lab, variant, source, params, seed, device, arch, started_at) VALUES(?,?,?,?,?,?,?,?)")
      .bind(r.lab).bind(r.variant).bind(r.source).bind(r.params).bind(static_cast<long long>(r.seed))
      .bind(r.device).bind(r.arch).bind(utc_now()).run();
  return sqlite3_last_insert_rowid(db_);
}

std::string Journal::record_prediction(long long run_id, const std::string& lab, const RecordedPrediction& p,
                                       bool after_measurement) {
  std::optional<std::string> entered;
  if (!p.entered.empty()) entered = valid_utf8(p.entered);
  Stmt(db_, "INSERT INTO predictions(run_id, lab, prediction, answer, number, recorded_at, after_measurement, entered) "
            "VALUES(?,?,?,?,?,?,?,?)")
      .bind(run_id).bind(lab).bind(p.id).bind(valid_utf8(p.text)).bind(p.number).bind(utc_now()).bind(after_measurement)
      .bind(entered).run();
  Stmt uid(db_, "SELECT uid FROM predictions WHERE id=?");
  uid.bind(static_cast<long long>(sqlite3_last_insert_rowid(db_)));
  return uid.next() ? uid.text(0) : std::string();
}

void Journal::record_build(long long run_id, const std::string& key, bool cached, bool ok) {
  Stmt(db_, "UPDATE runs SET build_key=?, build_cached=?, build_ok=? WHERE id=?")
      .bind(key).bind(cached).bind(ok).bind(run_id).run();
}

namespace {

// A run's verdict is written once: a second writer (a Slurm job's node finishing a run the
// login node has already ended, run/slurm_submit.hpp) is refused and told why.
void refuse_ended_run(sqlite3* db, long long run_id) {
  Stmt s(db, "SELECT verdict, COALESCE(finished_at, '') FROM runs WHERE id=? AND verdict IS NOT NULL");
  s.bind(run_id);
  if (!s.next()) return;
  throw Error(Exit::usage, fmt::format("run #{} has already ended ({}, at {}); its record is kept as it is", run_id,
                                       s.text(0), s.text(1)),
              "a Slurm run ended on the login node is not changed by its compute node: submit it again");
}

}  // namespace

void Journal::record_grade(long long run_id, const Grade& g, const std::map<std::string, std::string>& prediction_uids) {
  sql::Transaction transaction(db_);
  refuse_ended_run(db_, run_id);
  for (const auto& c : g.checks) {
    Stmt(db_, "INSERT INTO checks(run_id, name, reported, pass, value, lim, detail) VALUES(?,?,?,?,?,?,?)")
        .bind(run_id).bind(c.name).bind(c.reported).bind(c.pass).bind(c.value).bind(c.limit).bind(c.detail).run();
  }
  for (const auto& m : g.metrics) {
    std::optional<long long> samples;
    std::optional<double> mn, mx, spread;
    if (m.stats) {
      if (m.stats->samples) samples = *m.stats->samples;
      mn = m.stats->min;
      mx = m.stats->max;
      spread = m.stats->spread;
    }
    Stmt(db_, "INSERT INTO metrics(run_id, name, unit, derived, value, lo, hi, status, samples, min, max, spread) "
              "VALUES(?,?,?,?,?,?,?,?,?,?,?,?)")
        .bind(run_id).bind(m.name).bind(m.unit).bind(m.derived).bind(m.value).bind(m.lo).bind(m.hi)
        .bind(to_string(m.status)).bind(samples).bind(mn).bind(mx).bind(spread).run();
  }
  for (const auto& p : g.predictions) {
    std::optional<long long> correct;
    if (p.correct) correct = *p.correct ? 1 : 0;
    std::optional<std::string> of;
    if (auto it = prediction_uids.find(p.id); it != prediction_uids.end()) of = it->second;
    Stmt(db_, "INSERT INTO prediction_grades(run_id, prediction, measured, factor, band, score, max_score, correct, "
              "right_answer, prediction_uid) VALUES(?,?,?,?,?,?,?,?,?,?)")
        .bind(run_id).bind(p.id).bind(p.measured).bind(p.factor).bind(p.band).bind(p.score).bind(p.max_score)
        .bind(correct).bind(p.right_answer).bind(of).run();
  }
  transaction.commit();
}

void Journal::finish_run(long long run_id, Verdict verdict, int exit_code, const std::string& detail) {
  sql::Transaction transaction(db_);
  refuse_ended_run(db_, run_id);
  Stmt(db_, "UPDATE runs SET finished_at=?, verdict=?, exit_code=?, detail=? WHERE id=?")
      .bind(utc_now()).bind(to_string(verdict)).bind(exit_code).bind(detail).bind(run_id).run();
  transaction.commit();
}

Decision Journal::end_run(long long run_id, const RunFacts& facts, int exit_code) {
  Decision d = decide(facts);
  finish_run(run_id, d.verdict, exit_code, d.journal_detail());
  return d;
}

void Journal::record_explanation(long long run_id, const std::string& text, const std::string& feedback) {
  Stmt(db_, "INSERT INTO explanations(run_id, text, recorded_at, feedback) VALUES(?,?,?,?)")
      .bind(run_id).bind(valid_utf8(text)).bind(utc_now()).bind(feedback).run();
}

}  // namespace workbook
