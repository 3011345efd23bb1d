// Numeric answer checking and variants (runner/src/learn/answer_check.hpp).
#include <catch2/catch.hpp>

#include "learn/answer_check.hpp"

using namespace workbook;
using namespace workbook::learn;

namespace {

NumericAnswer num(const std::string& name, double value, std::optional<double> abs_tol = std::nullopt,
                  const std::string& unit = "") {
  NumericAnswer n;
  n.name = name;
  n.value = value;
  n.abs_tol = abs_tol;
  n.unit = unit;
  return n;
}

}  // namespace

TEST_CASE("answer_check: numbers in free text", "[learn][answer]") {
  CHECK(extract_numbers("4 phases, grid (5, 7): 35 blocks, 8,960 threads, 7000 write") ==
        std::vector<double>{4, 5, 7, 35, 8960, 7000});
  CHECK(extract_numbers("1.72 x 10^10 reads, 68.7 GB") == std::vector<double>{1.72e10, 68.7});
  CHECK(extract_numbers("about 2.98x, or 3e-4 s, 75%") == std::vector<double>{2.98, 3e-4, 75});
  CHECK(extract_numbers("T4 and sm_86 are names, not numbers") == std::vector<double>{});
  CHECK(extract_numbers("4.6× faster") == std::vector<double>{4.6});
}

TEST_CASE("answer_check: several numbers in order", "[learn][answer]") {
  std::vector<NumericAnswer> expected = {num("basic_reads", 3145728), num("tiled_reads", 1056768),
                                         num("reduction", 2.977)};
  auto c = check_answer("3,145,728 and 1,056,768; about 2.98x", expected);
  CHECK(c.all_ok());
  CHECK_FALSE(c.by_name);
  REQUIRE(c.numbers[2].given);
  CHECK(*c.numbers[2].given == Approx(2.98));

  auto partial = check_answer("3145728 1000000", expected);
  CHECK(partial.correct() == 1);
  CHECK(partial.numbers[1].given);
  CHECK_FALSE(partial.numbers[1].ok);
  CHECK_FALSE(partial.numbers[2].given);
}

TEST_CASE("answer_check: name=value pairs in any order", "[learn][answer]") {
  std::vector<NumericAnswer> expected = {num("blocks", 35, 0.5), num("threads", 8960, 0.5), num("writers", 7000, 0.5)};
  auto c = check_answer("writers = 7,000, blocks=35 threads: 8960", expected);
  CHECK(c.by_name);
  CHECK(c.all_ok());
  auto wrong = check_answer("blocks=36", expected);
  CHECK(wrong.correct() == 0);
  CHECK(wrong.numbers[0].given);
  CHECK_FALSE(wrong.numbers[1].given);
}

TEST_CASE("answer_check: one number, units, percent, tolerance", "[learn][answer]") {
  CHECK(check_answer("8 960", {num("threads", 8960, 0.5)}).all_ok());
  CHECK(check_answer("215 ms", {num("ms", 215)}).all_ok());
  CHECK(check_answer("217", {num("ms", 215)}).all_ok());        // within 1 % (default rel_tol)
  CHECK_FALSE(check_answer("218", {num("ms", 215)}).all_ok());  // outside
  CHECK(check_answer("75%", {num("occupancy", 75, 0.5, "%")}).all_ok());
  CHECK(check_answer("0.75", {num("occupancy", 75, 0.5, "%")}).all_ok());  // a fraction for a percentage
  CHECK(check_answer("1.72e10", {num("reads", 1.718e10)}).all_ok());
  auto aloud = check_answer("", {num("x", 1)});
  CHECK(aloud.numbers.size() == 1);
  CHECK_FALSE(aloud.numbers[0].given);
}

TEST_CASE("answer_check: variants draw seeded values and evaluate formulas", "[learn][answer]") {
  ExerciseItem item;
  item.id = "idle";
  item.numeric = {num("blocks", 4, 0.5), num("idle", 24, 0.5)};
  Variant v;
  v.params = {{"n", {1000, 5000, 100000}}, {"t", {128, 256, 384, 512}}};
  v.prompt = "n = {n}, t = {t}, unknown {zz}";
  v.answers = {{"idle", "ceil(n/t)*t - n"}, {"blocks", "ceil(n/t)"}};
  item.variant = v;
  DrawnVariant a = draw_variant(item, 42), b = draw_variant(item, 42);
  CHECK(a.values == b.values);
  CHECK(a.prompt == b.prompt);
  double n = a.values.at("n"), t = a.values.at("t");
  CHECK(a.prompt == "n = " + format_number(n) + ", t = " + format_number(t) + ", unknown {zz}");
  REQUIRE(a.numeric.size() == 2);
  CHECK(a.numeric[0].name == "blocks");  // the item's order, not the formulas'
  CHECK(a.numeric[0].value == std::ceil(n / t));
  CHECK(a.numeric[1].value == std::ceil(n / t) * t - n);
  CHECK(a.numeric[0].abs_tol == 0.5);
  bool differs = false;
  for (std::uint64_t seed = 1; seed < 20 && !differs; ++seed) differs = draw_variant(item, seed).values != a.values;
  CHECK(differs);
  ExerciseItem plain;
  plain.id = "plain";
  CHECK_THROWS(draw_variant(plain, 1));
}

TEST_CASE("answer_check: numbers as shown", "[learn][answer]") {
  CHECK(format_number(1056768) == "1056768");
  CHECK(format_number(2.97687) == "2.977");
  CHECK(render_placeholders("{a} x {b}", {{"a", 3}, {"b", 0.5}}) == "3 x 0.5");
}
