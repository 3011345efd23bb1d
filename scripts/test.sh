#!/usr/bin/env bash
# The test command (README, CI): configure with the ci preset (warnings are errors),
# build, and run every test: Catch2 unit and end-to-end tests, and `workbook dev check`
# compiling every lab and solution with nvcc.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
cmake --preset ci >/dev/null
cmake --build --preset ci -j"$(nproc)"
ctest --preset ci -j2
