// A chart (series of points on two labelled axes) drawn as a standalone SVG file a
// browser opens, or as a few rows of text for the terminal. Dependency-free.
//
// SVG structure (the tests read it back): each axis's ticks are <text class="xtick"> /
// <text class="ytick"> whose x (resp. y) is the tick's position and whose text is its
// value; each data point is a <circle class="point"> with data-series, data-x and
// data-y; a series drawn as a line is a <polyline class="series">; the axis titles are
// <text class="xlabel"> / <text class="ylabel">; the legend is <g class="legend">. The
// ticks are in the axis's shown unit (shown_unit), the points' data-x/data-y in the
// series' own. A point's spread is a <line class="spread">; the marked x a <line
// class="mark"> with a <text class="mark-label">.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plot/scale.hpp"
#include "ui/style.hpp"
#include "ui/units.hpp"

namespace workbook::plot {

struct Axis {
  std::string label;  // "TILE"
  std::string unit;   // "ms"; shown as "label (unit)"
  int log = -1;       // -1: log when the values span more than kLogDecades; 0 linear; 1 log
  bool counts = false;  // the values are counts: ticks only at whole numbers (linear axis)
  std::string title() const { return unit.empty() ? label : label + " (" + unit + ")"; }
};

struct Series {
  std::string name;
  std::vector<double> x, y;
  std::vector<std::string> labels;  // optional: one per point, written beside it
  bool line = true;                 // join the points
  bool markers = true;              // draw each point
  std::vector<double> lo, hi;       // optional: each point's spread (its samples' min and max), drawn as a bar
};

struct Chart {
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  std::optional<double> mark_x;  // an x value marked with a dashed line: the graded point of a sweep
  std::string mark_label;        // "graded: N=1024"
};

// The unit an axis's ticks are shown in: the one that suits the middle of its ticks (µs
// rather than 0.0001 ms; ui/units.hpp), with the factor from the values to it.
ShownUnit shown_unit(const Axis& axis, const Scale& scale);
// The axis's title in that unit: "sum_ms (µs)".
std::string axis_title(const Axis& axis, const ShownUnit& unit);

// The chart's scales for a plot area of w x h pixels at (left, top); y points up.
struct Frame {
  Scale x, y;
};
Frame frame_for(const Chart& chart, double left, double top, double w, double h);

// A standalone SVG document (XML declaration, xmlns, viewBox) of the chart.
std::string render_svg(const Chart& chart);

// The chart as text: `rows` rows of `cols` columns of plot area, y ticks on the left,
// x ticks below, one marker letter per series and a legend; colour only when `style`
// has it. Line series are drawn with '.' between their points.
std::string render_text(const Chart& chart, const Style& style, int cols = 60, int rows = 12);

// Escapes &, <, >, " for XML text and attributes.
std::string xml_escape(const std::string& s);

}  // namespace workbook::plot
