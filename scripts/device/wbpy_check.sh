#!/usr/bin/env bash
# Issue 14 on the GPU: the Python harness under a profiler, and timing_study.sh's ncu cap.
#   triton: module23/triton_add's solution through the runner without a tool (do_bench, as
#           before), under --ncu and under --sanitize (wb.time_calls: one warm-up and one
#           sample, so every timing metric must read "median of 1" or "n=1"); the two Python
#           harness self-tests first (no GPU needed; they show the box's python3 is fit).
#   timing: timing_study.sh on module15/matvec alone, one run, no settle sweep: ncu with
#           --filter-mode per-launch-config -c 40 must give matvec_row, matvec_warp and
#           gemv rows, and timing.md an ncu median for row_ms, warp_ms and cublas_ms.
# Each part fits one 10-minute command; writes $OUT/wbpy/steps.txt and the transcripts.
#   scripts/device/wbpy_check.sh [triton|timing|all]     (default all)
set -u
OUT=${OUT:-/tmp/wb-out}
d=$OUT/wbpy; mkdir -p "$d"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-wbpy-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
log=$d/steps.txt
part=${1:-all}

run_triton() {  # run_triton NAME LIMIT_S [runner flag]
  local name=$1 limit=$2 t0 rc
  shift 2
  t0=$(date +%s)
  timeout "$limit" "$W" run module23/triton_add --solution --yes --no-predict "$@" >"$d/triton-$name.txt" 2>&1
  rc=$?
  echo "triton_add $name rc=$rc $(( $(date +%s) - t0 )) s; $(grep -m1 'Verdict' "$d/triton-$name.txt")" | tee -a "$log"
  echo "  timing metrics: $(grep -cE 'median of 1;|\(n=1, ' "$d/triton-$name.txt") with one sample," \
       "skipped checks: $(grep -c 'SKIP' "$d/triton-$name.txt")" | tee -a "$log"
}

if [ "$part" = triton ] || [ "$part" = all ]; then
  python3 labs/common/wb_selftest.py 2>&1 | tail -3 | tee -a "$log"
  python3 tests/scripts/wb_profiler_test.py 2>&1 | tail -3 | tee -a "$log"
  run_triton plain 150
  run_triton ncu 240 --ncu
  run_triton sanitize 240 --sanitize
fi
if [ "$part" = timing ] || [ "$part" = all ]; then
  t0=$(date +%s)
  LABS=module15/matvec SETTLE_VALUES=" " OUT=$d/timing bash scripts/device/timing_study.sh 1 >"$d/timing.txt" 2>&1
  echo "timing study rc=$? $(( $(date +%s) - t0 )) s" | tee -a "$log"
  for tag in ncu ncu_nocache; do
    echo "  matvec.$tag.csv rows: $(grep -c '"matvec_row' /tmp/wb-timing/matvec.$tag.csv) row," \
         "$(grep -c '"matvec_warp' /tmp/wb-timing/matvec.$tag.csv) warp, $(grep -c 'gemv' /tmp/wb-timing/matvec.$tag.csv) gemv" |
      tee -a "$log"
  done
  grep '^| matvec' "$d/timing/timing.md" | tee -a "$log"
fi
