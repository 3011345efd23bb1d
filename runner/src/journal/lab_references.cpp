// A GPU's own lab references (see lab_references.hpp).
#include "journal/lab_references.hpp"

#include <nlohmann/json.hpp>

#include "journal/sqlite_statement.hpp"

namespace workbook {

namespace {

using nlohmann::json;

std::map<std::string, double> numbers_of(const std::string& text) {
  std::map<std::string, double> out;
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return out;
  for (const auto& [k, v] : j.items())
    if (v.is_number()) out[k] = v.get<double>();
  return out;
}

std::map<std::string, LabReferenceFigure> figures_of(const std::string& text) {
  std::map<std::string, LabReferenceFigure> out;
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return out;
  for (const auto& [k, v] : j.items()) {
    if (!v.is_object() || !v.value("value", json()).is_number() || !v.value("band", json()).is_number()) continue;
    const double spread = v.value("spread", json()).is_number() ? v["spread"].get<double>() : 0.0;
    out[k] = {v["value"].get<double>(), v["band"].get<double>(), spread};
  }
  return out;
}

}  // namespace

void record_lab_reference(Journal& journal, const LabReference& r) {
  json figures = json::object();
  for (const auto& [k, f] : r.figures) figures[k] = {{"value", f.value}, {"band", f.band}, {"spread", f.spread}};
  sql::Statement(journal.store_connection(),
                 "INSERT INTO lab_references(gpu_name, gpu_uuid, driver, toolkit, lab, source_hash, params, "
                 "sm_clock_mhz, power_source, runs, figures, basis, measured_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)")
      .bind(r.gpu_name).bind(r.gpu_uuid).bind(r.driver).bind(r.toolkit).bind(r.lab).bind(r.source_hash)
      .bind(json(r.params).dump()).bind(r.sm_clock_mhz).bind(r.power_source).bind(r.runs).bind(figures.dump())
      .bind(json(r.basis).dump()).bind(utc_now()).run();
}

std::vector<LabReference> lab_references_for(Journal& journal, const std::string& gpu_name) {
  sql::Statement s(journal.store_connection(),
                   "SELECT gpu_name, gpu_uuid, driver, toolkit, lab, source_hash, params, sm_clock_mhz, power_source, "
                   "runs, figures, basis, measured_at FROM lab_references WHERE gpu_name = ? ORDER BY id DESC");
  s.bind(gpu_name);
  std::vector<LabReference> out;
  while (s.next()) {
    LabReference r;
    r.gpu_name = s.text(0);
    r.gpu_uuid = s.text(1);
    r.driver = s.text(2);
    r.toolkit = s.text(3);
    r.lab = s.text(4);
    r.source_hash = s.text(5);
    r.params = numbers_of(s.text(6));
    r.sm_clock_mhz = s.real_or_null(7);
    r.power_source = s.text(8);
    r.runs = s.int32(9);
    r.figures = figures_of(s.text(10));
    r.basis = numbers_of(s.text(11));
    r.measured_at = s.text(12);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace workbook
