#!/usr/bin/env bash
# The test command (README, CI):
#   ci       (default; what CI runs) one build with the ci preset: warnings are errors,
#            AddressSanitizer + UndefinedBehaviorSanitizer with leak detection, line tables
#            (-g1) for their reports, compiled as a unity build (CMake joins 16 .cpp files of a
#            target into one compile: 67 compiles instead of 334, 309 s instead of 758 s on
#            2 cores, 2026-12-04), executables linked without PIE (runner/CMakeLists.txt says
#            why). A file-local name that another file of the same target also defines fails
#            this build only: name helpers for what they do, shared test helpers live in
#            tests/support/. Every test runs against it: Catch2 unit and end-to-end
#            tests (the e2e tests spawn the instrumented binary, the Slurm ones on the node
#            too), the script tests, and `workbook dev check --unoptimized-host` compiling
#            every lab, starter, solution and variant with nvcc (the host code without the
#            labs' -O3, since nothing runs), driven by the instrumented runner.
#   release  the release preset (-O3, warnings are errors) and every test: the optimiser's
#            own warnings, and the tests against the binary a learner builds.
#   asan     the asan preset (full debug info, for gdb): every test but dev check.
#   all      ci, then release.
#   usage: scripts/test.sh [ci|release|asan|all]
# Each stage prints how long its build and its tests took.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
stage=${1:-ci}
case "$stage" in
  ci | release | asan | all) ;;
  *) echo "usage: scripts/test.sh [ci|release|asan|all] (unknown stage '$stage')" >&2; exit 2 ;;
esac

run_stage() {
  local preset=$1 start=$SECONDS built
  echo "== test stage: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j"$(nproc)"
  built=$SECONDS
  echo "== test stage $preset: built in $((built - start)) s"
  ctest --preset "$preset" -j2
  echo "== test stage $preset passed: build $((built - start)) s, tests $((SECONDS - built)) s"
}

case "$stage" in
  all) run_stage ci; run_stage release ;;
  *) run_stage "$stage" ;;
esac
