// The solution shown (see solution_view.hpp).
#include "present/solution_view.hpp"

#include <fmt/format.h>

#include "util/utf8.hpp"

namespace workbook {

void print_solution(const SolutionShown& v, const Style& s) {
  if (v.gated) {
    fmt::print("Nothing shown. Try your copy first: workbook run {}\n", v.lab);
    return;
  }
  if (v.whole()) {
    fmt::print("{}\n{}", s.bold("Reference solution: " + v.solution_path),
               !v.absent_copy.empty() ? s.dim("(there is no copy of yours at " + v.absent_copy + " to compare with)\n") : "");
    fmt::print("\n{}{}", v.text, !v.text.empty() && v.text.back() != '\n' ? "\n" : "");
    return;
  }
  fmt::print("{}\n{}\n\n", s.bold(std::string("Your copy against the reference, ") + (v.by_line ? "line by line" : "kernel by kernel")),
             s.dim("--- yours: " + v.yours_path + "\n+++ reference: " + v.solution_path));
  diff::print_piece_diffs(v.pieces, s);
  fmt::print("{}\n", s.dim("The whole reference: workbook show " + v.lab + " --solution --full"));
}

nlohmann::json solution_json(const SolutionShown& v) {
  if (v.gated) return {{"lab", v.lab}, {"shown", "none"}, {"before_attempt", true}, {"hint", "workbook run " + v.lab}};
  if (v.whole()) {
    return {{"lab", v.lab}, {"shown", "full"}, {"before_attempt", v.before_attempt}, {"solution", v.solution_path},
            {"text", valid_utf8(v.text)}};
  }
  return {{"lab", v.lab}, {"shown", "diff"}, {"before_attempt", false}, {"yours", v.yours_path},
          {"solution", v.solution_path}, {"pieces", diff::piece_diffs_json(v.pieces)}};
}

}  // namespace workbook
