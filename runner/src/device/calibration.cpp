// Storing and loading calibrations (see calibration.hpp).
#include "device/calibration.hpp"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cmath>
#include <sstream>

#include "exec/nvidia_smi.hpp"
#include "journal/journal.hpp"
#include "journal/sqlite_statement.hpp"
#include "util/error.hpp"

namespace workbook {

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
  sqlite3* db = journal.store_connection();
  sql::Transaction transaction(db);
  sql::Statement(db, "INSERT INTO calibrations(gpu_uuid, gpu_name, measured_at, driver, sm_clock_mhz, arch, seed, detail) "
                     "VALUES(?,?,?,?,?,?,?,?)")
      .bind(c.gpu_uuid).bind(c.gpu_name).bind(c.measured_at.empty() ? utc_now() : c.measured_at).bind(c.driver)
      .bind(c.sm_clock_mhz).bind(c.arch).bind(static_cast<long long>(c.seed)).bind(c.detail).run();
  long long id = sqlite3_last_insert_rowid(db);
  for (const auto& [name, f] : c.figures) {
    sql::Statement(db, "INSERT INTO calibration_figures(calibration_id, name, value, unit) VALUES(?,?,?,?)")
        .bind(id).bind(name).bind(f.value).bind(f.unit).run();
  }
  transaction.commit();
  return id;
}

std::optional<Calibration> latest_calibration(Journal& journal, const std::string& gpu_uuid) {
  sqlite3* db = journal.store_connection();
  sql::Statement s(db, "SELECT id, gpu_uuid, gpu_name, measured_at, driver, sm_clock_mhz, arch, seed, detail "
                       "FROM calibrations WHERE gpu_uuid=? ORDER BY measured_at DESC, id DESC LIMIT 1");
  s.bind(gpu_uuid);
  if (!s.next()) return std::nullopt;
  Calibration c;
  c.id = s.integer(0);
  c.gpu_uuid = s.text(1);
  c.gpu_name = s.text(2);
  c.measured_at = s.text(3);
  c.driver = s.text(4);
  c.sm_clock_mhz = s.real_or_null(5);
  c.arch = s.text(6);
  c.seed = static_cast<unsigned long long>(s.integer(7));
  c.detail = s.text(8);
  sql::Statement f(db, "SELECT name, value, unit FROM calibration_figures WHERE calibration_id=? ORDER BY name");
  f.bind(c.id);
  while (f.next()) c.figures[f.text(0)] = {f.real(1), f.text(2)};
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
  const auto out = nvidia_smi({"--query-gpu=clocks.sm", "--format=csv,noheader,nounits"});
  if (!out) return std::nullopt;
  std::stringstream in(*out);
  double v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

}  // namespace workbook
