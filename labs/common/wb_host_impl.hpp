// wb_host_impl.hpp: the definitions behind wb_host.hpp's declarations.
//
// Not included by labs: wb_host.hpp includes it at its end (header-only, every function
// `inline`), unless the lab is compiled with WB_HARNESS_LINKED, when wb_harness.cpp (or
// wb_harness.cu) has compiled it once into an object the runner links (WB_API empty).
#pragma once

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include <sys/ioctl.h>
#include <unistd.h>

#include "wb_host.hpp"

namespace wb {

namespace detail {

// The seed used when none is passed, so runs by hand repeat exactly.
constexpr std::uint64_t kDefaultSeed = 12345;

struct Arg {
  std::string name;
  std::string value;
  bool used = false;
};

struct State {
  bool started = false;
  bool finished = false;
  std::string lab;
  std::uint64_t seed = kDefaultSeed;
  bool quick = false;
  std::vector<Arg> args;               // NAME=VALUE pairs other than seed/quick
  std::vector<std::string> known;      // parameter names the lab has read, in order
  std::vector<std::string> known_values;  // ...and the value each resolved to, as JSON
  std::unordered_set<std::string> reported;  // metric and check names used so far (a set: a
                                             // lab may report 100,000 records)
  std::FILE* results = nullptr;        // null: readable lines only
  int checks = 0;
  int failed = 0;
};

WB_API State& state() {
  static State s;
  return s;
}

// ---- small text helpers ----------------------------------------------------------

WB_API bool is_identifier(const std::string& s) {  // [A-Za-z_][A-Za-z0-9_]*
  if (s.empty()) return false;
  if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

WB_API bool is_result_name(const std::string& s) {  // [a-z0-9_]+
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is not valid
// (truncated, overlong, a UTF-16 surrogate, or beyond U+10FFFF).
WB_API std::size_t utf8_sequence(const std::string& s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (std::size_t k = 1; k < len; ++k) {
    const unsigned char cont = static_cast<unsigned char>(s[i + k]);
    if ((cont & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cont & 0x3Fu);
  }
  const std::uint32_t smallest[5] = {0, 0, 0x80, 0x800, 0x10000};  // shortest form per length
  if (cp < smallest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

// Appends s as a JSON string literal. Control characters are escaped; bytes that are
// not valid UTF-8 become '?' so that every line stays parseable.
WB_API void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      case '\b': out += "\\b"; ++i; continue;
      case '\f': out += "\\f"; ++i; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
      continue;
    }
    const std::size_t len = utf8_sequence(s, i);
    if (len == 0) {
      out += '?';
      ++i;
    } else {
      out.append(s, i, len);
      i += len;
    }
  }
  out += '"';
}

// The shortest of %.15g/%.16g/%.17g that reads back as the same double. JSON has no
// NaN or infinity: those become null.
WB_API std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// A number for the readable lines (6 significant digits; "nan"/"inf" as they are).
WB_API std::string human(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

WB_API std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list again;
  va_copy(again, args);
  const int len = std::vsnprintf(nullptr, 0, fmt, args);
  va_end(args);
  std::string out(len > 0 ? static_cast<std::size_t>(len) : 0, '\0');
  if (len > 0) std::vsnprintf(&out[0], out.size() + 1, fmt, again);
  va_end(again);
  return out;
}

// One results record, built field by field: {"type":"...","key":value,...}
class Record {
 public:
  explicit Record(const char* type) {
    text_ = "{\"type\":";
    append_json_string(text_, type);
  }
  Record& str(const char* key, const std::string& v) {
    append_key(key);
    append_json_string(text_, v);
    return *this;
  }
  Record& num(const char* key, double v) {
    append_key(key);
    text_ += json_number(v);
    return *this;
  }
  Record& integer(const char* key, long long v) {
    append_key(key);
    text_ += std::to_string(v);
    return *this;
  }
  Record& uinteger(const char* key, unsigned long long v) {
    append_key(key);
    text_ += std::to_string(v);
    return *this;
  }
  Record& raw(const char* key, const std::string& json_text) {  // an already-formatted JSON value
    append_key(key);
    text_ += json_text;
    return *this;
  }
  Record& boolean(const char* key, bool v) {
    append_key(key);
    text_ += v ? "true" : "false";
    return *this;
  }
  std::string line() const { return text_ + "}\n"; }

 private:
  void append_key(const char* key) {
    text_ += ',';
    append_json_string(text_, key);
    text_ += ':';
  }
  std::string text_;
};

// The terminal's width when stdout is one, else the width the runner passes in WB_COLUMNS
// when it shows these lines on its terminal; 0 for a log or a pipe, where each record
// stays on one line for grep.
WB_API std::size_t terminal_columns() {
  winsize w{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0) return w.ws_col;
  const char* passed = std::getenv("WB_COLUMNS");
  return passed ? std::strtoul(passed, nullptr, 10) : 0;
}

// `line` folded at spaces into lines of at most `width` bytes, each after the first
// indented under the text that follows the record's tag ("[check]  "); a word longer than
// a line stays whole. Under 40 columns (or 0) the line is left as it is.
WB_API std::string fold_line(const std::string& line, std::size_t width) {
  const std::string pad(9, ' ');
  if (width < 40 || line.size() <= width) return line;
  std::string out, rest = line;
  for (bool first = true; !rest.empty(); first = false) {
    const std::size_t room = first ? width : width - pad.size();
    if (!first) out += "\n" + pad;
    if (rest.size() <= room) return out + rest;
    std::size_t cut = rest.rfind(' ', room);
    if (cut == std::string::npos || cut == 0) cut = rest.find(' ', room);
    if (cut == std::string::npos) return out + rest;
    out += rest.substr(0, cut);
    const std::size_t next = rest.find_first_not_of(' ', cut);
    rest = next == std::string::npos ? std::string() : rest.substr(next);
  }
  return out;
}

// Writes one record: the readable line to stdout always (folded to a terminal's width),
// the JSON line to the results file when there is one. Both are flushed at once.
WB_API void emit(const Record& record, const std::string& readable) {
  std::string shown = readable;  // one record on the terminal: control characters -> ' '
  for (char& c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  shown = fold_line(shown, terminal_columns());
  std::fputs(shown.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
  State& s = state();
  if (s.results) {
    const std::string line = record.line();
    std::fwrite(line.data(), 1, line.size(), s.results);
    std::fflush(s.results);
  }
}

// Bad command line: say why on stderr and exit 2 (no `end` record is written).
[[noreturn]] WB_API void usage_exit(const std::string& message) {
  std::fflush(stdout);
  const State& s = state();
  std::fprintf(stderr, "%s: %s\n", s.lab.empty() ? "lab" : s.lab.c_str(), message.c_str());
  std::fprintf(stderr, "usage: ./lab [NAME=VALUE ...]   (reserved: seed=<uint64>, quick=0|1)\n");
  std::exit(2);
}

WB_API bool parse_int(const std::string& text, long long& out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  const char* p = text.c_str();
  const char* digits = (*p == '+' || *p == '-') ? p + 1 : p;
  const int base = (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) ? 16 : 10;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(p, &end, base);
  if (errno != 0 || end == p || *end != '\0') return false;
  out = v;
  return true;
}

WB_API bool parse_uint(const std::string& text, std::uint64_t& out) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  const int base = (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) ? 16 : 10;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, base);
  if (errno != 0 || *end != '\0') return false;
  out = static_cast<std::uint64_t>(v);
  return true;
}

WB_API bool parse_real(const std::string& text, double& out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end == text.c_str() || *end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

}  // namespace detail

// ---- errors ------------------------------------------------------------------------

WB_API void error(const std::string& where, const std::string& message) {
  std::fflush(stdout);
  std::fprintf(stderr, "error at %s: %s\n", where.c_str(), message.c_str());
  std::fflush(stderr);
  detail::State& s = detail::state();
  if (s.results) {
    detail::Record r("error");
    r.str("where", where).str("message", message);
    const std::string line = r.line();
    std::fwrite(line.data(), 1, line.size(), s.results);
    std::fflush(s.results);
  }
}

[[noreturn]] WB_API void fatal(const std::string& where, const std::string& message) {
  error(where, message);
  std::exit(4);
}

[[noreturn]] WB_API void bad_argument(const std::string& message) { detail::usage_exit(message); }

namespace detail {
WB_API void require_running(const char* api) {
  const State& s = state();
  if (!s.started) fatal("harness", std::string(api) + " called before wb::init");
  if (s.finished) fatal("harness", std::string(api) + " called after wb::finish");
}

// Metric and check names must match [a-z0-9_]+ and be used once per run.
WB_API void claim_result_name(const char* api, const std::string& name) {
  require_running(api);
  if (!is_result_name(name))
    fatal("harness", std::string(api) + ": name '" + name + "' must match [a-z0-9_]+");
  State& s = state();
  if (!s.reported.insert(name).second)
    fatal("harness", std::string(api) + ": name '" + name + "' was already reported in this run");
}
}  // namespace detail

// ---- start ---------------------------------------------------------------------------

WB_API void init(int argc, char** argv, const char* lab) {
  detail::State& s = detail::state();
  if (s.started) fatal("harness", "wb::init called twice");
  s.lab = lab ? lab : "";
  bool seen_seed = false, seen_quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::size_t eq = arg.find('=');
    if (eq == std::string::npos)
      detail::usage_exit("argument '" + arg + "' is not NAME=VALUE (for example N=4096)");
    const std::string name = arg.substr(0, eq), value = arg.substr(eq + 1);
    if (!detail::is_identifier(name))
      detail::usage_exit("argument '" + arg + "': NAME must match [A-Za-z_][A-Za-z0-9_]*");
    if (name == "seed") {
      if (seen_seed) detail::usage_exit("seed is given twice");
      if (!detail::parse_uint(value, s.seed))
        detail::usage_exit("seed='" + value + "' is not an unsigned 64-bit integer");
      seen_seed = true;
    } else if (name == "quick") {
      if (seen_quick) detail::usage_exit("quick is given twice");
      if (value != "0" && value != "1") detail::usage_exit("quick='" + value + "' must be 0 or 1");
      s.quick = value == "1";
      seen_quick = true;
    } else {
      for (const detail::Arg& a : s.args)
        if (a.name == name) detail::usage_exit(name + " is given twice");
      s.args.push_back({name, value, false});
    }
  }

  const char* path = std::getenv("WORKBOOK_RESULTS");
  if (path && *path) {
    s.results = std::fopen(path, "a");
    if (!s.results)
      fatal("harness", std::string("cannot open WORKBOOK_RESULTS file '") + path + "': " + std::strerror(errno));
  }
  s.started = true;

  std::string readable = "[start]  " + s.lab + "  seed=" + std::to_string(s.seed) +
                         " quick=" + (s.quick ? "1" : "0");
  if (s.results) readable += std::string("  (results: ") + path + ")";
  detail::Record r("start");
  r.str("lab", s.lab).uinteger("seed", s.seed).boolean("quick", s.quick);
  detail::emit(r, readable);
}

WB_API std::uint64_t seed() { return detail::state().seed; }
WB_API bool quick() { return detail::state().quick; }

// ---- parameters ----------------------------------------------------------------------

namespace detail {
// Marks name as a parameter of the lab; returns its override or null. Reserved or
// ill-formed names are a harness error (a bug in the lab, not in the arguments).
WB_API Arg* lookup_param(const char* api, const char* name) {
  require_running(api);
  const std::string n = name ? name : "";
  if (!is_identifier(n)) fatal("harness", std::string(api) + ": '" + n + "' is not a valid parameter name");
  if (n == "seed" || n == "quick")
    fatal("harness", std::string(api) + ": '" + n + "' is reserved; use wb::seed() / wb::quick()");
  for (Arg& a : state().args)
    if (a.name == n) {
      a.used = true;
      return &a;
    }
  return nullptr;
}

// Records the value a parameter resolved to, the first time it is read. A later read
// must resolve to the same value (the `param` record has to be the value the lab
// used); different defaults in two places are a harness error.
WB_API void note_param(const char* name, const std::string& json_value, const std::string& shown) {
  State& s = state();
  for (std::size_t i = 0; i < s.known.size(); ++i) {
    if (s.known[i] != name) continue;
    if (s.known_values[i] != json_value)
      fatal("harness", std::string("parameter ") + name + " read twice with different values (" + s.known_values[i] +
                           ", then " + json_value + ")");
    return;
  }
  s.known.push_back(name);
  s.known_values.push_back(json_value);
  Record r("param");
  r.str("name", name).raw("value", json_value);
  emit(r, std::string("[param]  ") + name + " = " + shown);
}
}  // namespace detail

WB_API long long param(const char* name, long long full, long long quick_value) {
  const detail::Arg* a = detail::lookup_param("wb::param", name);
  long long v = detail::state().quick ? quick_value : full;
  if (a && !detail::parse_int(a->value, v))
    detail::usage_exit(std::string(name) + "='" + a->value + "' is not an integer");
  detail::note_param(name, std::to_string(v), std::to_string(v));
  return v;
}

WB_API long long param(const char* name, long long value) { return param(name, value, value); }

WB_API double param_f(const char* name, double full, double quick_value) {
  const detail::Arg* a = detail::lookup_param("wb::param_f", name);
  double v = detail::state().quick ? quick_value : full;
  if (a && !detail::parse_real(a->value, v))
    detail::usage_exit(std::string(name) + "='" + a->value + "' is not a finite number");
  if (!std::isfinite(v)) fatal("harness", std::string("wb::param_f: default of ") + name + " is not finite");
  detail::note_param(name, detail::json_number(v), detail::human(v));
  return v;
}

WB_API double param_f(const char* name, double value) { return param_f(name, value, value); }

WB_API void params_done() {
  const detail::State& s = detail::state();
  std::string unknown;
  for (const detail::Arg& a : s.args)
    if (!a.used) unknown += (unknown.empty() ? "" : ", ") + a.name;
  if (unknown.empty()) return;
  std::string known;
  for (const std::string& k : s.known) known += (known.empty() ? "" : ", ") + k;
  detail::usage_exit("unknown parameter(s): " + unknown + "; this lab reads: " +
                     (known.empty() ? "no parameters" : known) + " (plus seed, quick)");
}

// ---- seeded random numbers -------------------------------------------------------------

WB_API void fill_uniform(float* x, std::size_t n, float lo, float hi, std::uint64_t stream) {
  Rng rng(stream);
  const double width = static_cast<double>(hi) - static_cast<double>(lo);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(lo + width * rng.uniform());
}

WB_API void fill_uniform(double* x, std::size_t n, double lo, double hi, std::uint64_t stream) {
  Rng rng(stream);
  for (std::size_t i = 0; i < n; ++i) x[i] = lo + (hi - lo) * rng.uniform();
}

// ---- statistics ------------------------------------------------------------------------

WB_API Stats stats_of(std::vector<double> samples) {
  Stats st;
  st.samples = static_cast<int>(samples.size());
  if (samples.empty()) {
    st.median = st.min = st.max = st.spread = std::nan("");
    return st;
  }
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  st.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  st.min = samples.front();
  st.max = samples.back();
  st.spread = st.median > 0 ? (st.max - st.min) / st.median : 0.0;
  return st;
}

// ---- results ---------------------------------------------------------------------------

WB_API void metric(const char* name, double value, const char* unit) {
  detail::claim_result_name("wb::metric", name);
  detail::Record r("metric");
  r.str("name", name).num("value", value).str("unit", unit);
  detail::emit(r, std::string("[metric] ") + name + " = " + detail::human(value) + " " + unit);
}

WB_API void metric(const char* name, const Stats& st, const char* unit) {
  detail::claim_result_name("wb::metric", name);
  detail::Record r("metric");
  r.str("name", name).num("value", st.median).str("unit", unit).integer("samples", st.samples);
  r.num("min", st.min).num("max", st.max).num("spread", st.spread);
  if (!st.clock.empty()) r.str("clock", st.clock);
  const std::string extra = detail::format("  (median of %d; min %s, max %s, spread %.1f%%%s%s)", st.samples,
                                           detail::human(st.min).c_str(), detail::human(st.max).c_str(),
                                           100.0 * st.spread, st.clock.empty() ? "" : "; clock: ",
                                           st.clock.c_str());
  detail::emit(r, std::string("[metric] ") + name + " = " + detail::human(st.median) + " " + unit + extra);
}

namespace detail {
WB_API bool record_check(const char* name, bool pass, bool has_values, double value, double limit,
                         const std::string& text) {
  claim_result_name("wb::check", name);
  State& s = state();
  ++s.checks;
  if (!pass) ++s.failed;
  Record r("check");
  r.str("name", name).boolean("pass", pass);
  if (has_values) r.num("value", value).num("limit", limit);
  if (!text.empty()) r.str("detail", text);
  std::string readable = std::string("[check]  ") + (pass ? "PASS " : "FAIL ") + name;
  if (has_values) readable += ": " + human(value) + " (limit " + human(limit) + ")";
  if (!text.empty()) readable += (has_values ? "  " : ": ") + text;
  emit(r, readable);
  return pass;
}
}  // namespace detail

WB_API bool check(const char* name, bool pass, double value, double limit, const std::string& detail_text) {
  return detail::record_check(name, pass, true, value, limit, detail_text);
}

WB_API bool check(const char* name, bool pass, const std::string& detail_text) {
  return detail::record_check(name, pass, false, 0.0, 0.0, detail_text);
}

WB_API const char* under_profiler() {
  const char* tool = std::getenv("WB_PROFILER");
  return tool && *tool ? tool : nullptr;
}

WB_API void skip_check(const char* name, const std::string& why) {
  detail::claim_result_name("wb::check", name);
  detail::Record r("check");
  r.str("name", name).boolean("pass", true).boolean("skipped", true).str("detail", why);
  detail::emit(r, std::string("[check]  SKIP ") + name + ": " + why);
}

// ---- comparison against a reference ------------------------------------------------------

namespace detail {
template <class G, class R>
bool compare_impl(const char* name, const G* got, const R* ref, std::size_t n, double rtol, double atol,
                  std::size_t cols) {
  // Element i matches when |got - ref| <= atol + rtol * |ref|; a NaN or infinite value
  // on either side never matches (a poisoned, unwritten output is NaN).
  //
  // The reported value is a relative error measured against |ref| + atol / rtol, i.e.
  // max |got - ref| / (|ref| + atol/rtol): exactly <= rtol when every element matches,
  // so value and limit (= rtol) agree with pass. With rtol == 0 the value is the max
  // absolute error and the limit is atol.
  const double rel_floor = rtol > 0 ? atol / rtol : 0.0;
  std::size_t mismatches = 0, nonfinite = 0, worst = 0;
  double max_abs = 0.0, max_rel = 0.0, diff_sq = 0.0, ref_sq = 0.0;
  constexpr int kShow = 5;
  int shown = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = static_cast<double>(got[i]), r = static_cast<double>(ref[i]);
    const double d = std::fabs(g - r);
    const bool finite = std::isfinite(g) && std::isfinite(r);
    const bool ok = finite && d <= atol + rtol * std::fabs(r);
    if (finite) {
      if (d > max_abs) {
        max_abs = d;
        worst = i;
      }
      if (rtol > 0) max_rel = std::max(max_rel, d / (std::fabs(r) + rel_floor));
      diff_sq += d * d;
      ref_sq += r * r;
    } else {
      ++nonfinite;
    }
    if (ok) continue;
    ++mismatches;
    if (shown < kShow) {
      ++shown;
      const std::string where = cols > 0 ? format("%zu (row %zu, col %zu)", i, i / cols, i % cols) : format("%zu", i);
      std::printf("  %s: mismatch at %s: got %.9g, ref %.9g, |diff| %.3g\n", name, where.c_str(), g, r, d);
    }
  }
  if (mismatches > static_cast<std::size_t>(shown))
    std::printf("  %s: ... and %zu more mismatches\n", name, mismatches - static_cast<std::size_t>(shown));
  std::fflush(stdout);

  const bool pass = mismatches == 0;
  double value = rtol > 0 ? max_rel : max_abs;
  const double limit = rtol > 0 ? rtol : atol;
  if (nonfinite > 0) value = std::nan("");

  std::string text = format("%zu of %zu elements outside |got-ref| <= %.3g + %.3g*|ref|", mismatches, n, atol, rtol);
  if (nonfinite > 0) text += format("; %zu NaN/inf (unwritten output is NaN)", nonfinite);
  if (n > nonfinite) {
    if (cols > 0)
      text += format("; max abs err %.3g at (%zu, %zu)", max_abs, worst / cols, worst % cols);
    else
      text += format("; max abs err %.3g at %zu", max_abs, worst);
    if (ref_sq > 0) text += format("; rel L2 err %.3g", std::sqrt(diff_sq / ref_sq));
  }
  return record_check(name, pass, true, value, limit, text);
}
}  // namespace detail

WB_API bool compare(const char* name, const float* got, const double* ref, std::size_t n, double rtol, double atol,
                    std::size_t cols) {
  return detail::compare_impl(name, got, ref, n, rtol, atol, cols);
}
WB_API bool compare(const char* name, const float* got, const float* ref, std::size_t n, double rtol, double atol,
                    std::size_t cols) {
  return detail::compare_impl(name, got, ref, n, rtol, atol, cols);
}
WB_API bool compare(const char* name, const double* got, const double* ref, std::size_t n, double rtol, double atol,
                    std::size_t cols) {
  return detail::compare_impl(name, got, ref, n, rtol, atol, cols);
}

// ---- end ---------------------------------------------------------------------------------

WB_API int finish() {
  detail::require_running("wb::finish");
  params_done();
  detail::State& s = detail::state();
  s.finished = true;
  const bool pass = s.failed == 0;
  std::string readable = std::string("[end]    ") + (pass ? "PASS" : "FAIL") + ": " +
                         std::to_string(s.checks - s.failed) + " of " + std::to_string(s.checks) + " checks passed";
  if (s.checks == 0) readable += " (this lab ran no checks)";
  detail::Record r("end");
  r.boolean("pass", pass);
  detail::emit(r, readable);
  if (s.results) {
    std::fclose(s.results);
    s.results = nullptr;
  }
  return pass ? 0 : 1;
}

}  // namespace wb
