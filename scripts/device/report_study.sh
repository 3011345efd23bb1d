#!/usr/bin/env bash
# Runs on the lent GPU machine (one call, well under 10 minutes): real data for the
# issue-16 transcripts of `run --sweep`, `run --compare` and `report`.
#   scripts/device/report_study.sh
# Calibrates the GPU, runs the roofline lab and the tiled GEMM (reference solutions, so
# the figures are real), sweeps conv1d's TILE and streams_pipeline's SEGMENTS (quick
# sizes), compares the learner's (unedited) tiled GEMM starter with the solution, and
# writes a report with its SVGs. Everything lands in $OUT (transcripts, report/, plots/).
# The runner is the portable binary carried in .carry/bin (see validate.sh).
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-report-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
log=$OUT/report-study.txt
step() { echo; echo "\$ workbook $*" | tee -a "$log"; "$W" "$@" 2>&1 | tee -a "$log"; echo "(exit ${PIPESTATUS[0]})" | tee -a "$log"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw,pstate --format=csv | tee -a "$log"
step device --calibrate
step run module04/vecadd_roofline --solution --yes --no-predict --explain "Vector add moves 12 bytes per FLOP: far left of the ridge, so DRAM bandwidth caps it."
step run module14/tiled_gemm --solution --yes --predict speedup=3 --predict reason=1 --explain "Tiling reuses each loaded element T times from shared memory."
step run module14/conv1d --solution --yes --sweep TILE --no-predict --quick
step run module16/streams_pipeline --solution --yes --sweep SEGMENTS=1,4,16 --no-predict --quick
step run module14/tiled_gemm --compare --no-predict --quick
step report --out "$OUT/report"
step report module14 --json --out "$OUT/report14"
cp -r "$WORKBOOK_WORKSPACE/plots" "$OUT/plots" 2>/dev/null || true
