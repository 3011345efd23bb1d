// `workbook dev check`: prove the content is sound. Validates every manifest, exercise
// bank and the GPU spec sheets; compiles every starter and solution; with `run` (on a
// GPU) runs every solution (must pass, figures in range) and every starter (must fail
// until completed), and every manifest variant (known-wrong: must fail; correct-but-slow:
// must grade out_of_range), and renders the figures as a markdown report.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/lab_run.hpp"

namespace workbook {

struct DevLabRow;
struct DevCheckResult;

struct DevCheckOptions {
  bool run = false;
  bool quick = false;
  std::optional<std::string> arch;
  std::vector<std::string> only;  // lab ids; empty: all
  int jobs = 0;                   // compiles at once; <= 0: one per core
  bool unoptimized_host = false;  // compile only: nvcc without the labs' -O3 (CI; not with run)
  // Called as each row is done (the result so far holds device, arch and content
  // problems), so progress can be printed as it happens.
  std::function<void(const DevCheckResult& so_far, const DevLabRow& row)> on_row;
  // Called as each compile ends (one call at a time, from the compiling threads): `done`
  // of `total` compiled or tried, `row` the one that just ended; for a progress line.
  std::function<void(std::size_t done, std::size_t total, const DevLabRow& row)> on_compiled;
};

struct DevLabRow {
  std::string lab;
  std::string variant;           // "starter", "solution", or "wrong:<id>" / "slow:<id>" (a manifest variant)
  std::string what;              // variants: the mistake
  bool compiled = false;
  std::string diagnostics;
  bool ran = false;
  std::string verdict;           // as run
  std::string expected;          // "pass" for solutions, "fail" for starters and wrong variants,
                                 // "out_of_range" for slow variants
  bool ok = false;               // met its expectation (and, for solutions, every range)
  std::string problem;           // what went wrong, when not ok
  std::optional<RunReport> report;
};

struct DevCheckResult {
  std::vector<std::string> problems;  // content problems (file:line: field: what)
  std::vector<DevLabRow> rows;
  std::string device;
  std::string basis;                  // with --run: the bases the solutions were graded on
  std::string arch;
  std::string started_at;
  bool interrupted = false;           // Ctrl-C, SIGTERM or SIGHUP stopped it; later rows were not checked
  bool ok() const;
};

DevCheckResult dev_check(const RunContext& ctx, const DevCheckOptions& options);

// The markdown validation report (docs/validation/<gpu>.md).
std::string markdown_report(const DevCheckResult& result, const std::string& command_line);

}  // namespace workbook
