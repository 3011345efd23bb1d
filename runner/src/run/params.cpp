// Run parameters (see params.hpp).
#include "run/params.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

#include "util/error.hpp"
#include "util/quantity.hpp"
#include "util/text.hpp"

namespace workbook {

namespace {

std::string too_large() {
  return fmt::format("is too large: a parameter is a whole number from -{0:.0f} to {0:.0f} (2^53)", kMaxParamMagnitude);
}

}  // namespace

std::optional<double> parse_param_value(const std::string& text, std::string& why) {
  why.clear();
  const std::string t = trim(text);
  // 0x-hexadecimal, as the lab harness's parse_int reads it (labs/common/wb_host.hpp).
  std::size_t sign = (!t.empty() && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
  if (t.size() > sign + 1 && t[sign] == '0' && (t[sign + 1] == 'x' || t[sign + 1] == 'X')) {
    const std::string digits = t.substr(sign + 2);
    if (digits.empty() || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
      why = "is not a number (hexadecimal is written 0x followed by 0-9 and a-f)";
      return std::nullopt;
    }
    errno = 0;
    const unsigned long long v = std::strtoull(digits.c_str(), nullptr, 16);
    if (errno == ERANGE || v > 9007199254740992ULL) {  // compared as integers: 2^53 + 1 rounds to 2^53
      why = too_large();
      return std::nullopt;
    }
    const double d = static_cast<double>(v);
    return t[0] == '-' ? -d : d;
  }
  std::string error;
  auto q = parse_quantity(t, &error);
  if (!q || !q->unit_text.empty()) {
    // error: "'1,5' is not a number: a comma only groups thousands ..."
    why = error.empty() ? "is not a number" : error.substr(error.find("' ") + 2);
    if (error.find("too large") != std::string::npos) why = too_large();
    return std::nullopt;
  }
  // Plain digits are compared exactly: 9007199254740993 would round to 2^53 as a double.
  std::string digits;
  for (char c : t.substr(sign)) {
    if (c >= '0' && c <= '9') digits += c;
  }
  unsigned long long exact = 0;
  if (auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), exact);
      t.find_first_not_of("0123456789,_ +-") == std::string::npos &&
      (ec == std::errc::result_out_of_range || (ec == std::errc() && exact > 9007199254740992ULL))) {
    why = too_large();
    return std::nullopt;
  }
  if (std::fabs(q->value) > kMaxParamMagnitude) {
    why = too_large();
    return std::nullopt;
  }
  if (q->value != std::floor(q->value)) {
    why = "is not a whole number (the lab's parameters are integers)";
    return std::nullopt;
  }
  return q->value == 0 ? 0.0 : q->value;  // never -0
}

double parse_timeout(const std::string& text) {
  const std::string why = fmt::format("--timeout {}: a time limit is a number of seconds from {:g} to {:g} (24 h)", text,
                                      kMinTimeoutSeconds, kMaxTimeoutSeconds);
  auto q = parse_quantity(text);
  if (!q || (!q->unit_text.empty() && (!q->unit || q->unit->dimension != Dimension::time))) throw UsageError(why);
  const double seconds = q->unit ? q->value * q->unit->factor : q->value;
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > kMaxTimeoutSeconds) throw UsageError(why);
  if (seconds < kMinTimeoutSeconds) {
    throw UsageError(why, "a shorter limit would time out the runner's own start of the lab, not the lab: give 1 or more");
  }
  return seconds;
}

std::uint64_t parse_seed(const std::string& text) {
  const std::string t = trim(text);
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  const std::string digits = hex ? t.substr(2) : t;
  std::uint64_t seed = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), seed, hex ? 16 : 10);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    throw UsageError(fmt::format("--seed {}: a seed is a whole number from 0 to 18446744073709551615 (2^64 - 1){}", text,
                                 ec == std::errc::result_out_of_range ? ", and this one is larger" : ""),
                     "give the seed of an earlier run (`--json` shows it) to repeat its inputs");
  }
  return seed;
}

void refuse_swept_param(const std::string& sweep_flag, const std::vector<std::string>& param_flags) {
  const std::string swept = trim(sweep_flag.substr(0, sweep_flag.find('=')));
  for (const auto& flag : param_flags) {
    auto kv = split_assignment(flag);
    if (kv && kv->first == swept) {
      throw UsageError(fmt::format("-p {} and --sweep {} both set {}", flag, sweep_flag, swept),
                       fmt::format("drop -p {0}: the sweep runs {0} at each of its values (or drop --sweep to run once "
                                   "with -p {1})",
                                   swept, flag));
    }
  }
}

Figures resolve_params(const LabSpec& lab, const std::vector<std::string>& flags, bool quick) {
  Figures params;
  for (const auto& p : lab.params) params[p.name] = quick && p.quick ? *p.quick : p.default_value;
  std::map<std::string, std::string> given;  // name -> the flag that set it
  for (const auto& flag : flags) {
    auto kv = split_assignment(flag);
    if (!kv) throw UsageError(fmt::format("-p '{}': write NAME=VALUE", flag));
    if (auto earlier = given.find(kv->first); earlier != given.end()) {
      throw UsageError(fmt::format("-p {} is given twice (-p {}, then -p {})", kv->first, earlier->second, flag),
                       fmt::format("give each parameter once: keep the -p {}=... you mean", kv->first));
    }
    given[kv->first] = flag;
    if (!params.count(kv->first)) {
      std::string names;
      for (const auto& p : lab.params) names += (names.empty() ? "" : ", ") + p.name;
      throw UsageError(fmt::format("{} has no parameter '{}'", lab.id, kv->first),
                       fmt::format("its parameters: {}", names.empty() ? "(none)" : names));
    }
    std::string why;
    auto v = parse_param_value(kv->second, why);
    if (!v) {
      throw UsageError(fmt::format("-p {}: '{}' {}", kv->first, kv->second, why),
                       fmt::format("write a whole number, e.g. -p {}=4096 or -p {}=0x1000", kv->first, kv->first));
    }
    params[kv->first] = *v;
  }
  return params;
}

}  // namespace workbook
