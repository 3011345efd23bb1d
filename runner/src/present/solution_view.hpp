// `workbook show LAB --solution`, once the gate opened: the reference whole, or the
// difference from the learner's copy kernel by kernel (function by function; line by
// line for a Python lab), as text or one JSON object.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "diff/piece_diff.hpp"
#include "ui/style.hpp"

namespace workbook {

struct SolutionShown {
  std::string lab;
  bool gated = false;  // the gate stayed shut: nothing shown
  bool before_attempt = false;  // shown before the learner's first run of their copy
  std::string solution_path{}, text{};  // the reference: its path and (shown whole) its text
  // Shown as a difference: the learner's copy and the pieces; empty pieces and no path: whole.
  std::string yours_path{};
  std::vector<diff::PieceDiff> pieces{};
  bool by_line = false;   // a Python lab: line by line, not kernel by kernel
  std::string absent_copy{};  // shown whole only because the learner has no copy here (its path)
  bool whole() const { return yours_path.empty(); }
};

void print_solution(const SolutionShown& view, const Style& style);
nlohmann::json solution_json(const SolutionShown& view);

}  // namespace workbook
