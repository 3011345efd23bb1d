// The learner's number grammar (see quantity.hpp).
#include "util/quantity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace workbook {

namespace {

bool is_digit(const std::string& s, std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

bool is_alpha(const std::string& s, std::size_t i) {
  return i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'));
}

bool at(const std::string& s, std::size_t i, const char* what) { return s.compare(i, std::char_traits<char>::length(what), what) == 0; }

// The micro signs: U+00B5 (µ) and U+03BC (μ).
std::size_t micro_len(const std::string& s, std::size_t i) { return at(s, i, "\xC2\xB5") || at(s, i, "\xCE\xBC") ? 2 : 0; }

// A letter of a unit or name: ASCII letters and the micro signs.
std::size_t letter_len(const std::string& s, std::size_t i) { return is_alpha(s, i) ? 1 : micro_len(s, i); }

// A word ends here: no letter, digit or '_' follows.
bool boundary(const std::string& s, std::size_t i) { return i >= s.size() || !(letter_len(s, i) || is_digit(s, i) || s[i] == '_'); }

std::size_t digit_run(const std::string& s, std::size_t i) {
  std::size_t n = 0;
  while (is_digit(s, i + n)) ++n;
  return n;
}

// '+', '-' or U+2212; sets `negative`.
std::size_t sign_len(const std::string& s, std::size_t i, bool* negative = nullptr) {
  std::size_t len = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    len = 1;
    neg = s[i] == '-';
  } else if (at(s, i, "\xE2\x88\x92")) {
    len = 3;
    neg = true;
  }
  if (negative) *negative = neg;
  return len;
}

// A thousands separator: ',', '_', a thin space (U+2009, U+202F), a no-break space
// (U+00A0), or with `spaced` a plain space.
std::size_t separator_len(const std::string& s, std::size_t i, bool spaced) {
  if (i >= s.size()) return 0;
  if (s[i] == ',' || s[i] == '_' || (spaced && s[i] == ' ')) return 1;
  if (at(s, i, "\xE2\x80\x89") || at(s, i, "\xE2\x80\xAF")) return 3;
  if (at(s, i, "\xC2\xA0")) return 2;
  return 0;
}

// A multiplication sign in "x 10^N": x X * × · ⋅
std::size_t times_len(const std::string& s, std::size_t i) {
  if (i < s.size() && (s[i] == 'x' || s[i] == 'X' || s[i] == '*')) return 1;
  if (at(s, i, "\xC3\x97") || at(s, i, "\xC2\xB7")) return 2;
  if (at(s, i, "\xE2\x8B\x85")) return 3;
  return 0;
}

std::size_t skip_spaces(const std::string& s, std::size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return i;
}

const std::map<std::string, Unit>& unit_table() {
  static const std::map<std::string, Unit> table = [] {
    std::map<std::string, Unit> t;
    auto add = [&](std::initializer_list<const char*> spellings, const char* symbol, Dimension d, double factor,
                   double binary = 0) {
      for (const char* s : spellings) t[s] = Unit{symbol, d, factor, binary};
    };
    const double KiB = 1024.0, MiB = KiB * 1024, GiB = MiB * 1024, TiB = GiB * 1024;
    add({"s", "sec", "secs", "second", "seconds"}, "s", Dimension::time, 1);
    add({"ms", "msec", "msecs", "millisecond", "milliseconds"}, "ms", Dimension::time, 1e-3);
    add({"us", "\xC2\xB5s", "\xCE\xBCs", "usec", "usecs", "microsecond", "microseconds"}, "us", Dimension::time, 1e-6);
    add({"ns", "nsec", "nsecs", "nanosecond", "nanoseconds"}, "ns", Dimension::time, 1e-9);
    add({"B", "byte", "bytes", "Byte", "Bytes"}, "B", Dimension::bytes, 1);
    add({"KB", "kB", "kb", "Kbyte", "Kbytes", "kilobyte", "kilobytes"}, "KB", Dimension::bytes, 1e3, KiB);
    add({"MB", "mb", "Mbyte", "Mbytes", "megabyte", "megabytes"}, "MB", Dimension::bytes, 1e6, MiB);
    add({"GB", "gb", "Gbyte", "Gbytes", "gigabyte", "gigabytes"}, "GB", Dimension::bytes, 1e9, GiB);
    add({"TB", "tb", "terabyte", "terabytes"}, "TB", Dimension::bytes, 1e12, TiB);
    add({"KiB"}, "KiB", Dimension::bytes, KiB);
    add({"MiB"}, "MiB", Dimension::bytes, MiB);
    add({"GiB"}, "GiB", Dimension::bytes, GiB);
    add({"TiB"}, "TiB", Dimension::bytes, TiB);
    add({"B/s", "bytes/s"}, "B/s", Dimension::bandwidth, 1);
    add({"KB/s", "kB/s"}, "KB/s", Dimension::bandwidth, 1e3, KiB);
    add({"MB/s", "mb/s"}, "MB/s", Dimension::bandwidth, 1e6, MiB);
    add({"GB/s", "gb/s", "GBps"}, "GB/s", Dimension::bandwidth, 1e9, GiB);
    add({"TB/s", "tb/s", "TBps"}, "TB/s", Dimension::bandwidth, 1e12, TiB);
    add({"MiB/s"}, "MiB/s", Dimension::bandwidth, MiB);
    add({"GiB/s"}, "GiB/s", Dimension::bandwidth, GiB);
    add({"TiB/s"}, "TiB/s", Dimension::bandwidth, TiB);
    add({"FLOP", "FLOPs", "flop", "flops", "Flop", "Flops"}, "FLOP", Dimension::flops, 1);
    add({"MFLOP", "MFLOPs", "Mflop", "Mflops"}, "MFLOP", Dimension::flops, 1e6);
    add({"GFLOP", "GFLOPs", "Gflop", "Gflops"}, "GFLOP", Dimension::flops, 1e9);
    add({"TFLOP", "TFLOPs", "Tflop", "Tflops"}, "TFLOP", Dimension::flops, 1e12);
    add({"FLOP/s", "FLOPS", "FLOPs/s", "flop/s", "flops/s"}, "FLOP/s", Dimension::flop_rate, 1);
    add({"MFLOP/s", "MFLOPS", "MFLOPs/s", "Mflop/s"}, "MFLOP/s", Dimension::flop_rate, 1e6);
    add({"GFLOP/s", "GFLOPS", "GFLOPs/s", "Gflop/s", "Gflops/s"}, "GFLOP/s", Dimension::flop_rate, 1e9);
    add({"TFLOP/s", "TFLOPS", "TFLOPs/s", "Tflop/s", "Tflops/s"}, "TFLOP/s", Dimension::flop_rate, 1e12);
    add({"FLOP/byte", "FLOP/B", "FLOPs/byte", "FLOPs/B", "flop/byte", "flops/byte", "FLOP/bytes", "FLOPs/bytes"},
        "FLOP/byte", Dimension::intensity, 1);
    add({"x", "X", "\xC3\x97", "times"}, "x", Dimension::ratio, 1);
    add({"%", "percent"}, "%", Dimension::ratio, 0.01);
    return t;
  }();
  return table;
}

// The known unit at `i` and how many bytes it takes (nullopt: none).
std::optional<std::pair<Unit, std::size_t>> scan_unit(const std::string& s, std::size_t i) {
  const auto& table = unit_table();
  if (i < s.size() && s[i] == '%') {
    if (!boundary(s, i + 1)) return std::nullopt;
    return std::make_pair(table.at("%"), std::size_t{1});
  }
  if (at(s, i, "\xC3\x97")) {
    if (!boundary(s, i + 2)) return std::nullopt;
    return std::make_pair(table.at("x"), std::size_t{2});
  }
  auto word_end = [&](std::size_t j) {
    while (std::size_t n = letter_len(s, j)) j += n;
    return j;
  };
  const std::size_t w1 = word_end(i);
  if (w1 == i) return std::nullopt;
  const std::string first = s.substr(i, w1 - i);
  // A compound: "GB/s", "FLOPs per byte".
  for (const char* joint : {"/", " per "}) {
    const std::size_t j = w1 + std::char_traits<char>::length(joint);
    if (!at(s, w1, joint) || !letter_len(s, j)) continue;
    const std::size_t w2 = word_end(j);
    auto it = table.find(first + "/" + s.substr(j, w2 - j));
    if (it != table.end() && boundary(s, w2)) return std::make_pair(it->second, w2 - i);
  }
  auto it = table.find(first);
  if (it != table.end() && boundary(s, w1)) return std::make_pair(it->second, w1 - i);
  return std::nullopt;
}

// Something that can follow a multiplication sign as its operand: a digit, '.', '(', a sign.
bool operand_follows(const std::string& s, std::size_t i) {
  i = skip_spaces(s, i);
  if (is_digit(s, i) || (i < s.size() && s[i] == '(')) return true;
  if (i < s.size() && s[i] == '.' && is_digit(s, i + 1)) return true;
  std::size_t sl = sign_len(s, i);
  return sl > 0 && is_digit(s, i + sl);
}

// The extent of a run of digits, '.', ',' and '_' between digits (a misread number).
std::size_t misread_end(const std::string& s, std::size_t i) {
  while (i < s.size()) {
    if (is_digit(s, i)) ++i;
    else if ((s[i] == '.' || s[i] == ',' || s[i] == '_') && is_digit(s, i + 1)) ++i;
    else break;
  }
  return i;
}

}  // namespace

const char* describe(Dimension d) {
  switch (d) {
    case Dimension::time: return "a time";
    case Dimension::bytes: return "a size in bytes";
    case Dimension::bandwidth: return "a bandwidth";
    case Dimension::flops: return "a count of operations";
    case Dimension::flop_rate: return "an operation rate";
    case Dimension::intensity: return "an arithmetic intensity";
    case Dimension::ratio: return "a ratio";
  }
  return "?";
}

std::optional<Unit> find_unit(const std::string& text) {
  auto u = scan_unit(text, skip_spaces(text, 0));
  if (!u) return std::nullopt;
  return u->first;
}

namespace {

// An exponent after the mantissa at i, glued ("1.72e10") or as "x 10^N": appended to
// `clean` as "eN"; returns where the number continues (i when there is none).
std::size_t scan_exponent(const std::string& s, std::size_t i, std::string& clean) {
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    bool neg = false;
    const std::size_t sl = sign_len(s, i + 1, &neg);
    const std::size_t n = digit_run(s, i + 1 + sl);
    if (n) {
      clean += std::string("e") + (neg ? "-" : "") + s.substr(i + 1 + sl, n);
      i += 1 + sl + n;
    }
  } else {
    std::size_t j = skip_spaces(s, i);
    if (const std::size_t tl = times_len(s, j)) {
      j = skip_spaces(s, j + tl);
      if (at(s, j, "10") && !is_digit(s, j + 2)) {
        j = skip_spaces(s, j + 2);
        if (j < s.size() && s[j] == '^') {
          j = skip_spaces(s, j + 1);
          bool neg = false;
          const std::size_t sl = sign_len(s, j, &neg);
          const std::size_t n = digit_run(s, j + sl);
          if (n && !(j + sl + n < s.size() && s[j + sl + n] == '.' && is_digit(s, j + sl + n + 1))) {
            clean += std::string("e") + (neg ? "-" : "") + s.substr(j + sl, n);
            i = j + sl + n;
          }
        }
      }
    }
  }
  return i;
}

// A scale word after the number ending at i ("1.2 million"): multiplies `value`;
// returns where the number continues.
std::size_t scale_word(const std::string& s, std::size_t i, double& value) {
  const std::size_t j = skip_spaces(s, i);
  std::size_t k = j;
  while (is_alpha(s, k)) ++k;
  static const std::map<std::string, double> scales = {
      {"thousand", 1e3}, {"million", 1e6}, {"billion", 1e9}, {"trillion", 1e12}};
  std::string word = s.substr(j, k - j);
  std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (j > i && k > j && boundary(s, k)) {
    if (auto it = scales.find(word); it != scales.end()) {
      value *= it->second;
      return k;
    }
  }
  return i;
}

// Why a number typed with a ',' or '_' that does not group thousands is misread.
std::string misgrouped(const std::string& typed, const std::string& sep) {
  if (sep == "_") return "'_' only groups thousands, in threes (1_000_000)";
  const bool one_comma = std::count(typed.begin(), typed.end(), ',') == 1 && typed.find('.') == std::string::npos;
  std::string decimal = typed;
  std::replace(decimal.begin(), decimal.end(), ',', '.');
  return fmt::format("a comma only groups thousands, in threes (1,000,000); {}",
                     one_comma ? "write the decimal point as '.': " + decimal : "write the decimal point as '.'");
}

}  // namespace

std::optional<NumberToken> scan_number(const std::string& s, std::size_t pos, bool spaced_groups) {
  NumberToken tok;
  tok.begin = pos;
  std::size_t i = pos;
  bool negative = false;
  i += sign_len(s, i, &negative);
  std::string clean;  // digits, '.', 'e' and the exponent's sign, for from_chars
  auto misread = [&](const std::string& why) {
    tok.end = misread_end(s, i);
    tok.text = s.substr(pos, tok.end - pos);
    tok.error = fmt::format("'{}' is not a number: {}", tok.text, why);
    return tok;
  };

  if (i < s.size() && s[i] == '.' && is_digit(s, i + 1)) {
    clean = "0";
  } else if (!is_digit(s, i)) {
    return std::nullopt;
  } else {
    const std::size_t first = digit_run(s, i);
    clean = s.substr(i, first);
    std::size_t j = i + first;
    std::string kind;  // the separator the groups use
    for (;;) {
      const std::size_t sl = separator_len(s, j, spaced_groups);
      const std::size_t group = sl ? digit_run(s, j + sl) : 0;
      if (!group) break;
      const std::string sep = s.substr(j, sl);
      if (first <= 3 && group == 3 && (kind.empty() || kind == sep)) {
        clean += s.substr(j + sl, 3);
        j += sl + 3;
        kind = sep;
        continue;
      }
      if (sep == "," || sep == "_") return misread(misgrouped(s.substr(pos, misread_end(s, i) - pos), sep));
      break;  // a space that does not group: the number ends before it
    }
    i = j;
  }
  if (i < s.size() && s[i] == '.' && is_digit(s, i + 1)) {
    const std::size_t n = digit_run(s, i + 1);
    clean += s.substr(i, n + 1);
    i += n + 1;
  }
  if (i < s.size() && s[i] == '.' && is_digit(s, i + 1)) return misread("it has two decimal points");

  i = scan_exponent(s, i, clean);  // "1.72e10" or "1.72 x 10^10"
  tok.text = s.substr(pos, i - pos);
  double value = 0;
  auto [end, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), value);
  if (ec != std::errc() || end != clean.data() + clean.size() || !std::isfinite(value)) {
    tok.end = i;
    tok.error = fmt::format("'{}' is not a number: it is too large", tok.text);
    return tok;
  }
  tok.value = negative ? -value : value;

  i = scale_word(s, i, tok.value);  // "1.2 million"

  // The unit: glued ("2.1ms") or after spaces; an 'x' with an operand after it multiplies.
  const bool glued = i < s.size() && s[i] != ' ' && s[i] != '\t';
  const std::size_t u = skip_spaces(s, i);
  if (auto unit = scan_unit(s, u)) {
    const bool multiplies = unit->first.symbol == "x" && operand_follows(s, u + unit->second);
    if (!multiplies) {
      tok.unit = unit->first;
      tok.unit_text = s.substr(u, unit->second);
      i = u + unit->second;
    }
  } else if (glued && (letter_len(s, i) || (i < s.size() && s[i] == '_'))) {
    return std::nullopt;  // a name such as 2N, 513th or 3D
  }
  tok.end = i;
  return tok;
}

std::optional<Quantity> parse_quantity(const std::string& text, std::string* error) {
  if (error) error->clear();
  auto b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return std::nullopt;
  auto e = text.find_last_not_of(" \t\r\n");
  const std::string t = text.substr(b, e - b + 1);
  auto tok = scan_number(t, 0, true);
  if (!tok) return std::nullopt;
  if (!tok->error.empty()) {
    if (error) *error = tok->error;
    return std::nullopt;
  }
  Quantity q{tok->value, tok->unit_text, tok->unit};
  std::string rest = t.substr(tok->end);
  rest.erase(0, rest.find_first_not_of(" \t"));
  if (rest.empty()) return q;
  // Words after the number ("8 warps", "ms each"): no digits, no arithmetic.
  const bool words = (is_alpha(rest, 0) || static_cast<unsigned char>(rest[0]) >= 0x80) &&
                     rest.find_first_of("0123456789=+*^()%<>[]{}") == std::string::npos;
  if (!words) return std::nullopt;
  if (q.unit_text.empty()) q.unit_text = rest;
  return q;
}

std::vector<double> convert(double value, const Unit& from, const Unit& to) {
  std::vector<double> out;
  if (from.dimension != to.dimension) return out;
  auto add = [&](double f, double t) {
    if (f <= 0 || t <= 0) return;
    double v = value * f / t;
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  add(from.factor, to.factor);
  // KB, MB, GB, TB read as powers of 1024, on both sides, when the units differ ("256 KB"
  // for 262,144 B); never for a unit against itself (64 GB is not 68.7 GB).
  if (from.symbol != to.symbol && (from.binary_factor > 0 || to.binary_factor > 0)) {
    add(from.binary_factor > 0 ? from.binary_factor : from.factor, to.binary_factor > 0 ? to.binary_factor : to.factor);
  }
  return out;
}

}  // namespace workbook
