// Numeric answer checking and variants (see answer_check.hpp).
#include "learn/answer_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <random>
#include <regex>

#include "util/error.hpp"
#include "util/quantity.hpp"
#include "util/text.hpp"

namespace workbook::learn {

namespace {

// "name = " or "name: " in an answer: where the name starts, the name, and where its
// value starts. Scanned by hand: a learner's line may be very long.
struct Assignment {
  std::size_t begin = 0, value = 0;
  std::string name;
};

std::vector<Assignment> find_assignments(const std::string& s) {
  auto word_char = [&](std::size_t i) {
    const char c = s[i];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  std::vector<Assignment> out;
  for (std::size_t i = 0; i < s.size();) {
    const bool letter = (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z');
    if (!letter || (i > 0 && word_char(i - 1))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < s.size() && word_char(j)) ++j;
    std::size_t k = j;
    while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
    if (k < s.size() && (s[k] == '=' || s[k] == ':')) {
      std::size_t v = k + 1;
      while (v < s.size() && (s[v] == ' ' || s[v] == '\t')) ++v;
      out.push_back({i, v, s.substr(i, j - i)});
    }
    i = j;
  }
  return out;
}

double tolerance_of(const NumericAnswer& n) {
  if (n.abs_tol) return *n.abs_tol;
  double t = n.rel_tol * std::fabs(n.value);
  return t > 0 ? t : 1e-12;
}

bool within(const NumericAnswer& n, double given) {
  return std::fabs(given - n.value) <= tolerance_of(n) * (1 + 1e-12);
}

// --- reading an answer: tokens ----------------------------------------------------------

enum class Tok { number, op, lparen, rparen, eq, func, comma, word, other };

struct Token {
  Tok kind = Tok::other;
  std::size_t begin = 0, end = 0;
  char op = 0;        // Tok::op: + - * / ^
  std::string text;   // Tok::func, Tok::word
  NumberToken num;    // Tok::number
};

bool space_at(const std::string& s, std::size_t i) {
  return i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r');
}
bool digit_at(const std::string& s, std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }
bool alpha_at(const std::string& s, std::size_t i) {
  return i < s.size() && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'));
}
bool starts(const std::string& s, std::size_t i, const char* what) {
  return s.compare(i, std::char_traits<char>::length(what), what) == 0;
}
std::size_t utf8_len(unsigned char c) { return c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1; }

bool is_function(const std::string& w) {
  static const char* names[] = {"max", "min", "ceil", "floor", "round", "sqrt", "log2", "log10", "ln", "exp", "abs"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return w == n; });
}

// "four" is 4: the small numbers written as words, zero to twenty.
std::optional<double> number_word(const std::string& word) {
  static const char* words[] = {"zero",    "one",     "two",       "three",    "four",    "five",    "six",
                                "seven",   "eight",   "nine",      "ten",      "eleven",  "twelve",  "thirteen",
                                "fourteen", "fifteen", "sixteen",  "seventeen", "eighteen", "nineteen", "twenty"};
  const std::string w = lower(word);
  for (std::size_t k = 0; k < std::size(words); ++k) {
    if (w == words[k]) return static_cast<double>(k);
  }
  return std::nullopt;
}

// The operator, parenthesis, '=', ',' or other character at i (ASCII or UTF-8: − × · ⋅
// ÷ ≈), into t's kind, op and end.
void symbol_token(const std::string& s, std::size_t i, Token& t) {
  std::size_t len = 1;
  switch (s[i]) {
    case '+': case '-': case '*': case '/': case '^':
      t.kind = Tok::op;
      t.op = s[i];
      break;
    case '(': t.kind = Tok::lparen; break;
    case ')': t.kind = Tok::rparen; break;
    case '=': t.kind = Tok::eq; break;
    case ',': t.kind = Tok::comma; break;
    default:
      if (starts(s, i, "\xE2\x88\x92")) {  // U+2212 as an operator
        t.kind = Tok::op;
        t.op = '-';
        len = 3;
      } else if (starts(s, i, "\xC3\x97") || starts(s, i, "\xC2\xB7")) {  // × ·
        t.kind = Tok::op;
        t.op = '*';
        len = 2;
      } else if (starts(s, i, "\xE2\x8B\x85")) {  // ⋅
        t.kind = Tok::op;
        t.op = '*';
        len = 3;
      } else if (starts(s, i, "\xC3\xB7")) {  // ÷
        t.kind = Tok::op;
        t.op = '/';
        len = 2;
      } else if (starts(s, i, "\xE2\x89\x88")) {  // ≈
        t.kind = Tok::eq;
        len = 3;
      } else {
        len = utf8_len(static_cast<unsigned char>(s[i]));
      }
  }
  t.end = std::min(s.size(), i + len);
}

// True when an operand (a number or a parenthesis) starts at j, after spaces.
bool next_starts_operand(const std::string& s, std::size_t j) {
  while (space_at(s, j)) ++j;
  if (digit_at(s, j) || (j < s.size() && s[j] == '(')) return true;
  return j < s.size() && s[j] == '.' && digit_at(s, j + 1);
}

// The word at i (a letter or '_' starts it): a small number written out ("two"), an x
// that multiplies between operands, a function before '(', or a plain word; into t.
void word_token(const std::string& s, std::size_t i, const std::vector<Token>& out, Token& t) {
  std::size_t j = i;
  while (j < s.size() && (alpha_at(s, j) || digit_at(s, j) || s[j] == '_')) ++j;
  t.end = j;
  t.text = s.substr(i, j - i);
  std::size_t k = j;
  while (space_at(s, k)) ++k;
  const bool operand = !out.empty() && ((out.back().kind == Tok::number && out.back().num.error.empty()) ||
                                        out.back().kind == Tok::rparen);
  if (auto n = number_word(t.text)) {
    t.kind = Tok::number;
    t.num.begin = i;
    t.num.end = j;
    t.num.value = *n;
    t.num.text = t.text;
  } else if ((t.text == "x" || t.text == "X") && operand && next_starts_operand(s, j)) {
    t.kind = Tok::op;
    t.op = '*';
  } else if (is_function(t.text) && k < s.size() && s[k] == '(') {
    t.kind = Tok::func;
  } else {
    t.kind = Tok::word;
  }
}

// Splits an answer into numbers (with their units; small numbers written as words too),
// operators, parentheses, '=' and the rest. A sign belongs to a number where no operand
// precedes it ("= -3", "from −2"), a dash between two numbers with no space is a range
// ("3-6x"), and an x between two operands multiplies ("2 x 2048").
std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  std::size_t i = 0;
  auto operand_before = [&]() {
    return !out.empty() && ((out.back().kind == Tok::number && out.back().num.error.empty()) ||
                            out.back().kind == Tok::rparen || out.back().kind == Tok::word);
  };

  while (i < s.size()) {
    if (space_at(s, i)) {
      ++i;
      continue;
    }
    const bool space_before = i > 0 && space_at(s, i - 1);
    Token t;
    t.begin = i;
    // A number, possibly signed.
    std::size_t sign = (s[i] == '+' || s[i] == '-') ? 1 : starts(s, i, "\xE2\x88\x92") ? 3 : 0;
    const bool digit_next = digit_at(s, i + sign) || (s.compare(i + sign, 1, ".") == 0 && digit_at(s, i + sign + 1));
    const bool sign_ok = sign > 0 && digit_next && (!operand_before() || (space_before && !space_at(s, i + sign)));
    const bool prev_glued = i > 0 && (alpha_at(s, i - 1) || digit_at(s, i - 1) || s[i - 1] == '_' || s[i - 1] == '.');
    if ((sign == 0 && digit_next && !prev_glued) || sign_ok) {
      if (auto num = scan_number(s, i)) {
        t.kind = Tok::number;
        t.num = *num;
        t.end = num->end;
        out.push_back(t);
        i = t.end;
        continue;
      }
      if (sign == 0 && digit_at(s, i)) {  // a name that starts with digits: 2N, 513th (never empty:
                                          // ".5e1r" would give a zero-length name and loop forever)
        std::size_t j = i;
        while (j < s.size() && (alpha_at(s, j) || digit_at(s, j) || s[j] == '_')) ++j;
        t.kind = Tok::word;
        t.end = j;
        t.text = s.substr(i, j - i);
        out.push_back(t);
        i = j;
        continue;
      }
    }
    // A range dash: "3-6", "960–1023" (no spaces, a number on each side), or a hyphen
    // joining a number to a word: "1.4-fold", "4-byte".
    const std::size_t dash = s[i] == '-' ? 1 : starts(s, i, "\xE2\x80\x93") ? 3 : 0;
    if (dash && !space_before && !out.empty() && out.back().kind == Tok::number && out.back().end == i &&
        (digit_at(s, i + dash) || alpha_at(s, i + dash))) {
      t.kind = Tok::other;
      t.end = i + dash;
      out.push_back(t);
      i = t.end;
      continue;
    }
    if (alpha_at(s, i) || s[i] == '_') {
      word_token(s, i, out, t);
      out.push_back(t);
      i = t.end;
      continue;
    }
    symbol_token(s, i, t);
    out.push_back(t);
    i = t.end;
  }
  return out;
}

// --- reading an answer: arithmetic ------------------------------------------------------

// One arithmetic expression over tokens [begin, end), as muparser text.
struct Expr {
  std::size_t begin = 0, end = 0;
  std::string text;
  bool has_op = false;    // more than one bare number
  bool has_unit = false;  // an operand carries a unit: not evaluated
  const Token* single = nullptr;  // the expression is this one number
};

class ExprParser {
 public:
  explicit ExprParser(const std::vector<Token>& t) : t_(t) {}

  std::optional<Expr> parse(std::size_t begin) {
    pos_ = begin;
    depth_ = 0;
    Expr e;
    e.begin = begin;
    if (!sum(e.text, e)) return std::nullopt;
    e.end = pos_;
    if (!e.has_op && e.end == begin + 1 && t_[begin].kind == Tok::number) e.single = &t_[begin];
    return e;
  }

 private:
  bool is_op(char c) const { return pos_ < t_.size() && t_[pos_].kind == Tok::op && t_[pos_].op == c; }
  bool is(Tok k) const { return pos_ < t_.size() && t_[pos_].kind == k; }

  // Binary operators: the right operand must parse, or the operator is left unread.
  template <typename Next>
  bool binary(std::string& out, Expr& e, const char* ops, Next next) {
    if (!next(out, e)) return false;
    while (pos_ < t_.size() && t_[pos_].kind == Tok::op && std::strchr(ops, t_[pos_].op)) {
      const std::size_t save = pos_;
      const char op = t_[pos_].op;
      ++pos_;
      std::string rhs;
      Expr sub = e;
      if (!next(rhs, sub)) {
        pos_ = save;
        break;
      }
      e = sub;
      e.has_op = true;
      out += op + rhs;
    }
    return true;
  }

  bool sum(std::string& out, Expr& e) {
    return binary(out, e, "+-", [this](std::string& o, Expr& x) { return product(o, x); });
  }
  bool product(std::string& out, Expr& e) {
    return binary(out, e, "*/", [this](std::string& o, Expr& x) { return power(o, x); });
  }
  // a ^ b ^ c is a ^ (b ^ c); read in a loop, so a long chain never deepens the stack.
  bool power(std::string& out, Expr& e) {
    std::vector<std::string> operands(1);
    if (!unary(operands[0], e)) return false;
    while (is_op('^')) {
      const std::size_t save = pos_;
      ++pos_;
      std::string rhs;
      Expr sub = e;
      if (!unary(rhs, sub)) {
        pos_ = save;
        break;
      }
      e = sub;
      e.has_op = true;
      operands.push_back(rhs);
    }
    std::string folded = operands.back();
    for (std::size_t k = operands.size() - 1; k-- > 0;) folded = "(" + operands[k] + "^" + folded + ")";
    out += folded;
    return true;
  }
  bool unary(std::string& out, Expr& e) {
    // Nesting deeper than any working a learner writes is not read as arithmetic (and
    // never exhausts the stack: "((((..." or "-----...").
    if (++depth_ > kMaxDepth) return false;
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth_};
    if (is_op('-') || is_op('+')) {
      const std::size_t save = pos_;
      const char op = t_[pos_].op;
      ++pos_;
      std::string inner;
      if (!unary(inner, e)) {
        pos_ = save;
        return false;
      }
      e.has_op = true;
      out += std::string("(") + op + inner + ")";
      return true;
    }
    return primary(out, e);
  }
  bool primary(std::string& out, Expr& e) {
    if (is(Tok::number)) {
      const Token& n = t_[pos_];
      if (!n.num.error.empty()) return false;
      if (n.num.unit) e.has_unit = true;
      out += fmt::format("({:.17g})", n.num.value);
      ++pos_;
      return true;
    }
    const std::size_t save = pos_;
    if (is(Tok::lparen)) {
      ++pos_;
      std::string inner;
      if (sum(inner, e) && is(Tok::rparen)) {
        ++pos_;
        e.has_op = true;
        out += "(" + inner + ")";
        return true;
      }
      pos_ = save;
      return false;
    }
    if (is(Tok::func)) {
      std::string call = t_[pos_].text + "(";
      ++pos_;
      if (!is(Tok::lparen)) {
        pos_ = save;
        return false;
      }
      ++pos_;
      for (bool first = true;; first = false) {
        if (!first) {
          if (!is(Tok::comma)) break;
          ++pos_;
          call += ",";
        }
        std::string arg;
        if (!sum(arg, e)) {
          pos_ = save;
          return false;
        }
        call += arg;
      }
      if (!is(Tok::rparen)) {
        pos_ = save;
        return false;
      }
      ++pos_;
      e.has_op = true;
      out += call + ")";
      return true;
    }
    return false;
  }

  static constexpr int kMaxDepth = 64;
  const std::vector<Token>& t_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

// A value an answer states as a result.
struct Result {
  double value = 0;
  std::optional<Unit> unit;
  std::string unit_text;
  std::string text;  // as typed
};

struct Reading {
  std::vector<Result> results;
  std::vector<std::string> errors;  // misread numbers ("1,5")
};

// The results an answer states, in order. A chain "a = b = c" gives c (its working a
// and b are not results); an arithmetic expression gives its value ("2*2048^3"); a
// number that is an operand of working that cannot be evaluated (it names a variable:
// "2*N", "1 - s") or carries units ("68.7 GB / 320 GB/s") is not a result.
Reading read_answer(const std::string& text) {
  Reading r;
  const std::vector<Token> t = tokenize(text);
  ExprParser parser(t);
  auto can_start = [&](std::size_t i) {
    const Token& k = t[i];
    if (k.kind == Tok::number) return k.num.error.empty();
    return k.kind == Tok::lparen || k.kind == Tok::func || (k.kind == Tok::op && (k.op == '-' || k.op == '+'));
  };
  std::size_t i = 0;
  while (i < t.size()) {
    if (t[i].kind == Tok::number && !t[i].num.error.empty()) {
      r.errors.push_back(t[i].num.error);
      ++i;
      continue;
    }
    if (!can_start(i)) {
      ++i;
      continue;
    }
    auto first = parser.parse(i);
    if (!first) {
      ++i;
      continue;
    }
    std::vector<Expr> chain{*first};
    std::size_t j = first->end;
    for (;;) {
      std::size_t k = j;
      while (k < t.size() && t[k].kind == Tok::eq) ++k;
      if (k == j || k >= t.size()) break;
      auto next = parser.parse(k);
      if (!next) break;
      chain.push_back(*next);
      j = next->end;
    }
    const bool op_before = i > 0 && t[i - 1].kind == Tok::op;
    const bool op_after = j < t.size() && t[j].kind == Tok::op;
    const bool result = chain.size() > 1 ? !op_after : !(op_before || op_after);
    const Expr& last = chain.back();
    if (result) {
      if (last.single) {
        const NumberToken& n = last.single->num;
        r.results.push_back({n.value, n.unit, n.unit_text, text.substr(n.begin, n.end - n.begin)});
      } else if (!last.has_unit) {
        try {
          double v = evaluate(last.text, {});
          r.results.push_back({v, std::nullopt, "", text.substr(t[last.begin].begin, t[last.end - 1].end - t[last.begin].begin)});
        } catch (const Error&) {
          // not arithmetic after all
        }
      }
    }
    i = j;
  }
  return r;
}

// --- judging a result against an expected number ----------------------------------------

struct Judged {
  bool ok = false;
  bool fits = true;  // the unit suits the expected number (used to pick what to show)
  double given = 0;  // in the expected unit
  std::string note;
};

// The shared reading of a number in a unit (util/quantity.hpp: read_in_unit), then the
// first reading within the tolerance.
Judged judge(const NumericAnswer& e, const Result& r) {
  Judged j;
  j.given = r.value;
  const InUnit in = read_in_unit(Quantity{r.value, r.unit_text, r.unit}, r.text, e.unit, e.name);
  if (!in.ok()) {
    j.fits = false;
    j.note = in.error;
    return j;
  }
  j.given = in.readings.front().value;
  j.note = in.readings.front().note;
  for (const auto& reading : in.readings) {
    if (within(e, reading.value)) {
      j.ok = true;
      j.given = reading.value;
      j.note = reading.note;
      break;
    }
  }
  if (e.unit.empty() && r.unit && r.unit->dimension != Dimension::ratio) j.fits = false;
  return j;
}

void record(NumberCheck& c, const Judged& j) {
  c.given = j.given;
  c.ok = j.ok;
  c.note = j.note;
}

// Gives each expected number a result: as many right as an order-keeping assignment
// allows, then any right one given out of order, and the others (with `fill`) the next
// unused result between their neighbours' (shown as the learner's value, wrong).
void assign(const std::vector<NumericAnswer>& expected, const std::vector<Result>& results, AnswerCheck& out,
            bool fill = true, bool any_order = true) {
  const std::size_t n = expected.size(), m = results.size();
  std::vector<std::vector<Judged>> judged(n, std::vector<Judged>(m));
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < m; ++b) judged[a][b] = judge(expected[a], results[b]);
  }
  // best[a][b]: the most right answers among expected a.. and results b..
  std::vector<std::vector<int>> best(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t a = n; a-- > 0;) {
    for (std::size_t b = m; b-- > 0;) {
      best[a][b] = std::max({best[a + 1][b], best[a][b + 1], judged[a][b].ok ? 1 + best[a + 1][b + 1] : 0});
    }
  }
  std::vector<std::optional<std::size_t>> match(n);
  for (std::size_t a = 0, b = 0; a < n && b < m;) {
    if (judged[a][b].ok && best[a][b] == 1 + best[a + 1][b + 1]) {
      match[a] = b++;
      ++a;
    } else if (best[a][b] == best[a][b + 1]) {
      ++b;
    } else {
      ++a;
    }
  }
  // A number the answer gives out of order still counts: match what is left to any
  // unused result that fits it.
  std::vector<bool> used(m, false);
  for (const auto& b : match) {
    if (b) used[*b] = true;
  }
  for (std::size_t a = 0; a < n && any_order; ++a) {
    for (std::size_t b = 0; b < m && !match[a]; ++b) {
      if (!used[b] && judged[a][b].ok) {
        match[a] = b;
        used[b] = true;
      }
    }
  }
  // The others: the next unused result before the next match, preferring a fitting unit.
  std::size_t from = 0;
  for (std::size_t a = 0; a < n; ++a) {
    if (match[a]) {
      record(out.numbers[a], judged[a][*match[a]]);
      from = std::max(from, *match[a] + 1);
      continue;
    }
    if (!fill) continue;
    std::size_t to = m;
    for (std::size_t c = a + 1; c < n; ++c) {
      if (match[c]) to = std::min(to, *match[c]);
    }
    std::optional<std::size_t> pick;
    for (std::size_t b = from; b < to && !pick; ++b) {
      if (!used[b] && judged[a][b].fits) pick = b;
    }
    for (std::size_t b = from; b < to && !pick; ++b) {
      if (!used[b]) pick = b;
    }
    if (pick) {
      record(out.numbers[a], judged[a][*pick]);
      used[*pick] = true;
      from = *pick + 1;
    }
  }
}

// The value after `name=`: its first part (up to ';', a line end, or ", " or ". " outside
// parentheses), and of that the text after the last '=' ("2*M*N*P = 2,097,152 elements");
// read as one number, else as its first result.
std::optional<Result> value_of(const std::string& text, AnswerCheck& out) {
  std::size_t end = text.size(), depth = 0, last_eq = std::string::npos;
  for (std::size_t i = 0; i < text.size() && end == text.size(); ++i) {
    const char c = text[i];
    if (c == '(') ++depth;
    else if (c == ')' && depth > 0) --depth;
    else if (c == ';' || c == '\n') end = i;
    else if ((c == ',' || c == '.') && depth == 0 && i + 1 < text.size() && text[i + 1] == ' ') end = i;
    else if (c == '=' && depth == 0) last_eq = i;
  }
  std::string part = trim(text.substr(0, end));
  if (last_eq != std::string::npos && last_eq < end) part = trim(text.substr(last_eq + 1, end - last_eq - 1));
  std::string error;
  if (auto q = parse_quantity(part, &error)) return Result{q->value, q->unit, q->unit_text, part};
  Reading r = read_answer(part);
  out.notes.insert(out.notes.end(), r.errors.begin(), r.errors.end());
  if (r.results.empty()) return std::nullopt;
  return r.results.front();
}

// True when a number (or a sign, '.', '(' before one) starts at i.
bool starts_number(const std::string& s, std::size_t i) {
  if (i < s.size() && (s[i] == '-' || s[i] == '+' || s[i] == '(')) ++i;
  else if (starts(s, i, "\xE2\x88\x92")) i += 3;
  return digit_at(s, i) || (i < s.size() && s[i] == '.' && digit_at(s, i + 1));
}

// "'limit' is not the name of a number checked here ...", with the expected names and the
// one it may have meant (a name it begins, or that begins it).
std::string unknown_name(const std::string& name, const std::vector<NumericAnswer>& expected) {
  std::string all, meant;
  for (const auto& n : expected) {
    all += (all.empty() ? "" : ", ") + n.name;
    if (n.name.rfind(name, 0) == 0 || name.rfind(n.name, 0) == 0) meant = meant.empty() ? n.name : "-";
  }
  return fmt::format("'{}' is not the name of a number checked here{}; the names are {} (name=value with these "
                     "names, or the numbers alone in this order)",
                     name, meant.empty() || meant == "-" ? "" : fmt::format(" (did you mean {}?)", meant), all);
}

// The value of pair i of `names` in `text`: to the next pair or the end, without a
// trailing ',' or ';'.
std::string segment(const std::string& text, const std::vector<Assignment>& names, std::size_t i) {
  const std::size_t end = i + 1 < names.size() ? names[i + 1].begin : text.size();
  std::string value = trim(text.substr(names[i].value, end - names[i].value));
  while (!value.empty() && (value.back() == ',' || value.back() == ';')) value = trim(value.substr(0, value.size() - 1));
  return value;
}

// The name=value pairs of an answer, in order: each name of an expected number, and with
// `unknown` also any other name whose value is a number. A name that labels the number
// before it ("= 4 blocks = 32 warps") starts none, unless that number is the value of the
// pair before ("blocks=35 threads=8960").
std::vector<Assignment> pairs_in(const std::string& text, const std::vector<NumericAnswer>& expected, bool unknown) {
  std::vector<Assignment> names;
  for (auto& a : find_assignments(text)) {
    a.name = lower(a.name);
    const bool known = std::any_of(expected.begin(), expected.end(), [&](const NumericAnswer& n) { return n.name == a.name; });
    if (!known && (!unknown || !starts_number(text, a.value))) continue;
    const auto before = a.begin > 0 ? text.find_last_not_of(" \t", a.begin - 1) : std::string::npos;
    if (before != std::string::npos && std::isdigit(static_cast<unsigned char>(text[before]))) {
      const auto number = text.find_last_not_of("0123456789.,_", before);
      const std::size_t number_start = number == std::string::npos ? 0 : number + 1;
      if (names.empty() || names.back().value != number_start) continue;
    }
    names.push_back(a);
  }
  return names;
}

// True when the answer is nothing but pairs of one number each ("t_ms=40 limit=30").
bool only_pairs(const std::string& text, const std::vector<Assignment>& names) {
  if (names.empty() || names.front().begin != 0) return false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!parse_quantity(segment(text, names, i))) return false;
  }
  return true;
}

// Checks an answer given as name=value pairs (`names`, in order). A name that is none of
// the expected ones is refused, with a note, and its value counts for nothing.
void by_names(const std::string& text, const std::vector<NumericAnswer>& expected, const std::vector<Assignment>& names,
              AnswerCheck& out) {
  auto is_expected = [&](const std::string& name) {
    return std::any_of(expected.begin(), expected.end(), [&](const NumericAnswer& n) { return n.name == name; });
  };
  const bool any_known = std::any_of(names.begin(), names.end(), [&](const Assignment& a) { return is_expected(a.name); });
  out.by_name = true;
  std::string rest_text = text;  // the answer without the values of refused names
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::size_t end = i + 1 < names.size() ? names[i + 1].begin : text.size();
    const std::string value = segment(text, names, i);
    const std::string& name = names[i].name;
    if (!is_expected(name)) {
      out.notes.push_back(unknown_name(name, expected));
      std::fill(rest_text.begin() + static_cast<std::ptrdiff_t>(names[i].begin),
                rest_text.begin() + static_cast<std::ptrdiff_t>(end), ' ');
      continue;
    }
    for (std::size_t k = 0; k < expected.size(); ++k) {
      if (expected[k].name != name) continue;
      if (auto v = value_of(value, out)) record(out.numbers[k], judge(expected[k], *v));
    }
  }
  // Numbers not given by name count where a result of the answer matches them.
  std::vector<NumericAnswer> rest;
  std::vector<std::size_t> where;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    if (out.numbers[k].given) continue;
    rest.push_back(expected[k]);
    where.push_back(k);
  }
  if (!rest.empty() && any_known) {
    AnswerCheck others;
    for (const auto& n : rest) others.numbers.push_back({n.name, n.unit, n.value, tolerance_of(n), std::nullopt, false, ""});
    assign(rest, read_answer(rest_text).results, others, false);
    for (std::size_t k = 0; k < rest.size(); ++k) {
      if (others.numbers[k].ok) out.numbers[where[k]] = others.numbers[k];
    }
  }
}

}  // namespace

int AnswerCheck::correct() const {
  return static_cast<int>(std::count_if(numbers.begin(), numbers.end(), [](const NumberCheck& n) { return n.ok; }));
}

// True when the answer is its numbers and nothing else ("22 ms, 44 ms", "3 and 5"): then
// their order is what says which is which, as the prompt asks ("the numbers alone in this
// order"), and a number is not moved to another place because it fits there.
bool numbers_alone(const std::string& text, const std::vector<Result>& results) {
  std::string rest = text;
  std::size_t from = 0;
  for (const auto& r : results) {
    const std::size_t at = r.text.empty() ? std::string::npos : rest.find(r.text, from);
    if (at == std::string::npos) return false;
    rest.replace(at, r.text.size(), " ");
    from = at + 1;
    if (r.unit_text.empty() || r.text.find(r.unit_text) != std::string::npos) continue;
    const std::size_t unit = rest.find(r.unit_text, from);  // "22 ms" where the number's text is "22"
    if (unit != std::string::npos && rest.find_first_not_of(' ', from) == unit) rest.replace(unit, r.unit_text.size(), " ");
  }
  for (const char* word : {" and ", " then "}) {
    for (std::size_t at = rest.find(word); at != std::string::npos; at = rest.find(word)) rest.replace(at, std::strlen(word), " ");
  }
  return std::all_of(rest.begin(), rest.end(), [](unsigned char c) { return std::isspace(c) || c == ',' || c == ';' || c == '/'; });
}

AnswerCheck check_answer(const std::string& answer, const std::vector<NumericAnswer>& expected) {
  AnswerCheck out;
  for (const auto& n : expected) out.numbers.push_back({n.name, n.unit, n.value, tolerance_of(n), std::nullopt, false, ""});
  std::string text = trim(answer);
  if (text.empty() || expected.empty()) return out;

  // name=value pairs: each value runs to the next pair (or the end). An answer that is
  // nothing but pairs ("t_ms=40 limit=30 speedup=3") is read by its names, and a name
  // that is none of the expected ones is refused ("limit"); in other answers only the
  // expected names start pairs, and other names are working ("P = 32").
  if (std::vector<Assignment> all = pairs_in(text, expected, true); only_pairs(text, all)) {
    by_names(text, expected, all, out);
    return out;
  }
  if (std::vector<Assignment> known = pairs_in(text, expected, false); !known.empty()) {
    by_names(text, expected, known, out);
    return out;
  }
  // One expected value: the whole answer as one number first ("8 960", "0.8 ms").
  std::vector<Result> results;
  if (expected.size() == 1) {
    if (auto q = parse_quantity(text)) results.push_back({q->value, q->unit, q->unit_text, text});
  }
  if (results.empty()) {
    Reading r = read_answer(text);
    results = std::move(r.results);
    out.notes = std::move(r.errors);
  }
  if (expected.size() > 1 && results.size() == expected.size() && numbers_alone(" " + text + " ", results)) {
    // The numbers alone, as many as asked: the i-th is the i-th asked, right or wrong.
    for (std::size_t i = 0; i < expected.size(); ++i) record(out.numbers[i], judge(expected[i], results[i]));
    return out;
  }
  assign(expected, results, out, true, expected.size() < 2 || !numbers_alone(" " + text + " ", results));
  return out;
}

std::string describe_checked(const std::vector<NumericAnswer>& expected) {
  std::string out;
  for (const auto& n : expected) {
    const std::string tol = n.abs_tol ? fmt::format("within \u00b1{}{}", format_number(*n.abs_tol),
                                                    n.unit.empty() ? "" : " " + n.unit)
                                      : fmt::format("within {} %", format_number(n.rel_tol * 100));
    out += fmt::format("{}{}{} ({})", out.empty() ? "" : ", ", n.name, n.unit.empty() ? "" : " in " + n.unit, tol);
  }
  return out;
}

std::string render_placeholders(const std::string& text, const Figures& values) {
  static const std::regex placeholder(R"(\{([A-Za-z0-9_]+)\})");
  std::string out;
  auto last = text.cbegin();
  for (auto it = std::sregex_iterator(text.begin(), text.end(), placeholder); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out.append(last, m[0].first);
    auto found = values.find(m[1].str());
    out += found != values.end() ? format_number(found->second) : m[0].str();
    last = m[0].second;
  }
  out.append(last, text.cend());
  return out;
}

DrawnVariant draw_variant(const ExerciseItem& item, std::uint64_t seed) {
  if (!item.variant) throw UsageError(fmt::format("the item '{}' has no variant (fresh numbers)", item.id));
  const Variant& var = *item.variant;
  DrawnVariant out;
  out.seed = seed;
  std::uint64_t mixed = seed;
  for (unsigned char c : item.id) mixed = (mixed ^ c) * 0x100000001b3ULL;  // FNV-1a style mix of the id
  std::mt19937_64 gen(mixed);
  for (const auto& p : var.params) {
    if (p.values.empty()) continue;
    std::uniform_int_distribution<std::size_t> pick(0, p.values.size() - 1);
    out.values[p.name] = p.values[pick(gen)];
  }
  out.prompt = render_placeholders(var.prompt, out.values);
  // In the order the item declares its numeric answers (the order the learner gives them).
  for (const auto& n : item.numeric) {
    auto f = std::find_if(var.answers.begin(), var.answers.end(), [&](const auto& a) { return a.first == n.name; });
    if (f == var.answers.end()) continue;
    NumericAnswer drawn = n;
    drawn.value = evaluate(f->second, out.values);
    out.numeric.push_back(drawn);
  }
  return out;
}

}  // namespace workbook::learn
