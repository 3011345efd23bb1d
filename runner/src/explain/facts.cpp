// The facts of a run for the explanation checker (see facts.hpp).
#include "explain/facts.hpp"

#include "util/error.hpp"

namespace workbook {

ExplainFacts explain_facts(const LabSpec& lab, const std::vector<ExplainFigure>& figures, const Figures& device,
                           const Figures& params, bool calibrated) {
  ExplainFacts f;
  f.figures = figures;
  f.basis = calibrated ? "calibrated" : "spec sheet";
  f.scope = device;
  for (const auto& [k, v] : params) f.scope[k] = v;
  for (const auto& fig : figures) f.scope[fig.name] = fig.value;
  for (const auto& var : lab.vars) {
    try {
      f.scope[var.name] = evaluate(var.expr, f.scope);
    } catch (const Error&) {
      // a var over a figure this run lacks: the checks that need it are skipped
    }
  }
  return f;
}

}  // namespace workbook
