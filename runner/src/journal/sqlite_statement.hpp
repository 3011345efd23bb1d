// The journal's SQLite helpers, shared by every table's code (journal, calibrations,
// reviews): a prepared statement with positional binding, a one-shot exec, and an
// IMMEDIATE transaction that rolls back unless committed. Failures throw workbook::Error.
#pragma once

#include <fmt/format.h>
#include <sqlite3.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include "util/error.hpp"
#include "util/utf8.hpp"

namespace workbook::sql {

// An SQLite failure that is the journal's or the disk's state, not a busy journal: a
// damaged file, a full disk, a read-only workspace. Throws Error (Exit::io_error) saying
// which and what to do; returns for every other failure.
inline void throw_if_storage_failure(sqlite3* db, int rc) {
  const int primary = rc & 0xff;
  const int os_errno = db ? sqlite3_system_errno(db) : 0;
  const char* name = db ? sqlite3_db_filename(db, "main") : nullptr;
  const std::string file = name && *name ? name : "the journal";
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
    throw Error(Exit::io_error, fmt::format("the journal {} is damaged ({})", file, sqlite3_errstr(rc)),
                "move it aside (keep the copy), then rebuild it from your latest export: "
                "`workbook journal import FILE` (export regularly with `workbook journal export FILE`)");
  }
  if (primary == SQLITE_FULL || os_errno == ENOSPC || os_errno == EDQUOT) {
    throw Error(Exit::io_error, fmt::format("the disk holding the journal {} is full", file),
                "free some space (or move the workspace with --workspace DIR), then run the command again");
  }
  if (primary == SQLITE_READONLY || os_errno == EROFS || os_errno == EACCES || os_errno == EPERM) {
    throw Error(Exit::io_error, fmt::format("the journal {} cannot be written: the workspace is read-only ({})", file,
                                            os_errno ? std::strerror(os_errno) : sqlite3_errstr(rc)),
                "make the workspace folder and its .workbook/ writable, or choose another with --workspace DIR");
  }
  if (primary == SQLITE_IOERR) {  // not CANTOPEN: a folder that does not exist is a usage error
    throw Error(Exit::io_error, fmt::format("the journal {} could not be read or written ({}{})", file,
                                            sqlite3_errstr(rc), os_errno ? ": " + std::string(std::strerror(os_errno)) : ""),
                "check the disk and the workspace folder, then run the command again");
  }
}

// Every failure of the journal ends here, as exit 74 (docs/commands.md: the journal or the
// workspace could not be read or written) with what to do: the storage failures above, a
// journal another command holds locked past the busy wait, a table or column missing (a
// damaged journal), a journal a read-only folder keeps from opening, anything else.
[[noreturn]] inline void throw_journal_failure(sqlite3* db, int rc, const std::string& what, const std::string& msg) {
  throw_if_storage_failure(db, rc);
  const int primary = rc & 0xff;
  const char* name = db ? sqlite3_db_filename(db, "main") : nullptr;
  const std::string file = name && *name ? name : "the journal";
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    throw Error(Exit::io_error, fmt::format("the journal {} is locked by another workbook command ({}; waited 10 s)",
                                            file, msg),
                "let the other command finish (or end it), then run this one again");
  }
  if (msg.find("no such table") != std::string::npos || msg.find("no such column") != std::string::npos) {
    throw Error(Exit::io_error, fmt::format("the journal {} is damaged: {}", file, msg),
                "move it aside (keep the copy), then rebuild it from your latest export: "
                "`workbook journal import FILE` (export regularly with `workbook journal export FILE`)");
  }
  if (primary == SQLITE_CANTOPEN) {
    throw Error(Exit::io_error, fmt::format("the journal {} cannot be opened ({}): is the workspace folder read-only?",
                                            file, msg),
                "make the workspace folder and its .workbook/ writable, or choose another with --workspace DIR");
  }
  throw Error(Exit::io_error, fmt::format("the journal {}: {} failed: {}", file, what, msg),
              "check the workspace's .workbook/journal.db; if it is damaged, move it aside and rebuild it with "
              "`workbook journal import FILE` from your latest export");
}

[[noreturn]] inline void fail(sqlite3* db, const char* what) {
  throw_journal_failure(db, sqlite3_extended_errcode(db), what, sqlite3_errmsg(db));
}

// Runs SQL that returns no rows (one or more statements).
inline void exec(sqlite3* db, const char* sql_text) {
  char* err = nullptr;
  if (const int rc = sqlite3_exec(db, sql_text, nullptr, nullptr, &err); rc != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db);
    sqlite3_free(err);
    throw_journal_failure(db, sqlite3_extended_errcode(db), "exec", msg);
  }
}

// A prepared statement, finalized on scope exit. bind() fills the parameters in order.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql_text) : db_(db) {
    if (sqlite3_prepare_v2(db, sql_text, -1, &stmt_, nullptr) != SQLITE_OK) fail(db, "prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(const std::string& v) {
    sqlite3_bind_text(stmt_, ++n_, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(const char* v) { return bind(std::string(v)); }
  Statement& bind(long long v) {
    sqlite3_bind_int64(stmt_, ++n_, v);
    return *this;
  }
  Statement& bind(int v) { return bind(static_cast<long long>(v)); }
  Statement& bind(bool v) { return bind(static_cast<long long>(v)); }
  Statement& bind(double v) {
    sqlite3_bind_double(stmt_, ++n_, v);
    return *this;
  }
  template <typename T>
  Statement& bind(const std::optional<T>& v) {
    if (v) return bind(*v);
    sqlite3_bind_null(stmt_, ++n_);
    return *this;
  }

  // Ready to run again with new bindings: the last step's state and every binding cleared.
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    n_ = 0;
  }

  // Executes a statement that returns no rows.
  void run() {
    if (sqlite3_step(stmt_) != SQLITE_DONE) fail(db_, "write");
  }
  // Steps to the next row; false when there is none.
  bool next() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail(db_, "read");
    return false;
  }

  // The whole text, NUL bytes included (sqlite3_column_bytes, not strlen).
  std::string text(int col) const {
    const unsigned char* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string();
  }
  // Text the learner typed (or an import brought): valid UTF-8 even in an old journal
  // that stored invalid bytes (each replaced by U+FFFD).
  std::string learner_text(int col) const { return valid_utf8(text(col)); }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  int int32(int col) const { return sqlite3_column_int(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  bool null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  // The shape of a row, for code that copies whole rows (journal export).
  int columns() const { return sqlite3_column_count(stmt_); }
  std::string column_name(int col) const { return sqlite3_column_name(stmt_, col); }
  int type(int col) const { return sqlite3_column_type(stmt_, col); }  // SQLITE_INTEGER, ...
  std::optional<double> real_or_null(int col) const {
    if (null(col)) return std::nullopt;
    return real(col);
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  int n_ = 0;
};

// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() ran.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) { exec(db_, "BEGIN IMMEDIATE;"); }
  ~Transaction() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK;", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    exec(db_, "COMMIT;");
    done_ = true;
  }

 private:
  sqlite3* db_;
  bool done_ = false;
};

}  // namespace workbook::sql
