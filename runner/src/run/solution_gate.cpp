// The solution gate (see solution_gate.hpp).
#include "run/solution_gate.hpp"

#include "journal/views.hpp"
#include "ui/prompt.hpp"
#include "ui/style.hpp"
#include "util/file_text.hpp"
#include "util/error.hpp"

namespace workbook {

namespace {

// The learner's copy still holds the starter, byte for byte (false when either is unreadable).
bool copy_untouched(const std::filesystem::path& starter, const std::filesystem::path& copy) {
  if (starter.empty() || copy.empty()) return false;
  const auto a = read_file_text(starter), b = read_file_text(copy);
  return a && b && *a == *b;
}

}  // namespace

SolutionGate pass_solution_gate(Journal& journal, const SolutionGateRequest& r) {
  SolutionGate gate;
  gate.before_attempt = !has_attempt(journal, r.lab) || copy_untouched(r.starter, r.copy);
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
