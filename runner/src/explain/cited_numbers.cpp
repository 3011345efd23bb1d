// Numbers in an explanation (see cited_numbers.hpp).
#include "explain/cited_numbers.hpp"

#include <cctype>
#include <cmath>

namespace workbook {

namespace {

double relative(double a, double b) {
  if (b == 0) return std::fabs(a) < 1e-12 ? 0 : 1e9;
  return std::fabs(a - b) / std::fabs(b);
}

bool said_times(const NumberToken& n) {
  if (n.unit && n.unit->symbol == "x") return true;
  const std::string& u = n.unit_text;
  return u.rfind("fold", 0) == 0 || u.rfind("times", 0) == 0;
}

}  // namespace

std::vector<NumberToken> numbers_in(const std::string& text) {
  std::vector<NumberToken> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const bool starts = std::isdigit(c) || (c == '.' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])));
    const bool after_word = i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.' || text[i - 1] == '_');
    if (starts && !after_word) {
      if (auto n = scan_number(text, i)) {
        if (n->unit_text.empty() && text.compare(n->end, 5, "-fold") == 0) {  // "16-fold": a ratio
          n->unit_text = "fold";
          n->end += 5;
        }
        if (n->error.empty()) out.push_back(*n);
        i = n->end > i ? n->end : i + 1;
        continue;
      }
    }
    // skip the rest of this word
    ++i;
    while (starts && i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]))) ++i;
  }
  return out;
}

std::optional<double> cite_error(const NumberToken& n, double value, const std::string& unit) {
  const auto want = find_unit(unit);
  if (want && want->symbol == "x") return said_times(n) ? std::optional<double>(relative(n.value, value)) : std::nullopt;
  if (want && want->symbol == "%")
    return n.unit && n.unit->symbol == "%" ? std::optional<double>(relative(n.value, value)) : std::nullopt;
  if (!want) {  // a count: its value within 1 %, a whole count within half a unit
    if (value >= 1 && std::floor(value) == value && std::fabs(n.value - value) < 0.5) return 0.0;
    const double e = relative(n.value, value);
    return e <= 0.01 ? std::optional<double>(e) : std::nullopt;
  }
  if (!n.unit || n.unit->dimension != want->dimension || n.unit->symbol == "x" || n.unit->symbol == "%") return std::nullopt;
  std::optional<double> best;
  for (double v : convert(n.value, *n.unit, *want)) {
    if (!best || relative(v, value) < *best) best = relative(v, value);
  }
  return best;
}

bool cites(const NumberToken& n, double value, const std::string& unit, double tolerance) {
  const auto e = cite_error(n, value, unit);
  return e && *e <= tolerance;
}

std::string typed(const NumberToken& n) {
  if (n.unit_text.empty()) return n.text;
  const bool glued = n.unit_text == "%" || n.unit_text == "x" || n.unit_text == "X";
  return n.text + (glued ? "" : " ") + n.unit_text;
}

}  // namespace workbook
