// The solution gate (see solution_gate.hpp).
#include "run/solution_gate.hpp"

#include "journal/views.hpp"
#include "ui/prompt.hpp"
#include "ui/style.hpp"
#include "util/error.hpp"

namespace workbook {

SolutionGate pass_solution_gate(Journal& journal, const SolutionGateRequest& r) {
  SolutionGate gate;
  gate.before_attempt = !has_attempt(journal, r.lab);
  if (!gate.before_attempt || r.yes) {
    gate.open = true;
    return gate;
  }
  if (!r.interactive) {
    throw UsageError("you have not run your copy of " + r.lab + " yet, and there is no terminal to confirm on",
                     "try it first (workbook run " + r.lab + "), or pass --yes to go on anyway: " + r.command +
                         " --yes");
  }
  gate.open = confirm("You have not run your copy yet. " + r.question);
  return gate;
}

}  // namespace workbook
