// Per module, where the learner stands in the workbook's method: Read, Follow, Answer, Run.
//
//   Follow  worked examples done to their last step (learn_follow)
//   Answer  exercise items answered at least once (learn_cards)
//   Run     labs with a passing run of the learner's own code (runs, not --solution)
//   Read    the module's reading was printed in full to a terminal (`workbook show N`,
//           journal table readings). Fallback, for journals from before readings were
//           recorded only: a module counts as read when that older journal held a later step
//           of it (a worked-example step, an answer, a run of the learner's code), since the
//           method reads first; `read_inferred` says so in --json. Activity recorded since
//           never implies a reading (journal/views.hpp modules_read_before_records).
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "content/catalog.hpp"
#include "journal/journal_queries.hpp"

namespace workbook::progress {

// What the content offers in one module.
struct ModuleContent {
  int number = 0;
  std::string title;
  std::vector<std::string> labs;                      // "module14/tiled_gemm"
  std::vector<std::pair<std::string, int>> examples;  // worked example id, its steps
  std::vector<std::string> items;                     // exercise item ids
};

// What the journal holds about the learner.
struct LearnerRecord {
  std::map<std::string, LabRecord> labs;           // by lab id
  std::set<std::pair<int, std::string>> answered;  // (module, item)
  std::map<std::pair<int, std::string>, int> followed;  // (module, example) -> steps done
  std::set<int> read;           // modules whose reading was shown in full
  std::set<int> read_inferred;  // modules with activity from before readings were recorded
};

struct Tally {
  int done = 0, total = 0;
  bool complete() const { return done >= total; }
};

struct ModuleProgress {
  int module = 0;
  std::string title;
  bool read = false;
  bool read_inferred = false;  // read only by the fallback for older journals
  bool handed_in = false;      // marked handed in (itself or through its assignment): done for the plan
  Tally follow, answer, run;
  std::vector<std::string> labs_open;      // labs without a passing run, in manifest order
  std::vector<std::string> labs_tried;     // labs_open that have a run (it did not pass)
  std::vector<std::string> labs_not_run;   // labs_tried whose last run could not run (no GPU: built, not run)
  std::string first_open_example;          // the first worked example not done, or ""
  int items_open = 0;
  // Every lab passed, every item answered, every worked example followed; a module with
  // none of these (the drill modules 11 and 24) is never complete: its drills are weekly.
  bool complete() const {
    return follow.total + answer.total + run.total > 0 && follow.complete() && answer.complete() && run.complete();
  }
};

ModuleProgress summarize(const ModuleContent& content, const LearnerRecord& record);

// The content of every module that has a manifest or an exercise bank, by number.
std::vector<ModuleContent> course_content(const Catalog& catalog);
// The learner's record from the journal (worked examples: those of `content`).
LearnerRecord learner_record(Journal& journal, const std::vector<ModuleContent>& content);

}  // namespace workbook::progress
