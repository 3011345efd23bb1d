// Explanations recorded with the examiner's feedback (see explained.hpp).
#include "run/explained.hpp"

#include <cmath>

#include "explain/facts.hpp"
#include "explain/feedback.hpp"
#include "util/utf8.hpp"

namespace workbook {

std::string explanation_feedback_for(const RunReport& report, const std::string& text) {
  if (!report.lab.examiner) return "";
  std::vector<ExplainFigure> figures;
  for (const auto& m : report.grade.metrics) {
    if (m.value && std::isfinite(*m.value)) figures.push_back({m.name, m.unit, *m.value});
  }
  if (figures.empty()) return "";
  const ExplainFacts facts = explain_facts(report.lab, figures, report.device_figures, report.params, report.calibrated);
  return feedback_text(explanation_feedback(*report.lab.examiner, text, facts));
}

std::string record_explained(Journal& journal, const RunReport& report, const std::string& text) {
  const std::string feedback = valid_utf8(explanation_feedback_for(report, text));  // it quotes numbers as typed
  journal.record_explanation(report.run_id, text, feedback);
  return feedback;
}

Explainable explainable(const RunReport& report) {
  Explainable e;
  e.run_id = report.run_id;
  e.kept_with = "run #" + std::to_string(report.run_id);
  e.prompt = report.lab.explain_prompt.empty()
                 ? "Explain the main figure with a model (roofline, occupancy, Amdahl) in one or two sentences"
                 : report.lab.explain_prompt;
  e.worth_asking = report.ran && report.grade.verdict != Verdict::interrupted;
  e.record = [&report](Journal& journal, const std::string& text) { return record_explained(journal, report, text); };
  return e;
}

}  // namespace workbook
