// What follows a run's printed result, the same for every front end (run, watch, --sweep,
// --compare, --slurm, experiment run): the explanation given with --explain or asked for on
// a terminal, recorded with the examiner's feedback (a lab's), and the review items a badly
// missed first prediction brings due sooner (progress/missed_predictions.hpp). It lives in watch/,
// the lowest area that reaches the run (run/), its printers (present/) and the nudge
// (progress/); cmd/run.cpp and watch call it.
#pragma once

#include <optional>
#include <string>

#include "content/catalog.hpp"
#include "journal/journal.hpp"
#include "run/explained.hpp"
#include "ui/output.hpp"

namespace workbook {

struct AfterRun {
  std::optional<Explainable> run;      // the run to explain (a sweep's graded point, a
                                       // comparison's own copy); none: nothing to explain
  std::optional<std::string> explain;  // --explain's text (already recorded: see below)
  bool ask = false;                    // a terminal that may be asked (not --json)
};

// A lab's run (`report` may be null: nothing to explain; else it must outlive the result).
AfterRun lab_after_run(const RunReport* report, std::optional<std::string> explain, bool ask);

// The --explain text recorded with `run`, before the result is printed (its feedback is
// part of the result); "" when no text or no run.
std::string record_given_explanation(Journal& journal, const AfterRun& a);

// After the result is printed: asks for an explanation when none was given and the run ran
// to an end that is not an interruption, then says which reviews came due sooner.
void after_run(Journal& journal, const Catalog& catalog, const AfterRun& a, const Output& out);

}  // namespace workbook
