#!/usr/bin/env bash
# Session 6 re-checks on the GPU: (1) module15's warp matvec and cuBLAS gemv timed as
# graph replays (wb::time_kernel_graph) against ncu, 3 runs; (2) the labs the
# every-lab profiler pass (profilers_all.sh) failed or timed out on, again under the same
# tool, with WB_PROFILER, skip_check and ncu's launch cap; (3) `dev check --run` on the
# labs whose code changed (starters fail, solutions pass, variants grade as declared).
#   scripts/device/session6_check.sh
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT/transcripts"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-s6-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
log=$OUT/steps.txt
LABS="module15/matvec" SETTLE_VALUES=" " OUT=$OUT/timing bash scripts/device/timing_study.sh 3 >"$OUT/timing.txt" 2>&1
echo "timing study rc=$?" | tee -a "$log"
rm -f "$OUT"/timing/timing_raw.tgz
one() {
  local tool=$1 lab=$2 flag=$3 n
  n=$(echo "$lab" | tr / _)
  # WB_PROFILER is what the runner sets under --ncu/--sanitize; set here too, for a runner
  # built before that change.
  WB_PROFILER=${tool/memcheck/sanitize} timeout 300 "$W" run "$lab" --solution --yes --quick --no-predict "$flag" \
    >"$OUT/transcripts/$tool-$n.txt" 2>&1
  echo "$tool $lab rc=$? $(grep -m1 'Verdict' "$OUT/transcripts/$tool-$n.txt")" | tee -a "$log"
}
for lab in module02/warps module03/device_query module15/matvec module22/cublas_vs_mine module09/heat module17/heat_graph; do
  one ncu "$lab" --ncu
done
for lab in module03/device_query module08/profile_vecadd module15/matvec; do one memcheck "$lab" --sanitize; done
OUT=$OUT/validate bash scripts/device/validate.sh labs 'module02|module03|module08|module15' >"$OUT/validate.txt" 2>&1
echo "validate rc=$?" | tee -a "$log"
grep -h "rc=\|FAIL\|OUT_OF" "$OUT"/validate/steps-labs.txt 2>/dev/null | head -60 | tee -a "$log"
