// Charts as rows of text for the terminal (see chart.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "plot/chart.hpp"

namespace workbook::plot {

namespace {

const char kMarkers[] = {'*', 'o', '+', 'x', '#', '@', '%', '&'};

char marker(std::size_t i) { return kMarkers[i % sizeof kMarkers]; }

std::string coloured(const Style& style, std::size_t i, const std::string& s) {
  switch (i % 4) {
    case 0: return style.cyan(s);
    case 1: return style.red(s);
    case 2: return style.green(s);
    default: return style.yellow(s);
  }
}

struct Grid {
  int cols, rows;
  std::vector<char> cell;
  std::vector<int> owner;  // series index of the cell, -1 for none
  Grid(int c, int r) : cols(c), rows(r), cell(static_cast<std::size_t>(c * r), ' '), owner(cell.size(), -1) {}
  void put(double x, double y, char ch, int who, bool over) {
    const int cx = static_cast<int>(std::lround(x)), cy = static_cast<int>(std::lround(y));
    if (cx < 0 || cy < 0 || cx >= cols || cy >= rows) return;
    const auto k = static_cast<std::size_t>(cy * cols + cx);
    if (!over && cell[k] != ' ') return;
    cell[k] = ch;
    owner[k] = who;
  }
};

void draw(const Series& s, int index, const Frame& f, Grid& g) {
  std::vector<std::pair<double, double>> pts;
  for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (f.x.contains(s.x[i]) && f.y.contains(s.y[i])) pts.emplace_back(f.x.map(s.x[i]), f.y.map(s.y[i]));
  }
  for (std::size_t i = 1; s.line && i < pts.size(); ++i) {
    const auto [ax, ay] = pts[i - 1];
    const auto [bx, by] = pts[i];
    const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::fabs(bx - ax), std::fabs(by - ay)) * 2)));
    for (int k = 0; k <= steps; ++k) {
      const double t = static_cast<double>(k) / steps;
      g.put(ax + t * (bx - ax), ay + t * (by - ay), '.', index, false);
    }
  }
  for (std::size_t i = 0; i < s.x.size() && i < s.lo.size() && i < s.hi.size(); ++i) {
    if (!f.x.contains(s.x[i]) || !f.y.contains(s.lo[i]) || !f.y.contains(s.hi[i])) continue;
    const double x = f.x.map(s.x[i]);
    for (long r = std::lround(f.y.map(s.hi[i])); r <= std::lround(f.y.map(s.lo[i])); ++r) g.put(x, static_cast<double>(r), '|', index, false);
  }
  if (s.markers) {
    for (const auto& [x, y] : pts) g.put(x, y, marker(static_cast<std::size_t>(index)), index, true);
  }
}

// The marked x (a sweep's graded value): ':' down its column wherever nothing else is.
void draw_mark(const Chart& c, const Frame& f, Grid& g) {
  if (!c.mark_x || !f.x.contains(*c.mark_x)) return;
  for (int r = 0; r < g.rows; ++r) g.put(f.x.map(*c.mark_x), static_cast<double>(r), ':', -1, false);
}

// The x tick labels placed under their columns, skipping one that would touch the last.
std::string x_tick_row(const Frame& f, int cols, double factor) {
  std::string row(static_cast<std::size_t>(cols) + 12, ' ');
  int free_from = 0;
  for (double t : f.x.ticks) {
    const std::string label = tick_label(t * factor);
    int at = static_cast<int>(std::lround(f.x.map(t))) - static_cast<int>(label.size()) / 2;
    at = std::max(at, 0);
    if (at < free_from) continue;
    row.replace(static_cast<std::size_t>(at), label.size(), label);
    free_from = at + static_cast<int>(label.size()) + 1;
  }
  while (!row.empty() && row.back() == ' ') row.pop_back();
  return row;
}

}  // namespace

std::string render_text(const Chart& c, const Style& style, int cols, int rows) {
  cols = std::max(cols, 10);
  rows = std::max(rows, 3);
  const Frame f = frame_for(c, 0, 0, cols - 1, rows - 1);
  Grid g(cols, rows);
  for (std::size_t i = 0; i < c.series.size(); ++i) draw(c.series[i], static_cast<int>(i), f, g);
  draw_mark(c, f, g);
  const ShownUnit xu = shown_unit(c.x, f.x), yu = shown_unit(c.y, f.y);
  std::vector<std::string> ylabels(static_cast<std::size_t>(rows));
  for (double t : f.y.ticks) {
    const int r = static_cast<int>(std::lround(f.y.map(t)));
    if (r >= 0 && r < rows && ylabels[static_cast<std::size_t>(r)].empty()) ylabels[static_cast<std::size_t>(r)] = tick_label(t * yu.factor);
  }
  std::size_t gutter = 0;
  for (const auto& l : ylabels) gutter = std::max(gutter, l.size());
  std::string out = c.title.empty() ? "" : c.title + "\n";
  for (int r = 0; r < rows; ++r) {
    out += fmt::format("{:>{}} |", ylabels[static_cast<std::size_t>(r)], gutter);
    for (int col = 0; col < cols; ++col) {
      const auto k = static_cast<std::size_t>(r * cols + col);
      const std::string ch(1, g.cell[k]);
      out += g.owner[k] >= 0 && g.cell[k] != '.' ? coloured(style, static_cast<std::size_t>(g.owner[k]), ch) : ch;
    }
    out += '\n';
  }
  out += std::string(gutter + 1, ' ') + '+' + std::string(static_cast<std::size_t>(cols), '-') + '\n';
  out += std::string(gutter + 2, ' ') + x_tick_row(f, cols, xu.factor) + '\n';
  out += fmt::format("{}x: {}{}   y: {}{}\n", std::string(gutter + 2, ' '), axis_title(c.x, xu), f.x.log ? " (log)" : "",
                     axis_title(c.y, yu), f.y.log ? " (log)" : "");
  std::string legend;
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const std::string m(1, c.series[i].markers ? marker(i) : '.');
    legend += (legend.empty() ? "" : "   ") + coloured(style, i, m) + " " + c.series[i].name;
  }
  const bool spread = std::any_of(c.series.begin(), c.series.end(), [](const Series& x) {
    for (std::size_t i = 0; i < x.lo.size() && i < x.hi.size(); ++i) {
      if (x.lo[i] < x.hi[i]) return true;
    }
    return false;
  });
  if (!legend.empty()) out += std::string(gutter + 2, ' ') + legend + '\n';
  std::string marks = spread ? "| spread (min to max)" : "";
  if (c.mark_x && f.x.contains(*c.mark_x)) marks += (marks.empty() ? ": " : "   : ") + c.mark_label;
  if (!marks.empty()) out += std::string(gutter + 2, ' ') + marks + '\n';
  return out;
}

}  // namespace workbook::plot
