// Checking the numbers in a learner's typed answer against an item's numeric answers,
// and drawing fresh-number variants of formula-based items.
//
// Numbers are read in the one grammar of util/quantity.hpp: "8,960", "8 960" (one number
// alone), "2.98x", "4.6×", "75%", "3e-4", "1.72 x 10^10", "−3", "215 ms"; "1,5" and
// "1.5.5" are errors (said in `notes`), never numbers. An answer is read by its results,
// never by the operands of its working: a chain "2*2048^3 = 1.72e10" gives 1.72e10, an
// arithmetic expression alone ("2*2048^3") its value (model/expr.hpp), and a number that
// is an operand of working that names a variable or carries units ("2*N", "68.7 GB /
// 320 GB/s") is not a result. A dash between two numbers with no space is a range ("3-6x").
//
// With several named values an answer is either `name=value` pairs in any order
// ("blocks=35, threads=8960") or results in the order the item names them ("4 (5, 7) 35
// 8960 7000"); results in between that match none are passed over, so a learner who
// writes sentences around the numbers is not marked wrong.
//
// Units (util/quantity.hpp, read_in_unit, shared with run predictions): a result with a
// unit of the expected unit's dimension is converted (1500 us is 1.5 ms, 1.5 min is
// 90000 ms, 12 Gbit/s is 1.5 GB/s; kB is 1000 B, KiB 1024 B, KB both); one of another
// dimension, or a word that is no unit ("1.5 foo", "3 cycles" for a time), is wrong and
// the check's note says what unit is expected. A bare number is in the expected unit, and
// never wrong for a missing unit: for a size in bytes or a count of FLOPs it may also be
// in bytes or FLOPs (268435456 for 268.4 MB), for a % value the fraction (0.75 for 75 %),
// but "0.75%" is 0.75 percent. A name=value pair whose name is none of the expected ones
// is refused ("limit=30" when limit_ms is asked for), in a note naming the expected names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "content/exercises.hpp"
#include "model/expr.hpp"
#include "util/text.hpp"

namespace workbook::learn {

struct NumberCheck {
  std::string name, unit;
  double expected = 0;
  double tolerance = 0;          // absolute, as applied
  std::optional<double> given;   // none: the answer did not give it
  bool ok = false;
  std::string note;              // how the value was read ("1500 us is 1.5 ms"), or why it does not fit
};

struct AnswerCheck {
  std::vector<NumberCheck> numbers;
  bool by_name = false;          // the answer used name=value pairs
  std::vector<std::string> notes;  // numbers the answer misread ("'1,5' is not a number: ...")
  int correct() const;
  bool all_ok() const { return correct() == static_cast<int>(numbers.size()); }
};

// Checks `answer` against `expected`. An empty answer (answered out loud) gives checks
// with no `given` values.
AnswerCheck check_answer(const std::string& answer, const std::vector<NumericAnswer>& expected);

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

// What an answer's numbers are checked against, said before the learner answers: each
// value's name, unit and tolerance, in order: "array_mb in MB (within 1 %), blocks
// (within ±0.5)". Empty when nothing is checked.
std::string describe_checked(const std::vector<NumericAnswer>& expected);

// Replaces {name} with the value of `name` (format_number); unknown names stay as written.
std::string render_placeholders(const std::string& text, const Figures& values);

}  // namespace workbook::learn
