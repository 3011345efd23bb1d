// What the progress commands (cmd/progress.cpp, next.cpp, history.cpp, handin.cpp) gather
// for present/progress_text.hpp to print: today's progress report, the history and the
// ledger, and what `workbook handin [ITEM...] [--undo]` marked (handin.cpp). Today is
// $WORKBOOK_NOW or the clock (learn/clock.hpp).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "progress/history.hpp"
#include "progress/progress_report.hpp"
#include "report/ledger.hpp"
#include "ui/output.hpp"
#include "workspace/workspace.hpp"

namespace workbook::progress {

struct CommandInputs {
  const Catalog& catalog;
  const Workspace& workspace;
  Journal& journal;
  Output out;  // --json or text, and the text's style (GlobalOptions::output)
};

// The progress report for today ($WORKBOOK_NOW or the clock), the calendar read from the
// content and the workspace: what `progress` and `next` print (present/progress_text.hpp).
ProgressReport progress_of(const CommandInputs& in);
// The lab `workbook next` points to, or "" when every lab has passed (see next_lab).
std::string next_open_lab(const CommandInputs& in);
// `history`: the newest `limit` runs of `lab` ("" every lab), with each lab's hint count
// and a choice answer that names no option marked unclear. UsageError: limit < 1, or a
// lab the content does not have.
HistoryReport history_of(const CommandInputs& in, const std::string& lab, int limit);
// `history --ledger`: the calibration ledger of `lab`'s module, or of every module and the
// experiments when `lab` is "".
Ledger ledger_of(const CommandInputs& in, const std::string& lab);
// One item of `workbook handin`: an assignment or a module, and whether this call changed it.
struct HandinItem {
  std::string key;    // as the journal stores it: "a1", "module16"
  std::string kind;   // "assignment", "module", "unknown" (a mark this course does not have)
  std::string title;  // "Assignment 1", "module 16"
  bool changed = false;
};

// What `handin` did: the items, each changed or not, and the marks after it; no items
// when it was asked only what is marked.
struct HandinResult {
  std::vector<HandinItem> items;
  bool undo = false;
  std::map<std::string, std::string> marks;  // item -> when it was marked
};

// Marks `items` handed in (or, with `undo`, no longer): assignment ids of the course
// calendar ("a1") or modules ("16", "module16"). No items: what is marked. Throws
// UsageError naming an item that is neither.
HandinResult hand_in(const CommandInputs& in, const std::vector<std::string>& items, bool undo);
nlohmann::json to_json(const HandinResult& result);

}  // namespace workbook::progress
