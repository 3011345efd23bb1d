// Tests for plot/: the axis scales (log when the values span decades, round ticks), the
// SVG read back (every point's position maps back to its value through the axis ticks
// the SVG itself prints; axis titles with units; log axes where they belong), the
// terminal chart (markers where they belong, NO_COLOR), and the roofline placement.
#include <catch2/catch.hpp>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "plot/chart.hpp"
#include "plot/roofline.hpp"
#include "plot/scale.hpp"

using namespace workbook;
using workbook::plot::Axis;
using workbook::plot::Chart;
using workbook::plot::describe;
using workbook::plot::make_scale;
using workbook::plot::place;
using workbook::plot::Placement;
using workbook::plot::render_svg;
using workbook::plot::render_text;
using workbook::plot::ridge_intensity;
using workbook::plot::Roof;
using workbook::plot::roofline_chart;
using workbook::plot::roofline_sketch;
using workbook::plot::Scale;
using workbook::plot::Series;
using workbook::plot::wants_log;
using workbook::plot::xml_escape;

namespace {

struct Tick {
  double px, value;
};
struct Point {
  std::string series;
  double x, y, cx, cy;
};

std::vector<Tick> ticks(const std::string& svg, const std::string& cls) {
  const std::regex re("<text class=\"" + cls + "\" x=\"([-0-9.]+)\" y=\"([-0-9.]+)\"[^>]*>([^<]+)</text>");
  std::vector<Tick> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    const double px = std::stod((*it)[cls == "xtick" ? 1 : 2]);
    out.push_back({px, std::stod((*it)[3])});
  }
  return out;
}

std::vector<Point> points(const std::string& svg) {
  const std::regex re(
      "<circle class=\"point\" data-series=\"([^\"]*)\" data-x=\"([^\"]+)\" data-y=\"([^\"]+)\" cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\"");
  std::vector<Point> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back({(*it)[1], std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4]), std::stod((*it)[5])});
  }
  return out;
}

// The value at pixel `px`, from the first and last tick the SVG prints (log: in log10).
double value_at(const std::vector<Tick>& t, double px, bool log) {
  REQUIRE(t.size() >= 2);
  const Tick a = t.front(), b = t.back();
  const double f = (px - a.px) / (b.px - a.px);
  if (log) return std::pow(10.0, std::log10(a.value) + f * (std::log10(b.value) - std::log10(a.value)));
  return a.value + f * (b.value - a.value);
}

bool round_number(double v) {
  if (v == 0) return true;
  const double p = std::pow(10.0, std::floor(std::log10(std::fabs(v)) + 1e-9));
  const double m = std::fabs(v) / p;
  for (double k : {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0})
    if (std::fabs(m - k) < 1e-6) return true;
  return false;
}

}  // namespace

TEST_CASE("wants_log: more than 1.5 decades of positive values", "[plot]") {
  CHECK_FALSE(wants_log({1, 30}));
  CHECK(wants_log({1, 32}));
  CHECK(wants_log({0.01, 0.5, 100}));
  CHECK_FALSE(wants_log({0, 1, 1000}));   // a zero cannot sit on a log axis
  CHECK_FALSE(wants_log({-5, 1000}));
  CHECK_FALSE(wants_log({}));
}

TEST_CASE("make_scale: round ticks that hold every value, a zero baseline when cheap", "[plot]") {
  Scale s = make_scale({3.2, 7.9, 12.1}, 0, 100);
  CHECK_FALSE(s.log);
  CHECK(s.lo == 0);
  CHECK(s.hi >= 12.1);
  REQUIRE(s.ticks.size() >= 2);
  const double step = s.ticks[1] - s.ticks[0];
  CHECK(round_number(step));  // 1, 2 or 5 times a power of ten ...
  for (double t : s.ticks) CHECK(std::fabs(t / step - std::round(t / step)) < 1e-9);  // ... and ticks on its multiples
  CHECK(s.ticks.front() == s.lo);
  CHECK(s.ticks.back() == Approx(s.hi));
  CHECK(s.map(s.lo) == Approx(0));
  CHECK(s.map(s.hi) == Approx(100));
  CHECK(s.map(7.9) == Approx(100 * (7.9 - s.lo) / (s.hi - s.lo)));  // linear in between

  Scale l = make_scale({0.004, 3, 250}, 400, 0);
  CHECK(l.log);
  CHECK(l.lo == Approx(0.001));
  CHECK(l.hi == Approx(1000));
  for (double t : l.ticks) CHECK(round_number(t));
  CHECK(l.map(0.001) == Approx(400));
  CHECK(l.map(1) == Approx(200));  // half way in log space
  CHECK(l.map(3) == Approx(400 - 400 * (std::log10(3) + 3) / 6));  // linear in log10 in between

  Scale one = make_scale({5, 5}, 0, 10);  // one value: still a range around it
  CHECK(one.lo < 5);
  CHECK(one.hi > 5);
}

TEST_CASE("render_svg: points map back to their values through the printed ticks", "[plot]") {
  Chart c;
  c.title = "module01/pass_lab: sweep of N";
  c.x = {"N", "elements", -1};
  c.y = {"sum_ms", "ms", -1};
  c.series.push_back({"sum_ms", {100, 1000, 10000, 100000}, {0.0002, 0.002, 0.02, 0.2}, {}, true, true, {}, {}});
  const std::string svg = render_svg(c);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
  CHECK(svg.find("</svg>") != std::string::npos);
  // Axis titles with units; both axes log (four decades each).
  CHECK(svg.find("class=\"xlabel\"") != std::string::npos);
  CHECK(svg.find(">N (elements), log scale</text>") != std::string::npos);
  // 0.0002 to 0.2 ms: the ticks in µs (0.1 to 1000), not 0.0001 ms.
  CHECK(svg.find(">sum_ms (µs), log scale</text>") != std::string::npos);
  CHECK(svg.find("class=\"legend\"") != std::string::npos);
  CHECK(svg.find("<polyline class=\"series\"") != std::string::npos);
  const auto xt = ticks(svg, "xtick"), yt = ticks(svg, "ytick");
  for (const auto& t : xt) CHECK(round_number(t.value));
  for (const auto& t : yt) CHECK(round_number(t.value));
  const auto pts = points(svg);
  REQUIRE(pts.size() == 4);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    CHECK(pts[i].series == "sum_ms");
    CHECK(value_at(xt, pts[i].cx, true) == Approx(c.series[0].x[i]).epsilon(0.005));
    CHECK(value_at(yt, pts[i].cy, true) == Approx(c.series[0].y[i] * 1000).epsilon(0.005));  // ms -> µs
  }
}

TEST_CASE("render_svg: a narrow range stays linear, two series share the axes", "[plot]") {
  Chart c;
  c.x = {"TILE", "threads", -1};
  c.y = {"figure", "ms", -1};
  c.series.push_back({"tiled_ms", {32, 64, 128, 256}, {4.1, 3.2, 2.9, 3.0}, {}, true, true, {}, {}});
  c.series.push_back({"basic_ms", {32, 64, 128, 256}, {6.0, 6.1, 5.9, 6.2}, {}, false, true, {}, {}});
  const std::string svg = render_svg(c);
  CHECK(svg.find(">figure (ms)</text>") != std::string::npos);  // not log: under 1.5 decades
  CHECK(svg.find(">TILE (threads)</text>") != std::string::npos);
  const auto xt = ticks(svg, "xtick"), yt = ticks(svg, "ytick");
  const auto pts = points(svg);
  REQUIRE(pts.size() == 8);
  for (const auto& p : pts) {
    CHECK(value_at(xt, p.cx, false) == Approx(p.x).epsilon(0.002));
    CHECK(value_at(yt, p.cy, false) == Approx(p.y).epsilon(0.002));
  }
  CHECK(pts[4].series == "basic_ms");
  CHECK(pts[4].y == 6.0);
}

TEST_CASE("render_svg: names are escaped, a non-positive value is left off a log axis", "[plot]") {
  Chart c;
  c.title = "a <b> & \"c\"";
  c.x = {"x", "", 1};
  c.y = {"y", "GB/s", -1};
  c.series.push_back({"s&t", {0, 1, 10, 100}, {1, 2, 3, 4}, {}, true, true, {}, {}});
  const std::string svg = render_svg(c);
  CHECK(svg.find("a &lt;b&gt; &amp; &quot;c&quot;") != std::string::npos);
  CHECK(svg.find("data-series=\"s&amp;t\"") != std::string::npos);
  CHECK(points(svg).size() == 3);  // x = 0 has no place on a log axis
  CHECK(xml_escape("<&>") == "&lt;&amp;&gt;");
}

TEST_CASE("render_text: markers where the values are, colour only when the style has it", "[plot]") {
  Chart c;
  c.x = {"N", "elements", 0};
  c.y = {"t", "ms", 0};
  c.series.push_back({"t", {0, 10}, {0, 10}, {}, false, true, {}, {}});
  const std::string plain = render_text(c, Style(false), 11, 11);
  CHECK(plain.find('\x1b') == std::string::npos);
  std::vector<std::string> lines;
  for (std::size_t a = 0, b; (b = plain.find('\n', a)) != std::string::npos; a = b + 1) lines.push_back(plain.substr(a, b - a));
  REQUIRE(lines.size() >= 14);
  // Row 0 is the top (y = 10), row 10 the bottom (y = 0); the plot starts after "NN |".
  const std::size_t bar = lines[0].find('|');
  REQUIRE(bar != std::string::npos);
  CHECK(lines[0].substr(bar + 1) == "          *");
  CHECK(lines[10].substr(bar + 1, 1) == "*");
  CHECK(plain.find("x: N (elements)   y: t (ms)") != std::string::npos);
  CHECK(plain.find("* t") != std::string::npos);  // the legend
  const std::string coloured = render_text(c, Style(true), 11, 11);
  CHECK(coloured.find("\x1b[") != std::string::npos);
}

TEST_CASE("roofline: placement under the roof, memory- or compute-bound", "[plot]") {
  const Roof roof{"Test GPU", 1000, 100, "spec sheet"};
  CHECK(ridge_intensity(roof) == Approx(10));
  const Placement mem = place(roof, {"k", 1, 80});
  CHECK(mem.memory_bound);
  CHECK(mem.attainable_gflops == Approx(100));
  CHECK(mem.pct_of_roof == Approx(80));
  CHECK(describe(mem) == "memory-bound at 80 % of the roof");
  const Placement comp = place(roof, {"k", 100, 500});
  CHECK_FALSE(comp.memory_bound);
  CHECK(comp.attainable_gflops == Approx(1000));
  CHECK(comp.pct_of_roof == Approx(50));

  const Chart chart = roofline_chart(roof, {{"vecadd", 1.0 / 12, 7}, {"gemm", 64, 800}});
  const std::string svg = render_svg(chart);
  CHECK(svg.find(">arithmetic intensity (FLOP/byte), log scale</text>") != std::string::npos);
  CHECK(svg.find(">performance (GFLOP/s), log scale</text>") != std::string::npos);
  const auto xt = ticks(svg, "xtick"), yt = ticks(svg, "ytick");
  const auto pts = points(svg);
  REQUIRE(pts.size() == 2);  // the roof is a line without markers
  CHECK(value_at(xt, pts[0].cx, true) == Approx(1.0 / 12).epsilon(0.005));
  CHECK(value_at(yt, pts[0].cy, true) == Approx(7).epsilon(0.005));
  CHECK(value_at(yt, pts[1].cy, true) == Approx(800).epsilon(0.005));
  CHECK(svg.find("vecadd (84 %)") != std::string::npos);  // 7 of 100/12 GFLOP/s
  const std::string sketch = roofline_sketch(roof, {{"vecadd", 1.0 / 12, 7}}, Style(false));
  CHECK(sketch.find("vecadd: memory-bound at 84 % of the roof") != std::string::npos);
  CHECK(sketch.find("(log)") != std::string::npos);
}

TEST_CASE("axes show their ticks in the unit that suits them: µs, not 0.001 ms", "[plot]") {
  Chart c;
  c.x = {"N", "elements", 0};
  c.y = {"t", "ms", 0};
  c.series.push_back({"t", {1, 2, 3}, {0.001, 0.002, 0.0035}, {}, true, true, {}, {}});
  const std::string svg = render_svg(c);
  CHECK(svg.find(">t (µs)</text>") != std::string::npos);
  CHECK(svg.find(">0.001</text>") == std::string::npos);
  const auto yt = ticks(svg, "ytick");
  for (const auto& p : points(svg)) CHECK(value_at(yt, p.cy, false) == Approx(p.y * 1000).epsilon(0.002));
  const std::string text = render_text(c, Style(false), 30, 8);
  CHECK(text.find("y: t (µs)") != std::string::npos);
  CHECK(text.find("0.001") == std::string::npos);
  // A unit outside the families is kept as it is.
  c.y.unit = "count";
  CHECK(render_svg(c).find(">t (count)</text>") != std::string::npos);
}

TEST_CASE("a sweep's chart marks its graded value and shows each point's spread", "[plot]") {
  Chart c;
  c.x = {"BLOCK", "threads", 0};
  c.y = {"time", "ms", 0};
  Series s{"time", {128, 256, 512}, {3, 2, 2.5}, {}, true, true, {}, {}};
  s.lo = {2.8, 1.5, 2.5};
  s.hi = {3.3, 2.6, 2.5};
  c.series.push_back(s);
  c.mark_x = 256;
  c.mark_label = "graded: BLOCK=256";
  const std::string svg = render_svg(c);
  CHECK(svg.find("<line class=\"mark\" data-x=\"256\"") != std::string::npos);
  CHECK(svg.find(">graded: BLOCK=256</text>") != std::string::npos);
  CHECK(svg.find("class=\"spread\" data-x=\"256\" data-lo=\"1.5\" data-hi=\"2.6\"") != std::string::npos);
  CHECK(svg.find("data-x=\"512\" data-lo") == std::string::npos);  // no spread: no bar
  const std::string text = render_text(c, Style(false), 41, 11);
  INFO(text);
  CHECK(text.find(": graded: BLOCK=256") != std::string::npos);
  CHECK(text.find("| spread (min to max)") != std::string::npos);
  std::size_t marked_rows = 0, spread_rows = 0;
  for (std::size_t a = 0, b; (b = text.find('\n', a)) != std::string::npos; a = b + 1) {
    const std::string row = text.substr(a, b - a);
    if (row.find("+-") != std::string::npos) break;  // the x axis: below it are ticks and the legend
    const std::string plot = row.substr(row.find('|') + 1);
    marked_rows += plot.find(':') != std::string::npos;
    spread_rows += plot.find('|') != std::string::npos;
  }
  CHECK(marked_rows >= 5);  // the graded value's column, down the plot
  CHECK(spread_rows >= 2);
}

TEST_CASE("the roofline's legend fits inside the SVG, whatever the roof's figures", "[plot]") {
  const Roof roof{"NVIDIA H200", 67000, 4800, "spec sheet h200"};
  const std::string svg = render_svg(roofline_chart(roof, {{"module04/vecadd_roofline: achieved", 1.0 / 12, 300}}));
  const std::regex width_re("<svg [^>]*width=\"([0-9.]+)\"");
  std::smatch w;
  REQUIRE(std::regex_search(svg, w, width_re));
  const double width = std::stod(w[1]);
  const std::regex text_re("<text x=\"([0-9.]+)\" y=\"[0-9.]+\" dominant-baseline=\"middle\">([^<]+)</text>");
  int legend_entries = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text_re); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[2];
    INFO(name);
    CHECK(std::stod((*it)[1]) + 7.2 * static_cast<double>(name.size()) <= width);
    ++legend_entries;
  }
  CHECK(legend_entries == 2);
  CHECK(svg.find("roof: 4800 GB/s, 67000 GFLOP/s") != std::string::npos);
  // A point's label on the right half runs left, into the plot.
  CHECK(svg.find("text-anchor=\"start\">module04/vecadd_roofline: achieved") != std::string::npos);
}
