// A line diff (Myers' O(ND) algorithm: the shortest edit script) and its unified-diff
// hunks, for comparing the learner's copy of a lab with the reference piece by piece.
#pragma once

#include <string>
#include <vector>

namespace workbook::diff {

enum class EditOp { same, removed, added };

// One step of the edit script turning `a` into `b`: a line kept, removed from a, or added from b.
struct Edit {
  EditOp op = EditOp::same;
  int a = -1;  // index in a (same, removed), else -1
  int b = -1;  // index in b (same, added), else -1
};

// The shortest edit script from a to b; removals come before additions where both are
// possible, as in diff -u.
std::vector<Edit> diff_lines(const std::vector<std::string>& a, const std::vector<std::string>& b);

// A group of changes with up to `context` unchanged lines around them.
struct Hunk {
  int a_start = 0, a_count = 0;  // 0-based first line in a, and how many lines of a it shows
  int b_start = 0, b_count = 0;
  std::vector<std::pair<char, std::string>> lines;  // ' ' kept, '-' only in a, '+' only in b
};

// The hunks of an edit script (none when a and b are equal). Changes closer than
// 2 * context lines share a hunk.
std::vector<Hunk> make_hunks(const std::vector<Edit>& edits, const std::vector<std::string>& a,
                             const std::vector<std::string>& b, int context = 3);

}  // namespace workbook::diff
