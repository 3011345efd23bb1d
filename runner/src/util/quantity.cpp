// The learner's number grammar (see quantity.hpp).
#include "util/quantity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "util/text.hpp"

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
    add({"min", "mins", "minute", "minutes"}, "min", Dimension::time, 60);
    add({"h", "hr", "hrs", "hour", "hours"}, "h", Dimension::time, 3600);
    add({"day", "days"}, "day", Dimension::time, 86400);
    // Bytes: kB, MB, GB, TB are powers of 1000 and KiB, MiB, GiB, TiB powers of 1024. KB
    // (capital K) is read both ways: the workbook writes it for 1024 B ("64 KB of shared
    // memory") and for 1000 B ("3,072 bytes, about 3.07 KB"). A lone "K" is no unit.
    // All-lowercase "mb", "gb", "tb" are read as bytes (typed in haste); "Mb", "Gbit", ...
    // (capital prefix, small b) are bits, an eighth of a byte.
    add({"B", "byte", "bytes", "Byte", "Bytes"}, "B", Dimension::bytes, 1);
    add({"KB", "Kbyte", "Kbytes"}, "KB", Dimension::bytes, 1e3, KiB);
    add({"kB", "kb", "kbyte", "kbytes", "kilobyte", "kilobytes"}, "kB", Dimension::bytes, 1e3);
    add({"MB", "mb", "Mbyte", "Mbytes", "megabyte", "megabytes"}, "MB", Dimension::bytes, 1e6);
    add({"GB", "gb", "Gbyte", "Gbytes", "gigabyte", "gigabytes"}, "GB", Dimension::bytes, 1e9);
    add({"TB", "tb", "terabyte", "terabytes"}, "TB", Dimension::bytes, 1e12);
    add({"KiB"}, "KiB", Dimension::bytes, KiB);
    add({"MiB"}, "MiB", Dimension::bytes, MiB);
    add({"GiB"}, "GiB", Dimension::bytes, GiB);
    add({"TiB"}, "TiB", Dimension::bytes, TiB);
    add({"bit", "bits"}, "bit", Dimension::bytes, 1.0 / 8);
    add({"kbit", "Kbit", "kbits", "Kbits", "Kb"}, "kbit", Dimension::bytes, 1e3 / 8);
    add({"Mbit", "Mbits", "Mb"}, "Mbit", Dimension::bytes, 1e6 / 8);
    add({"Gbit", "Gbits", "Gb"}, "Gbit", Dimension::bytes, 1e9 / 8);
    add({"Tbit", "Tbits", "Tb"}, "Tbit", Dimension::bytes, 1e12 / 8);
    add({"B/s", "bytes/s"}, "B/s", Dimension::bandwidth, 1);
    add({"KB/s"}, "KB/s", Dimension::bandwidth, 1e3, KiB);
    add({"kB/s"}, "kB/s", Dimension::bandwidth, 1e3);
    add({"MB/s", "mb/s"}, "MB/s", Dimension::bandwidth, 1e6);
    add({"GB/s", "gb/s", "GBps"}, "GB/s", Dimension::bandwidth, 1e9);
    add({"TB/s", "tb/s", "TBps"}, "TB/s", Dimension::bandwidth, 1e12);
    add({"MiB/s"}, "MiB/s", Dimension::bandwidth, MiB);
    add({"GiB/s"}, "GiB/s", Dimension::bandwidth, GiB);
    add({"TiB/s"}, "TiB/s", Dimension::bandwidth, TiB);
    add({"bit/s", "bits/s", "bps"}, "bit/s", Dimension::bandwidth, 1.0 / 8);
    add({"Mbit/s", "Mbits/s", "Mb/s", "Mbps"}, "Mbit/s", Dimension::bandwidth, 1e6 / 8);
    add({"Gbit/s", "Gbits/s", "Gb/s", "Gbps"}, "Gbit/s", Dimension::bandwidth, 1e9 / 8);
    add({"Tbit/s", "Tbits/s", "Tb/s", "Tbps"}, "Tbit/s", Dimension::bandwidth, 1e12 / 8);
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

// A superscript exponent at i ("¹⁰", "⁻³"), appended to `clean` as "eN"; its length in
// bytes (0: none).
std::size_t superscript_exponent(const std::string& s, std::size_t i, std::string& clean) {
  // U+2070 ⁰, U+00B9 ¹, U+00B2 ², U+00B3 ³, U+2074..U+2079 ⁴..⁹; U+207B ⁻, U+207A ⁺.
  static const char* digits[] = {"\xE2\x81\xB0", "\xC2\xB9",     "\xC2\xB2",     "\xC2\xB3",     "\xE2\x81\xB4",
                                 "\xE2\x81\xB5", "\xE2\x81\xB6", "\xE2\x81\xB7", "\xE2\x81\xB8", "\xE2\x81\xB9"};
  std::size_t j = i;
  std::string exp = "e";
  if (at(s, j, "\xE2\x81\xBB")) {
    exp += '-';
    j += 3;
  } else if (at(s, j, "\xE2\x81\xBA")) {
    j += 3;
  }
  bool any = false;
  for (bool more = true; more;) {
    more = false;
    for (int d = 0; d < 10; ++d) {
      if (at(s, j, digits[d])) {
        exp += static_cast<char>('0' + d);
        j += std::char_traits<char>::length(digits[d]);
        any = more = true;
        break;
      }
    }
  }
  if (!any) return 0;
  clean += exp;
  return j - i;
}

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
        j += 2;
        if (const std::size_t n = superscript_exponent(s, j, clean)) {
          i = j + n;
          return i;
        }
        j = skip_spaces(s, j);
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
  const std::string word = lower(s.substr(j, k - j));
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

namespace workbook {

namespace {

// A noun without its plural s, lowercase: "Threads" and "thread" are one noun.
std::string singular(const std::string& word) {
  std::string w = lower(word);
  if (w.size() > 1 && w.back() == 's') w.pop_back();
  return w;
}

std::string first_word(const std::string& words) {
  const std::size_t b = words.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const std::size_t e = words.find_first_of(" \t,;.", b);
  return words.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

// Words that follow a bare number in a sentence without being its unit.
bool filler(const std::string& word) {
  static const char* words[] = {"a",    "about", "all",   "an",   "and",  "approx", "are",     "as",  "at",    "because",
                                "but",  "each",  "for",   "from", "here", "if",     "in",      "is",  "it",    "just",
                                "of",   "on",    "only",  "or",   "overall", "roughly", "since", "so", "than", "that",
                                "the",  "then",  "to",    "total", "was",  "when",   "which",   "with"};
  const std::string w = lower(word);
  return std::any_of(std::begin(words), std::end(words), [&](const char* f) { return w == f; });
}

const char* examples_of(Dimension d) {
  switch (d) {
    case Dimension::time: return "ns, us, ms, s, min, h";
    case Dimension::bytes: return "B, kB, KiB, MB, MiB, GB, GiB, Gbit";
    case Dimension::bandwidth: return "MB/s, GB/s, TB/s, Gbit/s";
    case Dimension::flops: return "FLOP, GFLOP, TFLOP";
    case Dimension::flop_rate: return "GFLOP/s, TFLOP/s";
    case Dimension::intensity: return "FLOP/byte";
    case Dimension::ratio: return "x, %";
  }
  return "";
}

// A bare number for a known unit: in that unit; for bytes and FLOPs also in the base unit.
InUnit bare_in(const Quantity& q, const std::string& text, const Unit& want) {
  InUnit out;
  out.readings.push_back({q.value, ""});
  if (want.symbol == "%") {
    out.readings.push_back({q.value * 100, fmt::format("{} read as {} %", text, format_number(q.value * 100))});
  } else if ((want.dimension == Dimension::bytes && want.symbol != "B") ||
             (want.dimension == Dimension::flops && want.symbol != "FLOP")) {
    const bool bytes = want.dimension == Dimension::bytes;
    for (double v : convert(q.value, *find_unit(bytes ? "B" : "FLOP"), want)) {
      out.readings.push_back(
          {v, fmt::format("{} read as {}: {} {}", text, bytes ? "bytes" : "FLOPs", format_number(v), want.symbol)});
    }
  }
  return out;
}

}  // namespace

InUnit read_in_unit(const Quantity& q, const std::string& text, const std::string& want, const std::string& name) {
  InUnit out;
  const std::optional<Unit> unit = want.empty() ? std::nullopt : find_unit(want);
  std::string word = q.unit ? std::string() : first_word(q.unit_text);
  if (filler(word)) word.clear();  // "40 in all" is a bare 40
  if (want.empty()) {  // nothing declared: as typed
    out.readings.push_back({q.value, ""});
    if (q.unit && q.unit->symbol == "%") out.readings.push_back({q.value / 100, ""});
    return out;
  }
  if (!unit) {  // a count of something ("threads", "count")
    const bool noun_ok = word.empty() || singular(want) == "count" || singular(word) == singular(want);
    if (q.unit && q.unit->dimension == Dimension::ratio) {
      out.readings.push_back({q.value, ""});  // "read 1024 times"
    } else if (q.unit) {
      out.error = fmt::format("{} is {}, but {} is a count ({}): give the number alone", text, describe(q.unit->dimension),
                              name, want);
    } else if (!noun_ok) {
      out.error = fmt::format("{} is a count of {}, not of '{}': give the number alone or in {}", name, want, word, want);
    } else {
      out.readings.push_back({q.value, ""});
    }
    return out;
  }
  if (!q.unit && !word.empty()) {
    out.error = fmt::format("'{}' is not a unit the runner knows for {}: give {} in {} (or in {})", word,
                            describe(unit->dimension), name, want, examples_of(unit->dimension));
    return out;
  }
  if (!q.unit) return bare_in(q, text, *unit);
  const std::vector<double> values = convert(q.value, *q.unit, *unit);
  if (values.empty()) {
    out.error = fmt::format("{} is {}, but {} is {} ({})", q.unit_text, describe(q.unit->dimension), name,
                            describe(unit->dimension), want);
    return out;
  }
  for (double v : values) {
    std::string note;
    if (q.unit->symbol != unit->symbol) {
      note = fmt::format("{} is {} {}", text, format_number(v), want);
      if (values.size() > 1) note += v == values.front() ? " (KB as 1000 B)" : " (KB as 1024 B)";
    }
    out.readings.push_back({v, note});
  }
  return out;
}

}  // namespace workbook
