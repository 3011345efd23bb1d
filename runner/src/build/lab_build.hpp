// Compiling a lab (nvcc for CUDA labs, the host C++ compiler for fixture labs, python3's
// byte compiler for Python labs) into a content-addressed cache, and turning compiler
// output into learner-readable diagnostics.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "build/toolchain.hpp"
#include "build/toolchain_problem.hpp"

namespace workbook {

// What a lab is written in.
enum class Language {
  cuda,  // a .cu file compiled with nvcc
  host,  // a C++17 program compiled with $CXX (or c++): the fixture labs of the tests
  python,  // a .py file byte-compiled by python3 ($WORKBOOK_PYTHON) into a .pyc that
           // python3 runs: a syntax error is a compile error, found before the run
};

// One lab to compile.
struct BuildRequest {
  std::filesystem::path source;                     // the .cu / .cpp file
  std::string display_name;                         // how the learner sees its path, e.g. "labs/module14/tiled_gemm.cu"
  std::vector<std::filesystem::path> include_dirs;  // -I directories; every regular file in them is hashed
  std::vector<std::string> flags;                   // from the manifest, e.g. -O3
  std::vector<std::string> libs;                    // e.g. -lcublas
  std::string arch;                                 // "sm_90", "sm_75,sm_86,sm_90" (one -gencode each),
                                                    // "native" (cuda only; empty: native)
  Language language = Language::cuda;
  std::filesystem::path cache_dir;                  // <workspace>/.workbook/build
  double timeout_s = 300;                           // compile time limit; <= 0: none
  bool check_only = false;  // compiled to prove it compiles, never linked or run (dev check's
                            // compile of a variant): nvcc -cuda (device code compiled, host
                            // code checked but not generated), g++ -c; `binary` is then an
                            // empty file that marks the check passed
};

// nvcc's -O flags left out of a CUDA request (dev check --unoptimized-host): they set
// only the host compiler's optimisation; device code is optimised the same without them.
void drop_host_optimisation(BuildRequest& request);

// The outcome of build_lab.
struct BuildResult {
  bool ok = false;                   // a binary is ready at `binary`
  bool cached = false;               // true: it was already there, nothing was compiled
  bool timed_out = false;            // the compiler ran past the time limit and was killed
  bool interrupted = false;          // Ctrl-C while compiling
  std::filesystem::path binary;      // cache_dir/<key>/lab (Python: cache_dir/<key>/lab.pyc)
  std::vector<std::string> interpreter;  // what runs `binary`: empty for a compiled lab,
                                         // {python3's path} for a Python lab
  std::vector<std::string> command;  // the compile command (its -o names `binary`; the compiler
                                     // actually writes a temporary name that is then renamed)
  std::string diagnostics;           // clean_diagnostics() of the compiler output, plus a line
                                     // on a time-out, interruption or crash of the compiler
  std::string raw_output;            // the compiler's stdout then stderr, as printed
  std::string key;                   // the cache key (32 hex digits)
  std::optional<ToolchainProblem> toolchain_problem;  // a CUDA build that failed because of the toolchain,
                                                      // not the lab (its explanation ends `diagnostics`)
};

// Compiles the lab unless an identical build is cached. The key covers the source, the
// files it includes by a quoted #include from its own directory (followed recursively),
// every regular file under each include dir (sorted by relative path), flags, libs, arch,
// language, the compiler's path and version (for CUDA also the host compiler's path and
// version and the toolchain's flags, toolchain_config.hpp); the paths of the source and the include
// dirs do not count, so a moved workspace reuses its cache. The compiler writes a
// temporary file that is renamed into place, so concurrent runs or a Ctrl-C never leave
// a half-written binary. Failed builds are not cached.
//
// `nvcc` may be null for host and Python labs; a CUDA lab with a null `nvcc` throws
// UsageError saying how to install or point WORKBOOK_NVCC; a Python lab without python3
// throws UsageError saying how to install it or point WORKBOOK_PYTHON. A missing source or include dir throws
// UsageError. A compile error, time-out or interruption gives ok=false. A CUDA build with
// allow_unsupported starts `diagnostics` with nvcc's warning, cached or not.
BuildResult build_lab(const BuildRequest& request, const Toolchain* nvcc);

// Cleans compiler output for the learner:
// - nvcc's "/abs/x.cu(42): error: ..." and gcc's "/abs/x.cpp:42:5: error: ..." (or
//   "x.cpp:42: ...") become "<file>:42: error: ..."; when <file> is `source` (as given,
//   absolute or canonical) it is written as `display_name`;
// - other mentions of `source` ("In function ...", "... in the compilation of ...") are
//   replaced by `display_name` too;
// - blank lines and nvcc's "Remark: The warnings can be suppressed ..." are dropped;
// - everything else (source excerpts, carets, notes) is kept as it was.
// The result ends with a newline unless it is empty.
std::string clean_diagnostics(std::string_view raw, const std::filesystem::path& source,
                              std::string_view display_name);

}  // namespace workbook
