// The guard of the tests that need a real Slurm (tests/e2e/slurm_e2e_test.cpp, the
// experiment e2e tests' --slurm case).
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "exec/process.hpp"

namespace e2e {

// True when sbatch is on PATH and a controller answers squeue. Without one the test warns
// and returns, unless WORKBOOK_REQUIRE_SLURM=1 asks for a failure instead.
inline bool slurm_ready() {
  std::string why;
  if (!workbook::find_in_path("sbatch")) {
    why = "sbatch is not on PATH";
  } else {
    workbook::ProcessOptions opt;
    opt.argv = {"squeue", "-h", "-o", "%i"};
    opt.timeout_s = 20;
    workbook::ProcessResult r = workbook::run_process(opt);
    if (!r.exited_ok()) why = "no Slurm controller answers squeue: " + r.err;
  }
  if (why.empty()) return true;
  const char* require = std::getenv("WORKBOOK_REQUIRE_SLURM");
  if (require && std::string(require) == "1") {
    FAIL("WORKBOOK_REQUIRE_SLURM=1 but " << why << " (start one: eval \"$(scripts/ci/slurm_local.sh start)\")");
  }
  WARN("Slurm tests skipped: " << why << ". Start a local cluster with eval \"$(scripts/ci/slurm_local.sh start)\"");
  return false;
}

}  // namespace e2e
