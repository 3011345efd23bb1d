// Deterministic mutation fuzzing of everything that reads untrusted text: the manifest
// and exercise loaders (seeded with the real content), the results reader, the
// expression evaluator and the answer parser. A target passes when no input crashes it
// or escapes with anything but the runner's own Error (which main() turns into a
// message and an exit code).
//
// CI runs a few hundred inputs per target (seconds). For a long run:
//   WB_FUZZ_ITERATIONS=200000 WB_FUZZ_SEED=7 build/dev/tests/workbook_tests "[fuzz]"
// Every crash found becomes a regression test next to the code it crashed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/temp_dir.hpp"
#include "content/exercises.hpp"
#include "content/manifest_load.hpp"
#include "model/expr.hpp"
#include "grade/results.hpp"
#include "learn/answer_check.hpp"
#include "util/error.hpp"
#include "../support/test_paths.hpp"

namespace fs = std::filesystem;
using namespace workbook;

namespace {

long env_number(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 10) : fallback;
}

long iterations() { return env_number("WB_FUZZ_ITERATIONS", 300); }

// splitmix64: deterministic under WB_FUZZ_SEED.
class Rng {
 public:
  explicit Rng(std::uint64_t stream) : s_(static_cast<std::uint64_t>(env_number("WB_FUZZ_SEED", 1)) * 0x9E37 + stream) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n ? static_cast<std::size_t>(next() % n) : 0; }

 private:
  std::uint64_t s_;
};

const std::vector<std::string> kTokens = {
    ": ", "- ", "{", "}", "[", "]", "\"", "'", "\n", "  ", "&a ", "*a", "!!str ", "~", "1e309", "-1", "0x10", "\xff",
    "---\n", "...\n", "%YAML 1.2\n", "? ", "|\n", ">\n", "#", "\t", "null", "true", "nan", "inf", "1e30", "\"\"",
    "id: ", "min: ", "max: ", "equals: ", "expr: ", "from: ", "\xe2\x88\x92", "\xc3", std::string(300, 'x')};

// One random edit of `text`: flip a byte, drop/duplicate/swap/indent a line, insert a
// token, or truncate.
std::string mutate(std::string text, Rng& rng) {
  const int edits = 1 + static_cast<int>(rng.below(4));
  for (int e = 0; e < edits; ++e) {
    if (text.empty()) text = "x";
    const std::size_t at = rng.below(text.size());
    const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    std::size_t line_end = text.find('\n', at);
    if (line_end == std::string::npos) line_end = text.size();
    const std::string line = text.substr(line_start, line_end - line_start);
    switch (rng.below(8)) {
      case 0: text[at] = static_cast<char>(rng.next() & 0xFF); break;
      case 1: text.erase(line_start, line_end - line_start); break;
      case 2: text.insert(line_start, line + "\n"); break;
      case 3: text.insert(at, kTokens[rng.below(kTokens.size())]); break;
      case 4: text.resize(at); break;
      case 5: text.insert(line_start, std::string(1 + rng.below(6), ' ')); break;
      case 6: {
        const std::size_t other = rng.below(text.size());
        std::swap(text[at], text[other]);
        break;
      }
      default: text.insert(at, text.substr(rng.below(text.size()), rng.below(80))); break;
    }
  }
  return text;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> seeds(const std::string& folder, const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(WORKBOOK_SOURCE_DIR) / folder)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(read_file(e.path()));
  }
  return out;
}

// Runs f on each input; only workbook::Error may escape (anything else fails the test,
// with the input saved where the message says).
template <class F>
void fuzz(const char* target, const std::vector<std::string>& corpus, F&& f) {
  REQUIRE_FALSE(corpus.empty());
  Rng rng(std::hash<std::string>{}(target));
  const long n = iterations();
  for (long i = 0; i < n; ++i) {
    const std::string input = mutate(corpus[rng.below(corpus.size())], rng);
    try {
      f(input);
    } catch (const Error&) {
      // a clean, reported error
    } catch (const std::exception& ex) {
      const fs::path saved = fs::temp_directory_path() / (std::string("wb-fuzz-") + target + "-" + std::to_string(i));
      std::ofstream(saved, std::ios::binary) << input;
      FAIL(target << ": input " << i << " escaped with " << ex.what() << " (saved to " << saved << ")");
    }
  }
}

}  // namespace

TEST_CASE("fuzz: the manifest loader reports problems, never crashes", "[fuzz]") {
  wbtest::TempDir tmp;
  const fs::path file = tmp.path / "modules/module05/module.yaml";
  fs::create_directories(file.parent_path());
  fuzz("manifest", seeds("modules", "module.yaml"), [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    Problems p;
    read_module(file, 5, tmp.path, p);
  });
}

TEST_CASE("fuzz: the exercise loader reports problems, never crashes", "[fuzz]") {
  wbtest::TempDir tmp;
  const fs::path file = tmp.path / "module05.yaml";
  fuzz("exercises", seeds("exercises", ".yaml"), [&](const std::string& text) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    Problems p;
    read_exercises(file, 5, "exercises/module05.yaml", p);
  });
}

TEST_CASE("fuzz: the results reader takes any bytes", "[fuzz]") {
  const std::vector<std::string> corpus = {
      "{\"type\":\"start\",\"lab\":\"module01/x\",\"seed\":7,\"quick\":false}\n"
      "{\"type\":\"param\",\"name\":\"N\",\"value\":1024}\n"
      "{\"type\":\"metric\",\"name\":\"t_ms\",\"value\":1.5,\"unit\":\"ms\",\"samples\":10,\"min\":1,\"max\":2,\"spread\":0.1}\n"
      "{\"type\":\"check\",\"name\":\"ok\",\"pass\":true,\"value\":0,\"limit\":1e-5,\"detail\":\"fine\"}\n"
      "{\"type\":\"error\",\"where\":\"x.cu:1\",\"message\":\"boom\"}\n"
      "{\"type\":\"end\",\"pass\":true}\n"};
  fuzz("results", corpus, [](const std::string& text) { parse_results(text); });
}

TEST_CASE("fuzz: the expression evaluator throws Error or returns", "[fuzz]") {
  const std::vector<std::string> corpus = {
      "naive_floor_ms / 0.85", "max(conv_ms, ceil(N / 256) * block_clk) / 0.25 + 2 * launch_us / 1e3",
      "N + 2 * r * (nb - 1) - (nb > 1 ? max(0, r - (N - (nb - 1) * TILE)) : 0)", "sqrt(-1)", "1/0", "count > 500",
      "log(0) * 2^1024"};
  const Figures scope{{"naive_floor_ms", 0.3}, {"conv_ms", 0.1}, {"N", 1024}, {"block_clk", 1e-6}, {"launch_us", 5},
                      {"r", 2},  {"nb", 4},  {"TILE", 256}, {"count", 3}};
  fuzz("expr", corpus, [&](const std::string& text) { evaluate(text, scope); });
}

TEST_CASE("fuzz: the answer parser reads any typed line", "[fuzz]") {
  const std::vector<std::string> corpus = {
      "2*2048^3 = 1.72e10 reads, 68.7 GB", "1.72 x 10^10", "t_ms = 0.42, speedup = 1.5", "1,000,000 elements",
      "\xe2\x88\x92" "3.5 %", "about 2-3x", "0.75%", "1500 us", std::string(2000, '9')};
  std::vector<NumericAnswer> expected(2);
  expected[0].name = "a";
  expected[0].value = 1.72e10;
  expected[1].name = "b";
  expected[1].value = 68.7;
  fuzz("answers", corpus, [&](const std::string& text) {
    learn::extract_numbers(text);
    learn::check_answer(text, expected);
  });
}
