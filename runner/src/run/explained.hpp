// The learner's explanation of a run, recorded with what the examiner says of it
// (explain/feedback.hpp, from the lab's `examiner:` block and the run's own figures).
#pragma once

#include <string>

#include "journal/journal.hpp"
#include "run/lab_run.hpp"

namespace workbook {

// The examiner's points on `text` for `report`'s run, one a line ("" when the lab has no
// `examiner:` block, or the run measured nothing).
std::string explanation_feedback_for(const RunReport& report, const std::string& text);

// Records `text` with its feedback for report.run_id; returns the feedback.
std::string record_explained(Journal& journal, const RunReport& report, const std::string& text);

}  // namespace workbook
