// Figures in suited units (see units.hpp).
#include "ui/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <string_view>

#include "util/quantity.hpp"

namespace workbook {

namespace {

struct Step {
  const char* name;
  double scale;  // the unit in its dimension's base unit (s, B, B/s, FLOP, FLOP/s)
};

constexpr std::array<Step, 4> kTime{{{"ns", 1e-9}, {"µs", 1e-6}, {"ms", 1e-3}, {"s", 1}}};
constexpr std::array<Step, 6> kPrefix{{{"", 1}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}}};

template <std::size_t N>
ShownUnit pick(double magnitude, double scale, const std::array<Step, N>& steps, const std::string& base) {
  const double in_base = std::fabs(magnitude) * scale;
  const Step* best = &steps.front();
  for (const Step& s : steps) {
    if (in_base >= s.scale * (1 - 1e-9)) best = &s;
  }
  return {scale / best->scale, best->name + base};
}

std::string number(double v) {
  std::string num = fmt::format("{:.3g}", v);
  if (num.find('e') != std::string::npos && std::fabs(v) >= 1000 && std::fabs(v) < 1e7) num = fmt::format("{:.0f}", v);
  return num;
}

}  // namespace

ShownUnit suited_unit(double magnitude, const std::string& unit) {
  if (magnitude == 0 || !std::isfinite(magnitude)) return {1, unit};
  const std::optional<Unit> u = find_unit(unit);
  if (!u) return {1, unit};  // "count", "x", "%": kept as written
  switch (u->dimension) {
    case Dimension::time: return pick(magnitude, u->factor, kTime, "");
    case Dimension::bytes: return pick(magnitude, u->factor, kPrefix, "B");
    case Dimension::bandwidth: return pick(magnitude, u->factor, kPrefix, "B/s");
    case Dimension::flops: return pick(magnitude, u->factor, kPrefix, "FLOP");
    case Dimension::flop_rate: return pick(magnitude, u->factor, kPrefix, "FLOP/s");
    default: return {1, unit};
  }
}

std::string format_quantity(double value, const std::string& unit) {
  const ShownUnit u = suited_unit(value, unit);
  const std::string num = number(value * u.factor);
  return u.unit.empty() ? num : num + " " + u.unit;
}

std::string format_range(std::optional<double> lo, std::optional<double> hi, const std::string& unit) {
  if (lo && hi) {
    if (*lo == *hi) return format_quantity(*lo, unit);
    return format_quantity(*lo, unit) + " to " + format_quantity(*hi, unit);
  }
  if (lo) return "at least " + format_quantity(*lo, unit);
  if (hi) return "at most " + format_quantity(*hi, unit);
  return "";
}

std::string format_figure(double value, const std::string& unit) {
  std::string num = fmt::format("{:.3g}", value);
  if (std::fabs(value) >= 1000 && std::fabs(value) < 1e7) num = fmt::format("{:.0f}", value);
  return unit.empty() ? num : num + " " + unit;
}

std::string date_time_text(const std::string& iso) {
  if (iso.size() < 16 || iso[10] != 'T') return iso;
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + (iso.back() == 'Z' ? " UTC" : "");
}

std::string path_from_here(const std::filesystem::path& file) {
  std::error_code ec;
  const std::filesystem::path here = std::filesystem::current_path(ec);
  if (ec || file.is_relative()) return file.string();
  const std::filesystem::path rel = file.lexically_relative(here);
  return rel.empty() || rel.native().rfind("..", 0) == 0 ? file.string() : rel.string();
}

}  // namespace workbook
