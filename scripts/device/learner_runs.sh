#!/usr/bin/env bash
# A learner's week on the lent GPU, for the record commands (progress, next, history,
# report): one workspace, a calibration, and runs of several labs the way a learner
# makes them -- predictions first (some close, some far off), an explanation, a failing
# starter, a known-wrong variant, a sweep where the runner has one. The workspace's
# journal comes back in $OUT/learner-journal.tgz; the transcripts in $OUT/learner/.
#   scripts/device/learner_runs.sh        (from the repository root, portable runner in .carry/bin)
set -u
OUT=${OUT:-/tmp/wb-out}
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/learner-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
T=$OUT/learner; mkdir -p "$T"
run() {  # run NAME ARGS...: one transcript per command, its exit code beside it
  local name=$1; shift
  "$W" "$@" >"$T/$name.txt" 2>&1
  echo "$name rc=$? : workbook $*" | tee -a "$T/steps.txt"
}
run calibrate device --calibrate
run m04_sol run module04/vecadd_roofline --solution --yes --predict bound=1 --predict time=60us --predict pct=80 \
  --explain "12 bytes per element over 4.8 TB/s gives 42 us; we reach about 85 % of that bandwidth"
run m04_starter run module04/vecadd_roofline --no-predict
run m04_wrong run module04/vecadd_roofline --variant grid_rounds_down --no-predict
run m12_sol run module12/coalescing --solution --yes --predict row_ms=0.5 --predict col_ms=2 --predict ratio=4 --predict shape=1 \
  --explain "Column-wise reads touch one 32-byte sector per thread instead of sharing them"
run m14_sol run module14/tiled_gemm --solution --yes --predict speedup=3 --predict reason=1 \
  --explain "Tiling cuts global loads per FMA from 2 to 2/TILE; shared-memory loads then bound it"
run m15_sol run module15/matvec --solution --yes --predict warp_pct=60 --predict port_slowdown=10
run m21_sol run module21/rounding --solution --yes --predict fp32_side=1 --predict fp32_value=100.9 --predict fp16_value=0.25 \
  --predict bf16_value=0.03125 --predict bf16_tree=100 --predict kahan_exact=yes
run m22_sol run module22/cublas_vs_mine --solution --yes --predict sgemm_pct=70 --predict cublas_vs_tiled=4 \
  --predict fp16_speedup=8 --predict tf32_faster=yes --predict pi_digits=2
if "$W" run --help 2>/dev/null | grep -q -- --sweep; then
  run m04_sweep run module04/vecadd_roofline --solution --yes --no-predict --sweep BLOCK=32,64,128,256,512,1024
fi
if "$W" run --help 2>/dev/null | grep -q -- --compare; then
  run m14_compare run module14/tiled_gemm --compare --no-predict
fi
for cmd in progress next history report; do
  if "$W" "$cmd" --help >/dev/null 2>&1; then run "cmd_$cmd" "$cmd"; fi
done
tar czf "$OUT/learner-journal.tgz" --exclude=learner-ws/.workbook/build -C /tmp learner-ws
