// The solution shown (see solution_view.hpp).
#include "present/solution_view.hpp"

#include <fmt/format.h>

#include "util/utf8.hpp"

namespace workbook {

namespace {

// One heading per piece ("__global__ tiled_gemm  2 lines differ"), then its unified hunks
// with file line numbers, '-' your lines and '+' the reference's.
void print_piece_diffs(const std::vector<diff::PieceDiff>& diffs, const Style& s) {
  using diff::PairState;
  for (const diff::PieceDiff& d : diffs) {
    std::string state = to_string(d.state);
    if (d.state == PairState::changed) {
      int changed = 0;
      for (const auto& h : d.hunks)
        for (const auto& line : h.lines) changed += line.first == ' ' ? 0 : 1;
      state = fmt::format("{} line{} differ{}", changed, changed == 1 ? "" : "s", changed == 1 ? "s" : "");
    }
    const std::string where = d.state == PairState::only_yours ? fmt::format(" (your line {})", d.yours_line)
                              : d.state == PairState::only_reference
                                  ? fmt::format(" (reference line {})", d.reference_line)
                                  : "";
    fmt::print("{}  {}{}\n", s.bold(diff::piece_heading(d)), d.state == PairState::identical ? s.dim(state) : s.yellow(state),
               s.dim(where));
    for (const diff::Hunk& h : d.hunks) {
      fmt::print("{}\n", s.cyan(diff::hunk_header(d, h)));
      for (const auto& [tag, text] : h.lines) {
        const std::string line = std::string(1, tag) + text;
        fmt::print("{}\n", tag == '-' ? s.red(line) : tag == '+' ? s.green(line) : line);
      }
    }
    if (!d.hunks.empty()) fmt::print("\n");
  }
}

}  // namespace

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
  print_piece_diffs(v.pieces, s);
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
