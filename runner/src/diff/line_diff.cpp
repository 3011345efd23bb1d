// Myers' diff and unified hunks (see line_diff.hpp).
#include "diff/line_diff.hpp"

#include <algorithm>

namespace workbook::diff {

namespace {

// Walks the saved frontiers back from (n, m) to (0, 0), emitting the edit script in reverse.
// trace[d] holds the frontier's diagonals -d-1 .. d+1 before step d.
std::vector<Edit> backtrack(const std::vector<std::vector<int>>& trace, int n, int m) {
  std::vector<Edit> out;
  int x = n, y = m;
  for (int d = static_cast<int>(trace.size()) - 1; d >= 0; --d) {
    const std::vector<int>& v = trace[static_cast<std::size_t>(d)];
    auto at = [&](int k) { return v[static_cast<std::size_t>(k + d + 1)]; };
    const int k = x - y;
    const int prev_k = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    const int prev_x = d == 0 ? 0 : at(prev_k);
    const int prev_y = d == 0 ? 0 : prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x, --y;
      out.push_back({EditOp::same, x, y});
    }
    if (d > 0) {
      if (x == prev_x) out.push_back({EditOp::added, -1, y - 1});
      else out.push_back({EditOp::removed, x - 1, -1});
    }
    x = prev_x;
    y = prev_y;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<Edit> diff_lines(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int offset = n + m + 1;
  std::vector<int> v(static_cast<std::size_t>(2 * offset + 1), 0);
  auto at = [&](int k) -> int& { return v[static_cast<std::size_t>(k + offset)]; };
  std::vector<std::vector<int>> trace;  // the part of the frontier step d reads, before it
  for (int d = 0; d <= n + m; ++d) {
    trace.emplace_back(v.begin() + (offset - d - 1), v.begin() + (offset + d + 2));
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      int y = x - k;
      while (x < n && y < m && a[static_cast<std::size_t>(x)] == b[static_cast<std::size_t>(y)]) ++x, ++y;
      at(k) = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return backtrack(trace, n, m);  // not reached: d = n + m always ends
}

std::vector<Hunk> make_hunks(const std::vector<Edit>& edits, const std::vector<std::string>& a,
                             const std::vector<std::string>& b, int context) {
  std::vector<Hunk> hunks;
  const int total = static_cast<int>(edits.size());
  std::vector<int> a_before(edits.size() + 1, 0), b_before(edits.size() + 1, 0);  // lines of a / b before edit i
  for (std::size_t i = 0; i < edits.size(); ++i) {
    a_before[i + 1] = a_before[i] + (edits[i].op != EditOp::added ? 1 : 0);
    b_before[i + 1] = b_before[i] + (edits[i].op != EditOp::removed ? 1 : 0);
  }
  int i = 0;
  while (i < total) {
    if (edits[static_cast<std::size_t>(i)].op == EditOp::same) {
      ++i;
      continue;
    }
    // A change at i: the hunk runs until a stretch of more than 2 * context unchanged lines.
    const int begin = std::max(0, i - context);
    int end = i, same_run = 0;
    for (int j = i; j < total && same_run <= 2 * context; ++j) {
      same_run = edits[static_cast<std::size_t>(j)].op == EditOp::same ? same_run + 1 : 0;
      if (same_run == 0) end = j + 1;
    }
    end = std::min(total, end + context);
    Hunk h;
    h.a_start = a_before[static_cast<std::size_t>(begin)];
    h.b_start = b_before[static_cast<std::size_t>(begin)];
    h.a_count = a_before[static_cast<std::size_t>(end)] - h.a_start;
    h.b_count = b_before[static_cast<std::size_t>(end)] - h.b_start;
    for (int j = begin; j < end; ++j) {
      const Edit& e = edits[static_cast<std::size_t>(j)];
      if (e.op == EditOp::added) h.lines.emplace_back('+', b[static_cast<std::size_t>(e.b)]);
      else h.lines.emplace_back(e.op == EditOp::same ? ' ' : '-', a[static_cast<std::size_t>(e.a)]);
    }
    hunks.push_back(std::move(h));
    i = end;
  }
  return hunks;
}

}  // namespace workbook::diff
