// Axis scales for the plots: when a log axis fits better, where the ticks go (round
// numbers: 1, 2, 5 times a power of ten; decades on a log axis), and the mapping from a
// value to a position. Pure functions, no output.
#pragma once

#include <string>
#include <vector>

namespace workbook::plot {

// More than this many decades between the smallest and the largest value: a log axis.
inline constexpr double kLogDecades = 1.5;

// True when every finite value is positive and max/min exceeds 10^kLogDecades.
bool wants_log(const std::vector<double>& values);

// A value range mapped onto pixels [px0, px1] (px1 < px0 for a y axis pointing up).
struct Scale {
  double lo = 0, hi = 1;  // the axis's ends (ticks included), lo < hi; lo > 0 when log
  bool log = false;
  double px0 = 0, px1 = 1;
  std::vector<double> ticks;  // round values within [lo, hi], increasing

  double map(double v) const;       // value -> pixel
  bool contains(double v) const;    // within [lo, hi] (with a tiny tolerance), and > 0 on a log axis
};

// A scale that holds every finite value (on a log axis: every positive one), widened to
// round ticks. `log`: force a log (true) or linear (false) axis; otherwise wants_log decides.
// With no usable value the range is [0, 1] (log: [1, 10]).
Scale make_scale(const std::vector<double>& values, double px0, double px1, int log = -1);

// A tick label: "0.001", "250", "1e+06" (short and exact enough to read back).
std::string tick_label(double v);

}  // namespace workbook::plot
