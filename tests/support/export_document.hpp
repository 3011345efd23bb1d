// The document `workbook journal export` writes (journal/journal_export.hpp's write_export),
// parsed: how the tests read a journal's export.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "journal/journal_export.hpp"

namespace wbtest {

inline nlohmann::json export_document(workbook::Journal& journal, const std::string& machine) {
  std::string text;
  workbook::write_export(journal, machine, [&text](const std::string& piece) { text += piece; });
  return nlohmann::json::parse(text);
}

}  // namespace wbtest
