// The roofline model and chart (see roofline.hpp).
#include "plot/roofline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace workbook::plot {

double ridge_intensity(const Roof& roof) { return roof.peak_gflops / roof.peak_gbps; }

Placement place(const Roof& roof, const RoofPoint& point) {
  Placement p;
  p.memory_bound = point.intensity < ridge_intensity(roof);
  p.attainable_gflops = std::min(roof.peak_gflops, point.intensity * roof.peak_gbps);
  p.pct_of_roof = p.attainable_gflops > 0 ? point.gflops / p.attainable_gflops * 100 : 0;
  return p;
}

std::string describe(const Placement& p) {
  return fmt::format("{} at {:.0f} % of the roof", p.memory_bound ? "memory-bound" : "compute-bound", p.pct_of_roof);
}

Chart roofline_chart(const Roof& roof, const std::vector<RoofPoint>& points) {
  Chart c;
  c.title = fmt::format("Roofline: {} ({})", roof.gpu, roof.source);
  c.x = {"arithmetic intensity", "FLOP/byte", 1};
  c.y = {"performance", "GFLOP/s", 1};
  const double ridge = ridge_intensity(roof);
  double lo = ridge / 10, hi = ridge * 10;
  for (const auto& p : points) {
    if (p.intensity > 0 && std::isfinite(p.intensity)) {
      lo = std::min(lo, p.intensity / 2);
      hi = std::max(hi, p.intensity * 2);
    }
  }
  lo = std::pow(10.0, std::floor(std::log10(lo)));
  hi = std::pow(10.0, std::ceil(std::log10(hi)));
  Series r;
  r.name = fmt::format("roof: {:.0f} GB/s, {:.0f} GFLOP/s", roof.peak_gbps, roof.peak_gflops);
  r.x = {lo, ridge, hi};
  r.y = {lo * roof.peak_gbps, roof.peak_gflops, roof.peak_gflops};
  r.markers = false;
  c.series.push_back(r);
  Series k;
  k.name = "your kernels";
  k.line = false;
  for (const auto& p : points) {
    k.x.push_back(p.intensity);
    k.y.push_back(p.gflops);
    k.labels.push_back(fmt::format("{} ({:.0f} %)", p.label, place(roof, p).pct_of_roof));
  }
  c.series.push_back(k);
  return c;
}

std::string roofline_sketch(const Roof& roof, const std::vector<RoofPoint>& points, const Style& style, int cols,
                            int rows) {
  std::string out = render_text(roofline_chart(roof, points), style, cols, rows);
  for (const auto& p : points) out += fmt::format("  {}: {}\n", p.label, describe(place(roof, p)));
  return out;
}

}  // namespace workbook::plot
