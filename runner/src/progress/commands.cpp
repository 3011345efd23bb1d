// What the progress commands share (see commands.hpp).
#include "progress/commands.hpp"

#include "content/course.hpp"
#include "content/lab_id.hpp"
#include "experiment/experiment_topics.hpp"
#include "grade/grade.hpp"
#include "learn/clock.hpp"
#include "progress/next_step.hpp"
#include "util/error.hpp"

namespace workbook::progress {

ProgressReport progress_of(const CommandInputs& in) {
  const long long today = learn::day_of(learn::now_unix());
  return gather_progress(in.catalog, in.journal, load_course(in.catalog.root(), in.workspace.root()), today);
}

std::string next_open_lab(const CommandInputs& in) { return next_lab(progress_of(in)); }

HistoryReport history_of(const CommandInputs& in, const std::string& lab, int limit) {
  if (limit < 1) throw UsageError("--limit must be at least 1");
  const std::string id = lab.empty() ? "" : in.catalog.find_lab(parse_lab_ref_or_throw(lab)).id;
  HistoryReport report = gather_history(in.journal, id, limit);
  for (auto& r : report.runs) {
    const LabSpec* spec = in.catalog.lab_or_null(r.lab);  // nullptr: gone from the content, its runs stay in the record
    report.hint_totals[r.lab] = spec ? static_cast<int>(spec->hints.size()) : 0;
    if (!spec) continue;
    for (auto& p : r.predictions)
      for (const auto& s : spec->predictions)
        if (s.id == p.id && s.kind == PredictionKind::choice) p.unclear = unclear_choice_note(s.choices, p.answer, p.entered);
  }
  return report;
}

Ledger ledger_of(const CommandInputs& in, const std::string& lab) {
  if (lab.empty()) return gather_ledger(in.journal, in.catalog, 0, experiment_ledger_entries(in.journal));
  const LabRef ref = parse_lab_ref_or_throw(lab);
  in.catalog.find_lab(ref);  // a lab the content does not have is a usage error, as without --ledger
  return gather_ledger(in.journal, in.catalog, ref.module);
}

}  // namespace workbook::progress
