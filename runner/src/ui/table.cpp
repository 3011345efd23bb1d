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

// Where each column goes at the width: in the row, under it, or nowhere (all empty).
enum class Place { row, below, none };

struct Layout {
  std::vector<std::size_t> w;  // widths of the columns in the row
  std::vector<Place> place;
  bool stacked = false;  // every row a block of "head: cell" lines
};

std::size_t total(const Table& t, const Layout& l) {
  std::size_t sum = text_columns(t.indent), n = 0;
  for (std::size_t k = 0; k < l.w.size(); ++k) {
    if (l.place[k] != Place::row) continue;
    sum += l.w[k] + (n++ ? kGap : 0);
  }
  return sum;
}

// Narrows the flexible columns to their floor, moves movable columns under the row from
// the right until the table fits `width`, then gives the room left back to the flexible
// columns; when it still does not fit, the table is stacked.
void fit(const Table& t, std::size_t width, Layout& l) {
  if (width == 0 || total(t, l) <= width) return;
  const std::vector<std::size_t> natural = l.w;
  for (std::size_t k = 0; k < l.w.size(); ++k) {
    if (t.columns[k].flexible) l.w[k] = std::min(l.w[k], std::max(kMinFlexible, text_columns(t.columns[k].head)));
  }
  for (std::size_t k = l.w.size(); k-- > 0 && total(t, l) > width;) {
    if (t.columns[k].movable && l.place[k] == Place::row) l.place[k] = Place::below;
  }
  if (total(t, l) > width) {
    l.stacked = true;
    return;
  }
  for (std::size_t k = 0; k < l.w.size(); ++k) {
    const std::size_t used = total(t, l);
    if (!t.columns[k].flexible || l.place[k] != Place::row || used >= width) continue;
    l.w[k] = std::min(natural[k], l.w[k] + (width - used));
  }
}

// "head: cell" (or the cell alone under an empty head), wrapped to `width` under `indent`.
std::string labelled_line(const TableColumn& c, const std::string& cell, std::size_t width, const std::string& indent) {
  const std::string text = c.head.empty() ? cell : c.head + ": " + cell;
  return wrap_text(text, width, indent, indent + "  ") + "\n";
}

// One table row, its flexible cells wrapped onto as many lines as they need, then its
// moved cells on lines of their own under it.
std::string row_lines(const Table& t, const std::vector<std::string>& row, const Layout& l, std::size_t width) {
  std::vector<std::vector<std::string>> cells(l.w.size());
  std::size_t height = 1;
  for (std::size_t k = 0; k < l.w.size(); ++k) {
    if (l.place[k] != Place::row) continue;
    const std::string& text = cell_of(row, k);
    if (t.columns[k].flexible && text_columns(text) > l.w[k]) {
      const std::string wrapped = wrap_text(text, l.w[k]);
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
    for (std::size_t k = 0; k < l.w.size(); ++k) {
      if (l.place[k] != Place::row) continue;
      if (!first) text += std::string(kGap, ' ');
      first = false;
      text += pad_to(line < cells[k].size() ? cells[k][line] : "", l.w[k], t.columns[k].right);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  for (std::size_t k = 0; k < l.w.size(); ++k) {
    if (l.place[k] == Place::below && !cell_of(row, k).empty())
      out += labelled_line(t.columns[k], cell_of(row, k), width, t.indent + "    ");
  }
  return out;
}

// One row stacked: its first cell, then "head: cell" for each other non-empty one.
std::string stacked_lines(const Table& t, const std::vector<std::string>& row, std::size_t width) {
  std::string out;
  bool first = true;
  for (std::size_t k = 0; k < t.columns.size(); ++k) {
    const std::string& cell = cell_of(row, k);
    if (cell.empty()) continue;
    if (first) out += wrap_text(cell, width, t.indent, t.indent + "  ") + "\n";
    else out += labelled_line(t.columns[k], cell, width, t.indent + "  ");
    first = false;
  }
  return out;
}

// The columns' widths and places at `width`.
Layout layout(const Table& t, std::size_t width) {
  Layout l;
  l.w = natural_widths(t);
  for (std::size_t k = 0; k < l.w.size(); ++k) l.place.push_back(l.w[k] > 0 ? Place::row : Place::none);
  fit(t, width, l);
  return l;
}

}  // namespace

std::string render_table(const Table& t, std::size_t width, const Style& style) {
  const Layout l = layout(t, width);
  std::string out;
  if (l.stacked) {
    for (const auto& row : t.rows) out += stacked_lines(t, row, width);
    return out;
  }
  if (t.header) {
    std::vector<std::string> head;
    for (const auto& c : t.columns) head.push_back(c.head);
    std::string line = row_lines(t, head, l, 0);
    line = line.substr(0, line.find('\n'));  // the moved columns' heads are on their rows' lines
    out += (style.color() ? style.bold(line) : line) + "\n";
  }
  for (const auto& row : t.rows) out += row_lines(t, row, l, width);
  return out;
}

}  // namespace workbook
