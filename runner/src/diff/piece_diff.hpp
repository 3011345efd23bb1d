// The learner's copy of a lab against the reference solution, kernel by kernel: both
// files split into pieces (diff/function_split.hpp), paired by name, each pair compared
// line by line (diff/line_diff.hpp); as JSON here, as text by present/solution_view.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "diff/function_split.hpp"
#include "diff/line_diff.hpp"

namespace workbook::diff {

enum class PairState { identical, changed, only_yours, only_reference };
const char* to_string(PairState state);

struct PieceDiff {
  std::string name;
  PieceKind kind = PieceKind::host;
  PairState state = PairState::identical;
  int yours_line = 0, reference_line = 0;  // first lines in each file (0: not there)
  std::vector<Hunk> hunks;                 // changed: a = yours, b = the reference
  std::vector<int> yours_numbers, reference_numbers;  // file line of each line of the piece
};

// Every piece of either file: the reference's in its order, then those only in yours.
// by_function false (a language the splitter does not know): one piece, "(whole file)".
std::vector<PieceDiff> diff_pieces(const std::string& yours, const std::string& reference, bool by_function = true);

// A hunk's "@@ -12,3 +14,4 @@" with file line numbers (yours, then the reference's).
std::string hunk_header(const PieceDiff& d, const Hunk& h);
// "__global__ tiled_gemm", "__device__ warp_sum", "main()", a type's or file scope's name.
std::string piece_heading(const PieceDiff& d);

nlohmann::json piece_diffs_json(const std::vector<PieceDiff>& diffs);

}  // namespace workbook::diff
