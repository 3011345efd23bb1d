// Charts as standalone SVG (see chart.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "plot/chart.hpp"
#include "ui/wrap.hpp"

namespace workbook::plot {

namespace {

constexpr double kPlotWidth = 476, kHeight = 460;
constexpr double kLeft = 84, kTop = 44, kRight = 200, kBottom = 64;
constexpr double kCharWidth = 7.2;  // about one character of the 12 px sans-serif font
const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

const char* colour(std::size_t i) { return kColours[i % (sizeof kColours / sizeof kColours[0])]; }

void axes(const Chart& c, const Frame& f, std::string& out) {
  const double x0 = f.x.px0, x1 = f.x.px1, y0 = f.y.px0, y1 = f.y.px1;
  out += fmt::format(R"(<g class="axes" stroke="#444" fill="none"><rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}"/></g>)"
                     "\n", x0, y1, x1 - x0, y0 - y1);
  out += "<g class=\"grid\" stroke=\"#e4e4e4\">\n";
  for (double t : f.x.ticks) out += fmt::format(R"(<line x1="{0:.2f}" y1="{1:.2f}" x2="{0:.2f}" y2="{2:.2f}"/>)" "\n", f.x.map(t), y0, y1);
  for (double t : f.y.ticks) out += fmt::format(R"(<line x1="{1:.2f}" y1="{0:.2f}" x2="{2:.2f}" y2="{0:.2f}"/>)" "\n", f.y.map(t), x0, x1);
  out += "</g>\n<g class=\"ticks\" fill=\"#222\">\n";
  const ShownUnit xu = shown_unit(c.x, f.x), yu = shown_unit(c.y, f.y);
  for (double t : f.x.ticks)
    out += fmt::format(R"(<text class="xtick" x="{:.2f}" y="{:.2f}" text-anchor="middle">{}</text>)" "\n", f.x.map(t), y0 + 18,
                       tick_label(t * xu.factor));
  for (double t : f.y.ticks)
    out += fmt::format(R"(<text class="ytick" x="{:.2f}" y="{:.2f}" text-anchor="end" dominant-baseline="middle">{}</text>)" "\n",
                       x0 - 6, f.y.map(t), tick_label(t * yu.factor));
  out += "</g>\n";
  const std::string xs = axis_title(c.x, xu) + (f.x.log ? ", log scale" : ""), ys = axis_title(c.y, yu) + (f.y.log ? ", log scale" : "");
  out += fmt::format(R"(<text class="xlabel" x="{:.2f}" y="{:.2f}" text-anchor="middle">{}</text>)" "\n", (x0 + x1) / 2, y0 + 44, xml_escape(xs));
  out += fmt::format(R"~(<text class="ylabel" transform="translate({:.2f},{:.2f}) rotate(-90)" text-anchor="middle">{}</text>)~" "\n",
                     x0 - 62, (y0 + y1) / 2, xml_escape(ys));
}

void series(const Series& s, std::size_t index, const Frame& f, std::string& out) {
  const char* col = colour(index);
  out += fmt::format("<g class=\"series-group\" data-series=\"{}\">\n", xml_escape(s.name));
  std::string pts;
  for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (f.x.contains(s.x[i]) && f.y.contains(s.y[i])) pts += fmt::format("{:.2f},{:.2f} ", f.x.map(s.x[i]), f.y.map(s.y[i]));
  }
  if (s.line && !pts.empty()) {
    pts.pop_back();
    out += fmt::format(R"(<polyline class="series" fill="none" stroke="{}" stroke-width="2" points="{}"/>)" "\n", col, pts);
  }
  for (std::size_t i = 0; i < s.x.size() && i < s.lo.size() && i < s.hi.size(); ++i) {
    if (!f.x.contains(s.x[i]) || !f.y.contains(s.lo[i]) || !f.y.contains(s.hi[i]) || s.lo[i] >= s.hi[i]) continue;
    const double cx = f.x.map(s.x[i]);
    out += fmt::format(R"(<line class="spread" data-x="{:g}" data-lo="{:g}" data-hi="{:g}" x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="{}" stroke-width="1.5"/>)"
                       "\n", s.x[i], s.lo[i], s.hi[i], cx, f.y.map(s.lo[i]), cx, f.y.map(s.hi[i]), col);
  }
  for (std::size_t i = 0; s.markers && i < s.x.size() && i < s.y.size(); ++i) {
    if (!f.x.contains(s.x[i]) || !f.y.contains(s.y[i])) continue;
    const double cx = f.x.map(s.x[i]), cy = f.y.map(s.y[i]);
    const bool right_half = cx > (f.x.px0 + f.x.px1) / 2;  // a label there runs left, inside the plot
    out += fmt::format(R"(<circle class="point" data-series="{0}" data-x="{1:g}" data-y="{2:g}" cx="{3:.2f}" cy="{4:.2f}" r="4" fill="{5}"><title>{0}: {1:g}, {2:g}</title></circle>)"
                       "\n", xml_escape(s.name), s.x[i], s.y[i], cx, cy, col);
    if (i < s.labels.size() && !s.labels[i].empty())
      out += fmt::format(R"(<text class="point-label" x="{:.2f}" y="{:.2f}" font-size="11" text-anchor="{}">{}</text>)" "\n",
                         right_half ? cx - 6 : cx + 6, cy - 6, right_half ? "end" : "start", xml_escape(s.labels[i]));
  }
  out += "</g>\n";
}

// The dashed line at the chart's marked x (a sweep's graded value) and its label.
void mark(const Chart& c, const Frame& f, std::string& out) {
  if (!c.mark_x || !f.x.contains(*c.mark_x)) return;
  const double x = f.x.map(*c.mark_x);
  out += fmt::format(R"(<line class="mark" data-x="{:g}" x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" stroke="#555" stroke-dasharray="5,4"/>)"
                     "\n", *c.mark_x, x, f.y.px0, x, f.y.px1);
  const bool right_half = x > (f.x.px0 + f.x.px1) / 2;
  out += fmt::format(R"(<text class="mark-label" x="{:.2f}" y="{:.2f}" font-size="11" fill="#555" text-anchor="{}">{}</text>)" "\n",
                     right_half ? x - 4 : x + 4, f.y.px1 + 14, right_half ? "end" : "start", xml_escape(c.mark_label));
}

// The width the legend needs: its longest name, after the line and marker.
double legend_width(const Chart& c) {
  std::size_t longest = 0;
  for (const auto& s : c.series) longest = std::max(longest, text_columns(s.name));
  return std::max(kRight, 16 + 30 + kCharWidth * static_cast<double>(longest) + 12);
}

void legend(const Chart& c, double width, std::string& out) {
  out += "<g class=\"legend\">\n";
  double y = kTop + 10;
  for (std::size_t i = 0; i < c.series.size(); ++i, y += 20) {
    const double x = width - legend_width(c) + 16;
    const Series& s = c.series[i];
    if (s.line) out += fmt::format(R"(<line x1="{:.0f}" y1="{:.0f}" x2="{:.0f}" y2="{:.0f}" stroke="{}" stroke-width="2"/>)", x, y, x + 22, y, colour(i));
    if (s.markers) out += fmt::format(R"(<circle cx="{:.0f}" cy="{:.0f}" r="4" fill="{}"/>)", x + 11, y, colour(i));
    out += fmt::format(R"(<text x="{:.0f}" y="{:.0f}" dominant-baseline="middle">{}</text>)" "\n", x + 30, y, xml_escape(s.name));
  }
  const double x = width - legend_width(c) + 16;
  if (std::any_of(c.series.begin(), c.series.end(), [](const Series& s) { return !s.lo.empty(); })) {
    out += fmt::format(R"(<line x1="{0:.0f}" y1="{1:.0f}" x2="{0:.0f}" y2="{2:.0f}" stroke="#444" stroke-width="1.5"/>)", x + 11, y - 7, y + 7);
    out += fmt::format(R"(<text class="legend-note" x="{:.0f}" y="{:.0f}" dominant-baseline="middle">spread</text>)" "\n", x + 30, y);
    y += 20;
  }
  if (c.mark_x) {
    out += fmt::format(R"(<line x1="{0:.0f}" y1="{1:.0f}" x2="{0:.0f}" y2="{2:.0f}" stroke="#555" stroke-dasharray="3,3"/>)", x + 11, y - 7, y + 7);
    out += fmt::format(R"(<text class="legend-note" x="{:.0f}" y="{:.0f}" dominant-baseline="middle">graded value</text>)" "\n", x + 30, y);
  }
  out += "</g>\n";
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

Frame frame_for(const Chart& chart, double left, double top, double w, double h) {
  std::vector<double> xs, ys;
  for (const auto& s : chart.series) {
    xs.insert(xs.end(), s.x.begin(), s.x.end());
    ys.insert(ys.end(), s.y.begin(), s.y.end());
    ys.insert(ys.end(), s.lo.begin(), s.lo.end());  // the spread bars fit on the axis too
    ys.insert(ys.end(), s.hi.begin(), s.hi.end());
  }
  Frame f{make_scale(xs, left, left + w, chart.x.log), make_scale(ys, top + h, top, chart.y.log)};
  for (auto [axis, scale] : {std::pair{&chart.x, &f.x}, std::pair{&chart.y, &f.y}}) {
    if (!axis->counts || scale->log) continue;  // a count: 0, 1, 2, never 0.5
    auto& t = scale->ticks;
    t.erase(std::remove_if(t.begin(), t.end(), [](double v) { return std::fabs(v - std::round(v)) > 1e-9; }), t.end());
  }
  return f;
}

ShownUnit shown_unit(const Axis& axis, const Scale& scale) {
  if (scale.ticks.empty()) return {1, axis.unit};
  const double a = std::fabs(scale.ticks.front()), b = std::fabs(scale.ticks.back());
  const double middle = scale.log ? std::sqrt(a * b) : std::max(a, b);
  return suited_unit(middle, axis.unit);
}

std::string axis_title(const Axis& axis, const ShownUnit& unit) {
  return unit.unit.empty() ? axis.label : axis.label + " (" + unit.unit + ")";
}

std::string render_svg(const Chart& c) {
  const double width = kLeft + kPlotWidth + legend_width(c);
  const Frame f = frame_for(c, kLeft, kTop, kPlotWidth, kHeight - kTop - kBottom);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" font-family="sans-serif" font-size="12">)"
                     "\n", width, kHeight);
  out += fmt::format("<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", xml_escape(c.title));
  out += fmt::format(R"(<text class="title" x="{:.0f}" y="24" text-anchor="middle" font-size="15">{}</text>)" "\n",
                     kLeft + kPlotWidth / 2, xml_escape(c.title));
  axes(c, f, out);
  mark(c, f, out);
  for (std::size_t i = 0; i < c.series.size(); ++i) series(c.series[i], i, f, out);
  legend(c, width, out);
  out += "</svg>\n";
  return out;
}

}  // namespace workbook::plot
