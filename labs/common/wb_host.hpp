// wb_host.hpp: the host-only half of the workbook lab harness.
//
// A lab is an ordinary program; this header lets it speak the lab contract
// (docs/lab-contract.md): NAME=VALUE arguments, parameters with a quick value for
// smoke runs, seeded random inputs, comparison against a reference, and results
// written one JSON object a line to the file named by $WORKBOOK_RESULTS.
//
// Dependency-free, C++17, host-only: it compiles with g++ alone and under nvcc. CUDA labs
// include workbook.cuh, which includes this file and adds the GPU parts.
//
// A minimal lab:
//
//   int main(int argc, char** argv) {
//     wb::init(argc, argv, "module01/sum");
//     long long n = wb::param("N", 1 << 20, 1 << 10);  // full value, quick value
//     wb::params_done();                               // optional: reject typos now
//     ...
//     wb::metric("sum_ms", stats, "ms");
//     wb::check("sum_ok", got == want);
//     return wb::finish();                             // 0 all checks passed, 1 not
//   }
//
// Exit codes: 0 every check passed, 1 a check failed, 2 bad arguments, 4 harness or
// CUDA error (an `error` record says where). Without WORKBOOK_RESULTS every record is
// printed as a readable line on stdout; with it, the JSON goes to the file and the
// readable line still goes to stdout so the learner sees progress. Each line is
// flushed as soon as it is written, so a crash never loses earlier records.
//
// Two ways to build, the same program:
// - header-only (a lab's by-hand build line): this file declares the API and includes
//   wb_host_impl.hpp at its end, every function `inline`;
// - linked (what `workbook run` does, so a changed lab compiles only the lab): the lab is
//   compiled with -DWB_HARNESS_LINKED and linked with wb_harness.cpp's object (for CUDA
//   labs wb_harness.cu's), which the runner compiles once per compiler, flags and GPU
//   architecture into its build cache; that file defines WB_HARNESS_IMPL.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#if defined(WB_HARNESS_IMPL) || defined(WB_HARNESS_LINKED)
#define WB_API
#else
#define WB_API inline
#endif

namespace wb {

// Summary of repeated timings (or any samples): what `metric(name, Stats, unit)` writes.
struct Stats {
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  double spread = 0.0;  // (max - min) / median, relative
  int samples = 0;
  std::string clock;    // timings: "kernels" (CUPTI kernel durations) or "events" (CUDA events)
};

namespace detail {
// printf into a std::string, of any length.
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
WB_API std::string format(const char* fmt, ...);

// A number for the readable lines: 6 significant digits ("nan"/"inf" as they are).
WB_API std::string human(double v);

// Records one check (the common part of check, compare and check_bounds).
WB_API bool record_check(const char* name, bool pass, bool has_values, double value, double limit,
                         const std::string& text);
}  // namespace detail

// ---- errors ------------------------------------------------------------------------

// Records an `error` record (where: "file.cu:123", message: what went wrong) and prints
// it on stderr. Usable before init (then it only prints). Does not exit: see fatal().
WB_API void error(const std::string& where, const std::string& message);

// Records an error and exits with status 4 (CUDA or harness error).
[[noreturn]] WB_API void fatal(const std::string& where, const std::string& message);

// For a lab's own argument validation (a size out of range, say): prints the message
// and exits 2, like any other bad argument.
[[noreturn]] WB_API void bad_argument(const std::string& message);

// ---- start ---------------------------------------------------------------------------

// Parses NAME=VALUE arguments, opens $WORKBOOK_RESULTS (append) and writes `start`.
// lab is the lab's address, e.g. "module14/tiled_gemm". Bad arguments exit 2.
WB_API void init(int argc, char** argv, const char* lab);

WB_API std::uint64_t seed();  // seed=<uint64> (default 12345, so runs by hand repeat)
WB_API bool quick();          // quick=1: the smoke-run sizes

// ---- parameters ----------------------------------------------------------------------

// An integer parameter: the NAME=VALUE override if given, else the quick value under
// quick=1, else the full value. Records a `param` record the first time it is read;
// reading it again is fine as long as it resolves to the same value. Overrides are
// decimal or 0x-hex; anything else exits 2.
WB_API long long param(const char* name, long long full, long long quick_value);

// An integer parameter with the same value for full and quick runs.
WB_API long long param(const char* name, long long value);

// A real-valued parameter; same rules as param().
WB_API double param_f(const char* name, double full, double quick_value);
WB_API double param_f(const char* name, double value);

// Rejects (exit 2) every NAME=VALUE that no wb::param call has read so far. finish()
// calls it too; call it yourself right after reading the parameters so that a typo
// stops the lab before any long work.
WB_API void params_done();

// ---- seeded random numbers -------------------------------------------------------------

namespace detail {
// splitmix64's output function: a strong 64-bit mixer.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
}  // namespace detail

// A small, fast generator (splitmix64) for one stream under the run's seed. Different
// stream numbers give unrelated sequences; the same seed and stream repeat exactly.
class Rng {
 public:
  explicit Rng(std::uint64_t stream)
      : state_(detail::mix64(seed() ^ detail::mix64(stream + 0x632BE59BD9B4E019ULL))) {}
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    return detail::mix64(state_);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)

 private:
  std::uint64_t state_;
};

// Fills x[0..n) with uniform values in [lo, hi]. Use a different stream for each array
// so that, say, A and B differ under one seed.
WB_API void fill_uniform(float* x, std::size_t n, float lo, float hi, std::uint64_t stream);
WB_API void fill_uniform(double* x, std::size_t n, double lo, double hi, std::uint64_t stream);

// ---- statistics ------------------------------------------------------------------------

// Median, min, max and relative spread of a set of samples (e.g. times in ms).
WB_API Stats stats_of(std::vector<double> samples);

// ---- results ---------------------------------------------------------------------------

// A measured figure. unit is free text: "ms", "GB/s", "x", "%", "count".
WB_API void metric(const char* name, double value, const char* unit);

// A timing or other repeated measurement: value is the median; samples, min, max and
// spread are written too.
WB_API void metric(const char* name, const Stats& st, const char* unit);

// A correctness check with the measured value and the limit it was held to. Returns pass.
WB_API bool check(const char* name, bool pass, double value, double limit, const std::string& detail_text = "");

// A pass/fail check without a number.
WB_API bool check(const char* name, bool pass, const std::string& detail_text = "");

// The profiler the runner started this lab under ("ncu", "sanitize"), or null when none:
// `workbook run --ncu/--sanitize` sets WB_PROFILER. Under one, kernels are replayed (ncu
// runs each several times, so printf lines repeat) or slowed many times over, so a check
// about measured speed or printed output cannot be made: skip_check it instead.
WB_API const char* under_profiler();

// A check this run cannot make (see under_profiler), reported with the reason: it neither
// passes nor fails the run, and the runner shows it as SKIP.
WB_API void skip_check(const char* name, const std::string& why);

// ---- comparison against a reference ------------------------------------------------------

// Compares got[0..n) with a reference and records one check named name: element i matches
// when |got - ref| <= atol + rtol * |ref|, and a NaN or infinite value never matches (a
// poisoned, unwritten output is NaN). Prints the first 5 mismatches (with row and column
// when cols > 0, for a row-major matrix of that many columns). Returns pass.
WB_API bool compare(const char* name, const float* got, const double* ref, std::size_t n, double rtol, double atol,
                    std::size_t cols = 0);
WB_API bool compare(const char* name, const float* got, const float* ref, std::size_t n, double rtol, double atol,
                    std::size_t cols = 0);
WB_API bool compare(const char* name, const double* got, const double* ref, std::size_t n, double rtol, double atol,
                    std::size_t cols = 0);

// ---- end ---------------------------------------------------------------------------------

// Validates the arguments (unknown names exit 2), writes `end` with pass = every check
// passed, and returns the exit status: `return wb::finish();` from main.
WB_API int finish();

}  // namespace wb

#if !defined(WB_HARNESS_LINKED)
#include "wb_host_impl.hpp"
#endif
