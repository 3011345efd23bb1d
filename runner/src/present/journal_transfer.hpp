// `workbook journal export FILE` and `journal import FILE...` reported: what was written
// or merged, as a sentence and a table per file, or one JSON object.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "journal/journal_import.hpp"
#include "ui/style.hpp"

namespace workbook {

struct ExportReport {
  std::string journal, file;  // the journal exported, the file written
  std::string machine, exported_at;
  int schema_version = 0;
  std::map<std::string, long long> rows;  // rows per table
};

struct ImportReport {
  std::string journal;  // the journal merged into
  ImportSummary summary;
  int cards_rebuilt = 0;
};

void print_export(const ExportReport& r, const Style& style);
nlohmann::json export_json(const ExportReport& r);
void print_import(const ImportReport& r, const Style& style);
nlohmann::json import_json(const ImportReport& r);

}  // namespace workbook
