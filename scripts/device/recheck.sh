#!/usr/bin/env bash
# After fixes found by the batch: a first calibration in a fresh workspace, racecheck on a
# missing barrier, --trace on the graph lab (its timings shown, not graded), and
# `dev check --run` on the labs the merged pipeline touches most.
#   scripts/device/recheck.sh
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-recheck-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
log=$OUT/recheck-steps.txt
run() { local name=$1 expected=$2; shift 2; timeout 300 "$W" "$@" >"$OUT/$name.txt" 2>&1; echo "$name rc=$? (expected $expected)" | tee -a "$log"; }
rm -rf "$WORKBOOK_WORKSPACE"
run calibrate-fresh 0 device --calibrate
run racecheck 1 run module13/dot_reduction --variant missing_loop_barrier --quick -p RUNS=3 --no-predict --sanitize=racecheck
run trace-graph 0 run module17/heat_graph --solution --yes --no-predict --trace
run trace-pipeline 0 run module16/streams_pipeline --solution --yes --no-predict --trace
OUT=$OUT scripts/device/validate.sh labs 'module04|module12|module13|module14/tiled_gemm$|module17' >"$OUT/validate.txt" 2>&1
grep -h "rc=\|FAIL" "$OUT/steps-labs.txt" | tee -a "$log"
