// Numeric answer checking and variants (see answer_check.hpp).
#include "learn/answer_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <regex>

#include "util/error.hpp"
#include "util/text.hpp"

namespace workbook::learn {

namespace {

// A number: digits with optional comma thousands groups, a fraction, an exponent, and an
// optional "x 10^k" / "× 10^k" / "*10^k".
const std::regex kNumber(
    R"((^|[^A-Za-z0-9_.])([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+)(\s*(?:x|X|\*|\xC3\x97)\s*10\s*\^\s*([-+]?\d+))?)");
const std::regex kAssignment(R"(([A-Za-z][A-Za-z0-9_]*)\s*[=:]\s*)");

double tolerance_of(const NumericAnswer& n) {
  if (n.abs_tol) return *n.abs_tol;
  double t = n.rel_tol * std::fabs(n.value);
  return t > 0 ? t : 1e-12;
}

bool matches(const NumericAnswer& n, double given) {
  double tol = tolerance_of(n);
  if (std::fabs(given - n.value) <= tol * (1 + 1e-12)) return true;
  // 75 % may be written as 0.75.
  if (n.unit == "%" && std::fabs(given * 100 - n.value) <= tol * (1 + 1e-12)) return true;
  return false;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

int AnswerCheck::correct() const {
  return static_cast<int>(std::count_if(numbers.begin(), numbers.end(), [](const NumberCheck& n) { return n.ok; }));
}

std::vector<double> extract_numbers(const std::string& text) {
  std::vector<double> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kNumber); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    std::string digits = m[2].str();
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    auto v = parse_learner_number(digits);
    if (!v) continue;
    double value = *v;
    if (m[4].matched) value *= std::pow(10.0, std::stod(m[4].str()));
    out.push_back(value);
  }
  return out;
}

AnswerCheck check_answer(const std::string& answer, const std::vector<NumericAnswer>& expected) {
  AnswerCheck out;
  for (const auto& n : expected) out.numbers.push_back({n.name, n.unit, n.value, tolerance_of(n), std::nullopt, false});
  std::string text = trim(answer);
  if (text.empty() || expected.empty()) return out;

  // name=value pairs: each value runs to the next name= (or the end).
  std::vector<std::smatch> names;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kAssignment); it != std::sregex_iterator(); ++it) {
    names.push_back(*it);
  }
  bool any_known = std::any_of(names.begin(), names.end(), [&](const std::smatch& m) {
    return std::any_of(expected.begin(), expected.end(), [&](const NumericAnswer& n) { return lower(m[1].str()) == n.name; });
  });
  if (any_known) {
    out.by_name = true;
    for (std::size_t i = 0; i < names.size(); ++i) {
      auto start = static_cast<std::size_t>(names[i].position(0) + names[i].length(0));
      auto end = i + 1 < names.size() ? static_cast<std::size_t>(names[i + 1].position(0)) : text.size();
      std::string value = trim(text.substr(start, end - start));
      while (!value.empty() && (value.back() == ',' || value.back() == ';')) value = trim(value.substr(0, value.size() - 1));
      std::string name = lower(names[i][1].str());
      for (std::size_t k = 0; k < expected.size(); ++k) {
        if (expected[k].name != name) continue;
        auto v = parse_learner_number(value);
        if (!v) {
          auto nums = extract_numbers(value);
          if (!nums.empty()) v = nums.front();
        }
        out.numbers[k].given = v;
        out.numbers[k].ok = v && matches(expected[k], *v);
      }
    }
    return out;
  }

  // One expected value: the whole answer as one number first ("8 960", "0.8 ms").
  std::vector<double> given;
  if (expected.size() == 1) {
    if (auto v = parse_learner_number(text)) given.push_back(*v);
  }
  if (given.empty()) given = extract_numbers(text);
  for (std::size_t k = 0; k < expected.size() && k < given.size(); ++k) {
    out.numbers[k].given = given[k];
    out.numbers[k].ok = matches(expected[k], given[k]);
  }
  return out;
}

std::string format_number(double v) {
  if (std::isfinite(v) && std::fabs(v) < 1e15 && v == std::round(v)) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.4g}", v);
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
