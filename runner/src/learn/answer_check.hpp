// Checking the numbers in a learner's typed answer against an item's numeric answers,
// and drawing fresh-number variants of formula-based items.
//
// Numbers are read as the learner types them (util/text.hpp parse_learner_number):
// "8,960", "8 960" (one number alone), "2.98x", "4.6×", "75%", "3e-4", "1.72 x 10^10",
// "215 ms". With several named values an answer is either `name=value` pairs in any
// order ("blocks=35, threads=8960") or the numbers in the order the item names them
// ("4 (5, 7) 35 8960 7000"). A value whose unit is % also accepts the fraction (0.75 for 75 %).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "content/exercises.hpp"
#include "grade/expr.hpp"

namespace workbook::learn {

struct NumberCheck {
  std::string name, unit;
  double expected = 0;
  double tolerance = 0;          // absolute, as applied
  std::optional<double> given;   // none: the answer did not give it
  bool ok = false;
};

struct AnswerCheck {
  std::vector<NumberCheck> numbers;
  bool by_name = false;          // the answer used name=value pairs
  int correct() const;
  bool all_ok() const { return correct() == static_cast<int>(numbers.size()); }
};

// The numbers in free text, in order (thousands separators and "x 10^k" understood).
std::vector<double> extract_numbers(const std::string& text);

// Checks `answer` against `expected`. An empty answer (answered out loud) gives checks
// with no `given` values.
AnswerCheck check_answer(const std::string& answer, const std::vector<NumericAnswer>& expected);

// A number as shown to the learner: integers without a decimal point, else 4 significant
// digits ("1056768", "2.977", "1.718e+10").
std::string format_number(double v);

// One drawn variant of an item: the parameter values, the rendered prompt, and the
// numeric answers computed from the variant's formulas.
struct DrawnVariant {
  std::uint64_t seed = 0;
  Figures values;
  std::string prompt;
  std::vector<NumericAnswer> numeric;
};

// Draws each parameter uniformly from its values with a generator seeded from `seed`
// and the item id (so two items of one session differ), renders {placeholders} and
// evaluates the formulas. Throws UsageError if the item has no variant.
DrawnVariant draw_variant(const ExerciseItem& item, std::uint64_t seed);

// Replaces {name} with the value of `name` (format_number); unknown names stay as written.
std::string render_placeholders(const std::string& text, const Figures& values);

}  // namespace workbook::learn
