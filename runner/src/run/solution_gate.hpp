// The gate in front of a lab's reference solution (`workbook show LAB --solution` and
// `workbook run LAB --solution`). Before the learner has run their own copy of the lab
// even once, the solution is not shown or run without a yes: --yes gives it up front, a
// terminal asks, and anything else (a pipe, a script, --json) is refused with exit 2 and
// the advice to pass --yes, so that nothing waits on a question nobody can answer.
#pragma once

#include <filesystem>
#include <string>

#include "journal/journal.hpp"

namespace workbook {

struct SolutionGateRequest {
  std::string lab;         // "module14/tiled_gemm"
  std::string question;    // "Show the solution anyway?"
  std::string command;     // the command line to repeat with --yes, e.g. "workbook show LAB --solution"
  bool yes = false;        // --yes
  bool interactive = false;  // a terminal to ask on (and not --json)
  // When both are set, an attempt also needs the learner's copy to differ from the
  // starter: running the untouched starter is not trying the lab.
  std::filesystem::path starter, copy;
};

struct SolutionGate {
  bool open = false;            // go on: show or run the solution
  bool before_attempt = false;  // no run of the learner's copy was recorded yet
};

// Decides as described above. Throws UsageError when it would have to ask and cannot.
// After an attempt the gate is always open and asks nothing.
SolutionGate pass_solution_gate(Journal& journal, const SolutionGateRequest& request);

}  // namespace workbook
