// Storing and loading calibrations (see calibration.hpp).
#include "device/calibration.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cmath>
#include <sstream>

#include "exec/process.hpp"
#include "journal/journal.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

[[noreturn]] void db_fail(sqlite3* db, const char* what) {
  throw Error(Exit::runtime_error, fmt::format("journal {} failed: {}", what, sqlite3_errmsg(db)),
              "if another workbook command is running, let it finish and try again");
}

// A prepared statement finalized on scope exit.
struct Statement {
  Statement(sqlite3* d, const char* sql) : db(d) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) db_fail(db, "prepare");
  }
  ~Statement() { sqlite3_finalize(stmt); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  void text(int i, const std::string& v) { sqlite3_bind_text(stmt, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT); }
  void real(int i, std::optional<double> v) {
    if (v) {
      sqlite3_bind_double(stmt, i, *v);
    } else {
      sqlite3_bind_null(stmt, i);
    }
  }
  void integer(int i, long long v) { sqlite3_bind_int64(stmt, i, v); }
  void done() {
    if (sqlite3_step(stmt) != SQLITE_DONE) db_fail(db, "write");
  }
  bool row() {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) db_fail(db, "read");
    return false;
  }
  std::string col_text(int c) {
    auto* p = sqlite3_column_text(stmt, c);
    return p ? reinterpret_cast<const char*>(p) : "";
  }
  std::optional<double> col_real(int c) {
    if (sqlite3_column_type(stmt, c) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(stmt, c);
  }
  sqlite3* db;
  sqlite3_stmt* stmt = nullptr;
};

void exec(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) db_fail(db, sql);
}

}  // namespace

std::optional<double> Calibration::figure(const std::string& name) const {
  auto it = figures.find(name);
  if (it == figures.end()) return std::nullopt;
  return it->second.value;
}

const std::vector<std::string>& calibration_figure_names() {
  static const std::vector<std::string> names = {
      "d2d_gbps",          "memcpy_d2d_gbps", "fp32_tflops",       "fp64_tflops",    "h2d_pageable_gbps",
      "h2d_pinned_gbps",   "d2h_pageable_gbps", "d2h_pinned_gbps", "launch_us",
  };
  return names;
}

long long store_calibration(Journal& journal, const Calibration& c) {
  sqlite3* db = journal.handle();
  exec(db, "BEGIN IMMEDIATE;");
  try {
    Statement s(db, "INSERT INTO calibrations(gpu_uuid, gpu_name, measured_at, driver, sm_clock_mhz, arch, seed, detail) "
                    "VALUES(?,?,?,?,?,?,?,?)");
    s.text(1, c.gpu_uuid);
    s.text(2, c.gpu_name);
    s.text(3, c.measured_at.empty() ? utc_now() : c.measured_at);
    s.text(4, c.driver);
    s.real(5, c.sm_clock_mhz);
    s.text(6, c.arch);
    s.integer(7, static_cast<long long>(c.seed));
    s.text(8, c.detail);
    s.done();
    long long id = sqlite3_last_insert_rowid(db);
    for (const auto& [name, f] : c.figures) {
      Statement fs(db, "INSERT INTO calibration_figures(calibration_id, name, value, unit) VALUES(?,?,?,?)");
      fs.integer(1, id);
      fs.text(2, name);
      fs.real(3, f.value);
      fs.text(4, f.unit);
      fs.done();
    }
    exec(db, "COMMIT;");
    return id;
  } catch (...) {
    sqlite3_exec(db, "ROLLBACK;", nullptr, nullptr, nullptr);
    throw;
  }
}

std::optional<Calibration> latest_calibration(Journal& journal, const std::string& gpu_uuid) {
  sqlite3* db = journal.handle();
  Statement s(db, "SELECT id, gpu_uuid, gpu_name, measured_at, driver, sm_clock_mhz, arch, seed, detail "
                  "FROM calibrations WHERE gpu_uuid=? ORDER BY id DESC LIMIT 1");
  s.text(1, gpu_uuid);
  if (!s.row()) return std::nullopt;
  Calibration c;
  c.id = sqlite3_column_int64(s.stmt, 0);
  c.gpu_uuid = s.col_text(1);
  c.gpu_name = s.col_text(2);
  c.measured_at = s.col_text(3);
  c.driver = s.col_text(4);
  c.sm_clock_mhz = s.col_real(5);
  c.arch = s.col_text(6);
  c.seed = static_cast<unsigned long long>(sqlite3_column_int64(s.stmt, 7));
  c.detail = s.col_text(8);
  Statement f(db, "SELECT name, value, unit FROM calibration_figures WHERE calibration_id=? ORDER BY name");
  f.integer(1, c.id);
  while (f.row()) c.figures[f.col_text(0)] = {f.col_real(1).value_or(0), f.col_text(2)};
  return c;
}

Calibration calibration_from_results(const LabResults& results, std::vector<std::string>& missing) {
  Calibration c;
  for (const auto& name : calibration_figure_names()) {
    const ReportedMetric* m = results.metric(name);
    if (!m || !std::isfinite(m->value) || m->value <= 0) {
      missing.push_back(name);
      continue;
    }
    c.figures[name] = {m->value, m->unit};
  }
  return c;
}

std::string calibration_key(const std::string& uuid, const std::string& name) {
  return uuid.empty() ? "name:" + name : uuid;
}

std::optional<double> query_sm_clock_mhz() {
  ProcessOptions opt;
  opt.argv = {"nvidia-smi", "--query-gpu=clocks.sm", "--format=csv,noheader,nounits"};
  opt.timeout_s = 20;
  try {
    ProcessResult r = run_process(opt);
    if (!r.exited_ok()) return std::nullopt;
    std::stringstream in(r.out);
    double v = 0;
    if (in >> v) return v;
  } catch (const Error&) {
  }
  return std::nullopt;
}

}  // namespace workbook
