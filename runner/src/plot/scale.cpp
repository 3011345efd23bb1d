// Axis scales (see scale.hpp).
#include "plot/scale.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace workbook::plot {

namespace {

// The smallest of 1, 2, 5 times a power of ten that is at least `raw` (> 0).
double nice_step(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  }
  return 10 * p;
}

void linear_range(double mn, double mx, Scale& s) {
  if (mn >= 0 && mn <= 0.5 * mx) mn = 0;  // a zero baseline where it costs little room
  if (mn == mx) {
    const double pad = mn == 0 ? 1 : std::fabs(mn) * 0.1;
    mn -= pad;
    mx += pad;
  }
  const double step = nice_step((mx - mn) / 5);
  const double k0 = std::floor(mn / step + 1e-9), k1 = std::ceil(mx / step - 1e-9);
  s.lo = k0 * step;
  s.hi = k1 * step;
  for (double k = k0; k <= k1 + 0.5; k += 1) s.ticks.push_back(std::fabs(k) < 1e-12 ? 0.0 : k * step);
}

void log_range(double mn, double mx, Scale& s) {
  int d0 = static_cast<int>(std::floor(std::log10(mn) + 1e-9));
  int d1 = static_cast<int>(std::ceil(std::log10(mx) - 1e-9));
  if (d1 <= d0) d1 = d0 + 1;
  s.lo = std::pow(10.0, d0);
  s.hi = std::pow(10.0, d1);
  const bool fine = d1 - d0 <= 2;  // few decades: 2 and 5 between them too
  for (int d = d0; d <= d1; ++d) {
    const double p = std::pow(10.0, d);
    s.ticks.push_back(p);
    if (fine && d < d1) {
      s.ticks.push_back(2 * p);
      s.ticks.push_back(5 * p);
    }
  }
}

}  // namespace

bool wants_log(const std::vector<double>& values) {
  double mn = HUGE_VAL, mx = -HUGE_VAL;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    if (v <= 0) return false;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  return mx > 0 && std::log10(mx / mn) > kLogDecades;
}

Scale make_scale(const std::vector<double>& values, double px0, double px1, int log) {
  Scale s;
  s.px0 = px0;
  s.px1 = px1;
  s.log = log < 0 ? wants_log(values) : log > 0;
  double mn = HUGE_VAL, mx = -HUGE_VAL;
  for (double v : values) {
    if (!std::isfinite(v) || (s.log && v <= 0)) continue;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  if (mn > mx) {  // nothing to show
    mn = s.log ? 1 : 0;
    mx = s.log ? 10 : 1;
  }
  if (s.log) log_range(mn, mx, s);
  else linear_range(mn, mx, s);
  return s;
}

double Scale::map(double v) const {
  const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
  return px0 + t * (px1 - px0);
}

bool Scale::contains(double v) const {
  if (!std::isfinite(v) || (log && v <= 0)) return false;
  const double eps = 1e-9 * (hi - lo);
  return v >= lo - eps && v <= hi + eps;
}

std::string tick_label(double v) { return fmt::format("{:g}", v); }

}  // namespace workbook::plot
