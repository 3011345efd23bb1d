// `workbook journal export`: the rows of a journal that travel between machines, as one
// JSON document that `workbook journal import` merges into another journal:
//
//   {"format": "workbook-journal", "schema_version": 3, "exported_at": "...Z",
//    "machine": "laptop", "tables": {"runs": [{"uid": "...", "lab": ...}, ...],
//                                    "predictions": [{"uid": ..., "run_uid": ...}], ...}}
//
// Every row carries its uid; local ids are left out, and a child row names its parent by
// the parent's uid ("run_uid", "calibration_uid"). Tables follow synced_tables() and rows
// keep the journal's own order. A real that is not finite is written as "inf" or "-inf".
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>

#include "journal/journal.hpp"

namespace workbook {

inline constexpr const char* kJournalExportFormat = "workbook-journal";

// This machine's name (the host name), or "unknown".
std::string machine_name();

// What write_export wrote: the document's head and the rows of each table.
struct ExportSummary {
  int schema_version = 0;
  std::string exported_at, machine;
  std::map<std::string, long long> rows;
};

// The export document of `journal`, stamped with `machine` and the current time, passed to
// `write` a piece at a time (about a megabyte, whole rows, one row a line) as it is read:
// the memory it takes is that of a piece, whatever the journal's size. Every table is read
// in one transaction (the same moment, even while a run writes).
ExportSummary write_export(Journal& journal, const std::string& machine,
                           const std::function<void(const std::string&)>& write);

}  // namespace workbook
