#!/usr/bin/env bash
# Runs on the lent GPU machine, in two calls that each fit the 10-minute limit:
#   scripts/device/validate.sh labs [REGEX]   every lab (or those whose id matches REGEX)
#                                       (CALIBRATE=1 calibrates first: solutions graded on
#                                       both bases; DEADLINE=S skips labs not started by S s)
#                                       through `workbook dev check --run`:
#                                       solutions pass, starters and known-wrong variants
#                                       fail, slow variants grade out_of_range; one report
#                                       per lab in $OUT/reports.tgz, renewed as each lab
#                                       finishes (docs/validation/H200.md joins them)
#                                       (the quick sizes: scripts/device/quick_devcheck.sh)
#   scripts/device/validate.sh timing   the timing study alone
#   scripts/device/validate.sh tools    the timing study against Nsight Compute
#                                       (scripts/device/timing_study.sh), compute-sanitizer
#                                       on the tiled GEMM and the divergent-barrier probe,
#                                       one learner-style run with predictions
# The runner is not built there: the portable binary is carried in .carry/bin (README:
# "Building for another machine"). Labs are compiled there all at once, one dev check each.
set -u
phase=${1:-labs}
filter=${2:-.}
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-workspace
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
log=$OUT/steps-$phase.txt
step() { echo "== $*" | tee -a "$log"; }

step "device"
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.sm,clocks.max.sm,memory.total,power.draw \
  --format=csv 2>&1 | tee -a "$log"

if [ "$phase" = labs ]; then
  # Compile every lab's starter, solution and variants in parallel (one dev check per
  # lab fills the shared build cache), then run them all from the cache.
  step "compile (parallel)"
  labs=$(python3 -c 'import json,sys; print(" ".join(l["id"] for m in json.load(sys.stdin) for l in m["labs"]))' \
         < <("$W" list --json) | tr ' ' '\n' | grep -E "$filter" | tr '\n' ' ')
  for lab in $labs; do "$W" dev check --only "$lab" --arch sm_90 >"/tmp/compile-${lab//\//_}.txt" 2>&1 & done
  wait
  grep -h "FAIL" /tmp/compile-*.txt | tee -a "$log"
  # One dev check per lab, each with its own report, so a call that runs out of time
  # still brings back every lab that finished (dev check writes its report at the end).
  # CALIBRATE=1: calibrate the workspace first, so every lab's dev check grades its
  # solution on the calibration and again on the spec sheet (row solution:spec_sheet).
  if [ "${CALIBRATE:-0}" = 1 ]; then
    step "device --calibrate"
    timeout 240 "$W" device --calibrate </dev/null >"$OUT/calibrate.txt" 2>&1
    echo "calibrate rc=$?" | tee -a "$log"
    grep -iE 'dram|copy|d2d' "$OUT/calibrate.txt" | head -4 | tee -a "$log"
  fi
  step "dev check --run $labs"
  reports=/tmp/wb-reports; rm -rf "$reports"; mkdir -p "$reports"
  t_start=$(date +%s)
  for lab in $labs; do
    name=${lab//\//_}
    # DEADLINE (seconds): a lab not started by then is listed as skipped, so the call
    # returns inside the device's 10-minute limit with every finished report.
    if [ -n "${DEADLINE:-}" ] && (( $(date +%s) - t_start > DEADLINE )); then
      echo "dev check $lab skipped: past the ${DEADLINE} s deadline" | tee -a "$log"; continue
    fi
    "$W" dev check --run --only "$lab" --report "$reports/H200-$name.md" >"$reports/devcheck-$name.txt" 2>&1
    echo "dev check $lab rc=$? (expected 0)" | tee -a "$log"
    grep -E "FAIL" "$reports/devcheck-$name.txt" | tee -a "$log"
    tail -1 "$reports/devcheck-$name.txt" | tee -a "$log"
    tar czf "$OUT/reports.tgz" -C "$reports" .  # few files come back: one archive, renewed per lab
  done
  exit 0
fi

step "timing study"
scripts/device/timing_study.sh "${TIMING_RUNS:-4}" >>"$log" 2>&1
[ "$phase" = timing ] && exit 0

step "compute-sanitizer: tiled GEMM solution, and the divergent-barrier probe (module 13)"
{
  nvcc -O3 -arch=sm_90 -lineinfo -I labs/common solutions/module14/tiled_gemm.cu -o /tmp/tg_sol
  compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 /tmp/tg_sol N=128 >/dev/null; echo "memcheck tiled rc=$?"
  compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 5 /tmp/tg_sol N=128 >/dev/null; echo "racecheck tiled rc=$?"
  if [ -f scripts/device/probes/divergent_barrier.cu ]; then
    nvcc -O3 -arch=sm_90 -lineinfo scripts/device/probes/divergent_barrier.cu -o /tmp/divbar
    for mode in control branch early_return; do
      /tmp/divbar $mode; echo "divergent_barrier $mode plain rc=$?"
      for tool in synccheck racecheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 3 /tmp/divbar $mode; echo "divergent_barrier $mode $tool rc=$?"
      done
    done
  fi
} >"$OUT/sanitizer.txt" 2>&1
grep -E 'rc=' "$OUT/sanitizer.txt" | tee -a "$log"

step "one learner-style run with predictions"
"$W" run module14/tiled_gemm --solution --yes --predict speedup=3 --predict reason=1 \
  --explain "Both kernels are bound by load instructions; tiled needs 1.25 shared loads per FMA instead of 2 global ones" \
  >"$OUT/run_solution.txt" 2>&1; echo "run --solution --yes rc=$? (expected 0)" | tee -a "$log"
