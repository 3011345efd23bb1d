// Charts as standalone SVG (see chart.hpp).
#include <fmt/format.h>

#include <cmath>

#include "plot/chart.hpp"

namespace workbook::plot {

namespace {

constexpr double kWidth = 760, kHeight = 460;
constexpr double kLeft = 84, kTop = 44, kRight = 200, kBottom = 64;
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
  for (double t : f.x.ticks)
    out += fmt::format(R"(<text class="xtick" x="{:.2f}" y="{:.2f}" text-anchor="middle">{}</text>)" "\n", f.x.map(t), y0 + 18, tick_label(t));
  for (double t : f.y.ticks)
    out += fmt::format(R"(<text class="ytick" x="{:.2f}" y="{:.2f}" text-anchor="end" dominant-baseline="middle">{}</text>)" "\n",
                       x0 - 6, f.y.map(t), tick_label(t));
  out += "</g>\n";
  const std::string xs = c.x.title() + (f.x.log ? ", log scale" : ""), ys = c.y.title() + (f.y.log ? ", log scale" : "");
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
  for (std::size_t i = 0; s.markers && i < s.x.size() && i < s.y.size(); ++i) {
    if (!f.x.contains(s.x[i]) || !f.y.contains(s.y[i])) continue;
    const double cx = f.x.map(s.x[i]), cy = f.y.map(s.y[i]);
    out += fmt::format(R"(<circle class="point" data-series="{0}" data-x="{1:g}" data-y="{2:g}" cx="{3:.2f}" cy="{4:.2f}" r="4" fill="{5}"><title>{0}: {1:g}, {2:g}</title></circle>)"
                       "\n", xml_escape(s.name), s.x[i], s.y[i], cx, cy, col);
    if (i < s.labels.size() && !s.labels[i].empty())
      out += fmt::format(R"(<text class="point-label" x="{:.2f}" y="{:.2f}" font-size="11">{}</text>)" "\n", cx + 6, cy - 6,
                         xml_escape(s.labels[i]));
  }
  out += "</g>\n";
}

void legend(const Chart& c, std::string& out) {
  out += "<g class=\"legend\">\n";
  double y = kTop + 10;
  for (std::size_t i = 0; i < c.series.size(); ++i, y += 20) {
    const double x = kWidth - kRight + 16;
    const Series& s = c.series[i];
    if (s.line) out += fmt::format(R"(<line x1="{:.0f}" y1="{:.0f}" x2="{:.0f}" y2="{:.0f}" stroke="{}" stroke-width="2"/>)", x, y, x + 22, y, colour(i));
    if (s.markers) out += fmt::format(R"(<circle cx="{:.0f}" cy="{:.0f}" r="4" fill="{}"/>)", x + 11, y, colour(i));
    out += fmt::format(R"(<text x="{:.0f}" y="{:.0f}" dominant-baseline="middle">{}</text>)" "\n", x + 30, y, xml_escape(s.name));
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
  }
  return {make_scale(xs, left, left + w, chart.x.log), make_scale(ys, top + h, top, chart.y.log)};
}

std::string render_svg(const Chart& c) {
  const Frame f = frame_for(c, kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" font-family="sans-serif" font-size="12">)"
                     "\n", kWidth, kHeight);
  out += fmt::format("<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", xml_escape(c.title));
  out += fmt::format(R"(<text class="title" x="{:.0f}" y="24" text-anchor="middle" font-size="15">{}</text>)" "\n",
                     kLeft + (kWidth - kLeft - kRight) / 2, xml_escape(c.title));
  axes(c, f, out);
  for (std::size_t i = 0; i < c.series.size(); ++i) series(c.series[i], i, f, out);
  legend(c, out);
  out += "</svg>\n";
  return out;
}

}  // namespace workbook::plot
