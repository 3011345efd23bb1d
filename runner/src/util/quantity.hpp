// Numbers as learners type them, in one grammar for every place the runner reads one
// (typed answers, predictions, -p values):
//
//   number    := [sign] mantissa [exponent | times-ten] [scale] [unit]
//   sign      := '+' | '-' | U+2212 (the Unicode minus)
//   mantissa  := digits ['.' digits] | '.' digits
//                digits may be grouped in thousands, "1,000,000": a first group of one to
//                three digits, then groups of exactly three after ',' '_' or a thin or
//                no-break space (a plain space too where the text is one number: "8 960")
//   exponent  := ('e' | 'E') [sign] digits                          1.72e10
//   times-ten := ('x' | 'X' | '×' | '*' | '·') '10' ('^' [sign] digits | superscript)
//                1.72 x 10^10 (spaces allowed), 1.72 × 10¹⁰, 3 × 10⁻⁴
//   scale     := thousand | million | billion | trillion            1.2 million
//   unit      := one of find_unit's units ("ms", "min", "h", "GB/s", "Gbit/s", "%", "x", ...),
//                glued or after spaces
//
// Misread forms are errors, never numbers: "1,5" (a comma that does not group thousands:
// the decimal point is '.'), "1.5.5" (two decimal points), "1e999" (too large). A number
// glued to letters that are not a unit is a name, not a number ("2N", "513th", "3D").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace workbook {

enum class Dimension { time, bytes, bandwidth, flops, flop_rate, intensity, ratio };

// What a dimension is, for messages: "a time", "a size in bytes", ...
const char* describe(Dimension d);

// A unit the runner can convert: its dimension and its factor to the dimension's base
// unit (s, B, B/s, FLOP, FLOP/s, FLOP/B, 1). Times: ns, us (µs), ms, s, min, h, day.
// Bytes: kB, MB, GB, TB are powers of 1000, KiB, MiB, GiB, TiB powers of 1024, bits
// (Mbit, Gb, Gbit/s, Gbps: capital prefix, small b) an eighth of a byte. KB (capital K)
// is read both ways, as the workbook uses it both ways ("64 KB of shared memory" is
// 65,536 B, "3,072 bytes, about 3.07 KB"): `binary_factor` is its 1024 reading (0 for
// every other unit). A lone "K" is not a unit.
struct Unit {
  std::string symbol;  // canonical: "ms", "us", "GB", "GB/s", "TFLOP/s", "%", "x"
  Dimension dimension = Dimension::ratio;
  double factor = 1;
  double binary_factor = 0;
};

// The known unit a text starts with ("ms", "µs", "GB/s", "TFLOPS", "FLOPs per byte",
// "%", "x", "bytes", ...), ending at a word boundary; nullopt for anything else ("warps").
std::optional<Unit> find_unit(const std::string& text);

// One number scanned from a text (see scan_number).
struct NumberToken {
  std::size_t begin = 0, end = 0;  // the bytes read, unit included
  double value = 0;                // scale words applied ("1.2 million" is 1.2e6)
  std::string text;                // the number as typed, without its unit
  std::string unit_text;           // the unit as typed ("µs"); empty: none
  std::optional<Unit> unit;
  std::string error;               // non-empty: a misread form ("1,5"), not a number
};

// Scans the number that starts at `pos` (at its sign, first digit or '.'). nullopt when
// none starts there, or when the digits run into letters that are not a unit ("2N").
// `spaced_groups`: a plain space may group thousands too ("1 024"), for a text that is
// one number. An 'x' followed by a number is left alone (it multiplies: "2 x 2048").
std::optional<NumberToken> scan_number(const std::string& text, std::size_t pos, bool spaced_groups = false);

// A text that is one number: the number, then nothing, a unit, or words ("8 warps").
struct Quantity {
  double value = 0;
  std::string unit_text;  // the unit or words after the number, as typed
  std::optional<Unit> unit;
};

// Reads a text that is one number (see the grammar above). nullopt when it is not; then
// `error`, if given, says why when the text is a misread number ("1,5"), else is empty.
std::optional<Quantity> parse_quantity(const std::string& text, std::string* error = nullptr);

// `value` in unit `from` expressed in unit `to`, when both have one dimension: the
// power-of-1000 reading first, then, when the units differ, the power-of-1024 reading of
// KB (256 KB may be 262,144 B). Empty when the dimensions differ.
std::vector<double> convert(double value, const Unit& from, const Unit& to);


// One way to read a typed number in an expected unit, and how it was read ("1500 us is
// 1.5 ms", "268435456 read as bytes: 268.4 MB"; empty when nothing was converted).
struct UnitReading {
  double value = 0;
  std::string note;
};

// A typed number read in an expected unit: its readings, likeliest first, or why it
// cannot be read in that unit.
struct InUnit {
  std::vector<UnitReading> readings;  // empty: refused (see error)
  std::string error;
  bool ok() const { return error.empty() && !readings.empty(); }
};

// Reads `q` (typed as `text`) as `name`, a number in `want` (the unit text the item or
// prediction declares: a known unit, a noun such as "threads" or "count", or empty):
//   - a known unit of want's dimension is converted; one of another dimension is refused
//     ("GB is a size in bytes, but t is a time (ms)");
//   - for a noun (a count: "threads", "count"), a known unit other than x or % is refused
//     ("1000 ms is a time, but n is a count (threads)"; "1024 times" is 1024), and words
//     after the number must be that noun;
//   - words that are no unit ("1.5 foo", "3 cycles") are refused where want is a known
//     unit, with the unit expected ("give t in ms");
//   - a bare number is in want's unit; for a size in bytes or a count of FLOPs it may
//     also be in bytes or FLOPs (the question's base unit: 268435456 for 268.4 MB); for
//     a percentage it may also be the fraction (0.75 for 75 %). Never refused.
//   - want empty (nothing declared): any number is read as typed (a percentage also as
//     its fraction).
InUnit read_in_unit(const Quantity& q, const std::string& text, const std::string& want, const std::string& name);

}  // namespace workbook
