// `workbook watch [LAB]`: the lab's checks run once, then again each time the learner
// saves their copy (watch/file_watch.hpp), or presses Enter (--manual-run); once it
// passes, the lab `workbook next` points to is watched, until none is left open (--once:
// the first pass ends it).
//
// Each run is `workbook run LAB`: built, run, graded (timing ranges too: a figure out of
// range is not a pass, as in `run`) and recorded in the journal. On a terminal the first
// run of a lab asks the predictions the lab has none of yet (later runs ask nothing; the
// lab's standing predictions are graded). A compile error is shown and the next save is
// awaited. Ctrl-C at a prediction prompt ends the watch: nothing of that run is recorded.
//
// Ends with: 0 after a pass with --once, or when no lab is left open; with q (or the end
// of the input) in --manual-run, the exit code of the last run (0 if it passed); 130 on
// Ctrl-C, SIGTERM or SIGHUP, once any run in progress is recorded.
#pragma once

#include <string>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "ui/output.hpp"
#include "watch/file_watch.hpp"
#include "workspace/workspace.hpp"

namespace workbook {

struct WatchRequest {
  std::string lab;          // "": the lab `workbook next` points to
  bool once = false;        // stop after the first pass
  bool manual = false;      // re-run on Enter instead of on a save
  bool json = false;        // one JSON object per run, one per line (`run --json`'s shape)
  bool quick = false;       // each parameter's quick value
  bool interactive = false; // a terminal: a lab's first run asks its missing predictions
  FileWatchOptions files;   // poll, debounce
};

struct WatchContext {
  const Catalog& catalog;
  const Workspace& workspace;
  Journal& journal;
  Output out;  // JSON Lines (--json) or text in out.style
  int input_fd = 0;  // where --manual-run reads Enter and q
};

// Watches until one of the ends above; returns the exit code.
int watch_labs(const WatchContext& ctx, const WatchRequest& req);

}  // namespace workbook
