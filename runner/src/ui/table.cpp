// Tables that fit the terminal (see table.hpp).
#include "ui/table.hpp"

#include <algorithm>

#include "ui/wrap.hpp"

namespace workbook {

namespace {

constexpr std::size_t kGap = 2, kMinFlexible = 16;

const std::string& cell_of(const std::vector<std::string>& row, std::size_t k) {
  static const std::string none;
  return k < row.size() ? row[k] : none;
}

std::vector<std::size_t> natural_widths(const Table& t) {
  std::vector<std::size_t> w(t.columns.size(), 0);
  for (std::size_t k = 0; k < t.columns.size(); ++k) {
    std::size_t cells = 0;
    for (const auto& row : t.rows) cells = std::max(cells, text_columns(cell_of(row, k)));
    w[k] = cells == 0 ? 0 : std::max(cells, t.header ? text_columns(t.columns[k].head) : 0);
  }
  return w;
}

std::size_t total(const Table& t, const std::vector<std::size_t>& w, const std::vector<bool>& shown) {
  std::size_t sum = text_columns(t.indent), n = 0;
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (!shown[k]) continue;
    sum += w[k] + (n++ ? kGap : 0);
  }
  return sum;
}

// Narrows the flexible columns to their floor, drops droppable columns from the right
// until the table fits `width`, then gives the room left back to the flexible columns.
void fit(const Table& t, std::size_t width, std::vector<std::size_t>& w, std::vector<bool>& shown) {
  if (width == 0 || total(t, w, shown) <= width) return;
  const std::vector<std::size_t> natural = w;
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (t.columns[k].flexible) w[k] = std::min(w[k], std::max(kMinFlexible, text_columns(t.columns[k].head)));
  }
  for (std::size_t k = w.size(); k-- > 0 && total(t, w, shown) > width;) {
    if (t.columns[k].droppable && shown[k]) shown[k] = false;
  }
  for (std::size_t k = 0; k < w.size(); ++k) {
    const std::size_t used = total(t, w, shown);
    if (!t.columns[k].flexible || !shown[k] || used >= width) continue;
    w[k] = std::min(natural[k], w[k] + (width - used));
  }
}

// One table row, its flexible cell wrapped onto as many lines as it needs.
std::string row_lines(const Table& t, const std::vector<std::string>& row, const std::vector<std::size_t>& w,
                      const std::vector<bool>& shown) {
  std::vector<std::vector<std::string>> cells(w.size());
  std::size_t height = 1;
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (!shown[k]) continue;
    const std::string& text = cell_of(row, k);
    if (t.columns[k].flexible && text_columns(text) > w[k]) {
      const std::string wrapped = wrap_text(text, w[k]);
      for (std::size_t at = 0;;) {
        const std::size_t nl = wrapped.find('\n', at);
        cells[k].push_back(wrapped.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
        if (nl == std::string::npos) break;
        at = nl + 1;
      }
    } else {
      cells[k].push_back(text);
    }
    height = std::max(height, cells[k].size());
  }
  std::string out;
  for (std::size_t line = 0; line < height; ++line) {
    std::string text = t.indent;
    bool first = true;
    for (std::size_t k = 0; k < w.size(); ++k) {
      if (!shown[k]) continue;
      if (!first) text += std::string(kGap, ' ');
      first = false;
      text += pad_to(line < cells[k].size() ? cells[k][line] : "", w[k], t.columns[k].right);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

// The columns' widths and which are shown, at `width`.
std::vector<bool> layout(const Table& t, std::size_t width, std::vector<std::size_t>& w) {
  w = natural_widths(t);
  std::vector<bool> shown(w.size());
  for (std::size_t k = 0; k < w.size(); ++k) shown[k] = w[k] > 0;
  fit(t, width, w, shown);
  return shown;
}

}  // namespace

std::vector<bool> shown_columns(const Table& t, std::size_t width) {
  std::vector<std::size_t> w;
  return layout(t, width, w);
}

std::string render_table(const Table& t, std::size_t width, const Style& style) {
  std::vector<std::size_t> w;
  const std::vector<bool> shown = layout(t, width, w);
  std::string out;
  if (t.header) {
    std::vector<std::string> head;
    for (const auto& c : t.columns) head.push_back(c.head);
    std::string line = row_lines(t, head, w, shown);
    line.pop_back();
    out += (style.color() ? style.bold(line) : line) + "\n";
  }
  for (const auto& row : t.rows) out += row_lines(t, row, w, shown);
  return out;
}

}  // namespace workbook
