// The fuzzing harness the fuzz targets share (tests/fuzz/*_test.cpp): a deterministic
// byte/line mutator over a corpus, and fuzz(), which fails on anything but the runner's
// own Error escaping a target.
//
// CI runs WB_FUZZ_ITERATIONS (default 300) inputs per target (seconds). For a long run:
//   WB_FUZZ_ITERATIONS=200000 WB_FUZZ_SEED=7 build/dev/tests/workbook_tests "[fuzz]"
// or for a time: WB_FUZZ_SECONDS=600 (each target stops after that many seconds, or its
// iterations, whichever comes first; it prints how many inputs it ran). With
// WB_FUZZ_LAST=FILE each input is written to FILE before it runs: an input that hangs
// (no exception to catch) is left there.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "util/error.hpp"
#include "files.hpp"
#include "test_paths.hpp"

namespace wbfuzz {

namespace fs = std::filesystem;
using wbtest::read_file;
using workbook::Error;

inline long env_number(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 10) : fallback;
}

inline long iterations() {
  const long seconds = env_number("WB_FUZZ_SECONDS", 0);
  return env_number("WB_FUZZ_ITERATIONS", seconds > 0 ? 1L << 40 : 300);
}
inline double seconds_limit() { return static_cast<double>(env_number("WB_FUZZ_SECONDS", 0)); }

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

inline const std::vector<std::string> kTokens = {
    ": ", "- ", "{", "}", "[", "]", "\"", "'", "\n", "  ", "&a ", "*a", "!!str ", "~", "1e309", "-1", "0x10", "\xff",
    "---\n", "...\n", "%YAML 1.2\n", "? ", "|\n", ">\n", "#", "\t", "null", "true", "nan", "inf", "1e30", "\"\"",
    "id: ", "min: ", "max: ", "equals: ", "expr: ", "from: ", "\xe2\x88\x92", "\xc3", std::string(300, 'x')};

// One random edit of `text`: flip a byte, drop/duplicate/swap/indent a line, insert a
// token, or truncate.
inline std::string mutate(std::string text, Rng& rng) {
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

inline std::vector<std::string> seeds(const std::string& folder, const std::string& suffix) {
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
  const double limit_s = seconds_limit();
  const auto t0 = std::chrono::steady_clock::now();
  const char* last_input = std::getenv("WB_FUZZ_LAST");  // a file each input is written to first
  long i = 0;
  for (; i < n; ++i) {
    if (limit_s > 0 && (i & 63) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > limit_s)
      break;
    const std::string input = mutate(corpus[rng.below(corpus.size())], rng);
    if (last_input) std::ofstream(last_input, std::ios::binary | std::ios::trunc) << input;  // a hang leaves it
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
  if (limit_s > 0 || n > 100000) {
    std::printf("fuzz %s: %ld inputs in %.0f s, none escaped\n", target, i,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::fflush(stdout);
  }
}

}  // namespace wbfuzz
