// A journal's export and import reported (see journal_transfer.hpp).
#include "present/journal_transfer.hpp"

#include <fmt/format.h>

namespace workbook {

namespace {

long long rows_of(const ExportReport& r, const std::string& table) {
  const auto it = r.rows.find(table);
  return it == r.rows.end() ? 0 : it->second;
}

}  // namespace

void print_export(const ExportReport& r, const Style&) {
  fmt::print("Exported {} runs, {} predictions and {} reviews from {} to {} (machine {}, schema version {}).\n",
             rows_of(r, "runs"), rows_of(r, "predictions"), rows_of(r, "learn_revlog"), r.journal, r.file, r.machine,
             r.schema_version);
}

nlohmann::json export_json(const ExportReport& r) {
  return {{"file", r.file}, {"machine", r.machine}, {"schema_version", r.schema_version},
          {"exported_at", r.exported_at}, {"rows", r.rows}};
}

void print_import(const ImportReport& r, const Style&) {
  const ImportSummary& s = r.summary;
  for (const auto& f : s.files) {
    fmt::print("Imported {} (machine {}, exported {}).\n", f.path, f.machine.empty() ? "?" : f.machine,
               f.exported_at.empty() ? "?" : f.exported_at);
  }
  for (const auto& t : s.tables) {
    if (t.added + t.skipped == 0) continue;
    fmt::print("  {:<20} {:>6} added {:>6} already here\n", t.table, t.added, t.skipped);
  }
  if (s.added_total() == 0) fmt::print("Nothing new: this journal had every row already.\n");
  if (r.cards_rebuilt > 0) fmt::print("Rebuilt {} review cards from the merged review log, in time order.\n", r.cards_rebuilt);
}

nlohmann::json import_json(const ImportReport& r) {
  const ImportSummary& s = r.summary;
  nlohmann::json tables = nlohmann::json::object();
  for (const auto& t : s.tables) tables[t.table] = {{"added", t.added}, {"skipped", t.skipped}};
  nlohmann::json list = nlohmann::json::array();
  for (const auto& f : s.files) {
    list.push_back({{"file", f.path}, {"machine", f.machine}, {"exported_at", f.exported_at},
                    {"schema_version", f.schema_version}});
  }
  return {{"journal", r.journal}, {"files", list}, {"tables", tables}, {"added", s.added_total()},
          {"cards_rebuilt", r.cards_rebuilt}};
}

}  // namespace workbook
