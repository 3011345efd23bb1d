#!/usr/bin/env bash
# The test command (README, CI), in two stages:
#   ci    configure with the ci preset (warnings are errors), build, and run every test:
#         Catch2 unit and end-to-end tests, the script tests, and `workbook dev check`
#         compiling every lab and solution with nvcc;
#   asan  the asan preset (Debug, ASan + UBSan, leaks detected): build the runner and the
#         tests instrumented and run them again, `dev check` aside (its nvcc compiles are
#         not the runner's code). The e2e tests spawn the instrumented binary, so a leak,
#         an out-of-bounds access or undefined behaviour there fails the stage too.
#   usage: scripts/test.sh [ci|asan|all]      (default: all, which CI runs: see .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
stage=${1:-all}
case "$stage" in
  ci | asan | all) ;;
  *) echo "usage: scripts/test.sh [ci|asan|all] (unknown stage '$stage')" >&2; exit 2 ;;
esac

run_stage() {
  local preset=$1 start=$SECONDS
  echo "== test stage: $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j"$(nproc)"
  ctest --preset "$preset" -j2
  echo "== test stage $preset passed in $((SECONDS - start)) s"
}

if [[ $stage == ci || $stage == all ]]; then run_stage ci; fi
if [[ $stage == asan || $stage == all ]]; then run_stage asan; fi
