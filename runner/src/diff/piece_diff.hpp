// The learner's copy of a lab against the reference solution, kernel by kernel: both
// files split into pieces (diff/function_split.hpp), paired by name, each pair compared
// line by line (diff/line_diff.hpp). Printed as text (colour through ui/Style) or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "diff/function_split.hpp"
#include "diff/line_diff.hpp"
#include "ui/style.hpp"

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

// Text: one heading per piece ("__global__ tiled_gemm: 2 changes"), then its unified
// hunks with file line numbers, '-' your lines and '+' the reference's.
void print_piece_diffs(const std::vector<PieceDiff>& diffs, const Style& style);

nlohmann::json piece_diffs_json(const std::vector<PieceDiff>& diffs);

}  // namespace workbook::diff
