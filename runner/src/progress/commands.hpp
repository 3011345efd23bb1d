// The progress commands' logic (the cmd/ files only declare options):
//   workbook progress [--json]                the record against the workbook and the calendar
//   workbook next [--json]                    the one next thing to do
//   workbook history [lab] [--limit N] [--json]   runs with their figures; prediction calibration
//   workbook handin [ITEM...] [--undo] [--json]   mark assignments or modules handed in (handin.cpp)
// Each prints its screen (or one JSON object) and returns the exit code (0). Today is
// $WORKBOOK_NOW or the clock (learn/clock.hpp).
#pragma once

#include <string>
#include <vector>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "ui/output.hpp"
#include "workspace/workspace.hpp"

namespace workbook::progress {

struct CommandInputs {
  const Catalog& catalog;
  const Workspace& workspace;
  Journal& journal;
  Output out;  // --json or text, and the text's style (GlobalOptions::output)
};

// `modules`: with the table of every module (progress_report.hpp, format_progress).
int show_progress(const CommandInputs& in, bool modules = false);
int show_next(const CommandInputs& in);
// The lab `workbook next` points to, or "" when every lab has passed (see next_lab).
std::string next_open_lab(const CommandInputs& in);
// `ledger`: the calibration ledger (report/ledger.hpp) instead of the runs, of `lab`'s
// module when a lab is given.
int show_history(const CommandInputs& in, const std::string& lab, int limit, bool ledger = false);
// Marks `items` handed in (or, with `undo`, no longer): assignment ids of the course
// calendar ("a1") or modules ("16", "module16"). No items: lists what is marked. Throws
// UsageError naming an item that is neither.
int hand_in(const CommandInputs& in, const std::vector<std::string>& items, bool undo);

}  // namespace workbook::progress
