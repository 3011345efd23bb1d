#!/usr/bin/env bash
# Session 7's GPU call (issue 14): the labs that failed or ran past the limit under the
# tools in session 6, re-run with the runner that sets WB_PROFILER and caps ncu at 300
# launches; the Python harness under both tools; the machine line with the driver's CUDA
# version from cuDriverGetVersion. Packed after every step into $OUT/session7.tgz, so a
# call that runs out of time still returns what finished.
#   scripts/device/session7.sh ncu     the six ncu re-runs (one 10-minute call)
#   scripts/device/session7.sh rest    memcheck, the Python harness, the machine line
#   scripts/device/session7.sh matvec  module15/matvec --quick alone, three times (its warm-up
#                                      run beside five other labs exited 5), then
#                                      timing_study's capped ncu on it (wbpy_check.sh timing)
# Needs the portable runner in .carry/bin/ (README, "Building for another machine").
set -u
OUT=${OUT:-/tmp/wb-out}
part=${1:?usage: session7.sh ncu|rest|matvec}
d=/tmp/wb-s7-$part; rm -rf "$d"; mkdir -p "$d/transcripts" "$d/raw"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-s7-ws
export W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
runs=$WORKBOOK_WORKSPACE/.workbook/runs
log=$d/steps.txt
pack() { echo "$1" | tee -a "$log"; tar czf "$OUT/session7-$part.tgz" -C "$d" .; }

# One lab under one tool: wall time, exit status, verdict, SKIP lines, and the tool's file.
one() {  # one TOOL LAB LIMIT_S FLAG...
  local tool=$1 lab=$2 limit=$3 n t0 rc
  shift 3
  n=$tool-$(echo "$lab" | tr / _)
  t0=$(date +%s)
  timeout "$limit" "$W" run "$lab" --solution --yes --quick --no-predict "$@" >"$d/transcripts/$n.txt" 2>&1
  rc=$?
  pack "$tool $lab rc=$rc $(( $(date +%s) - t0 )) s; $(grep -m1 'Verdict' "$d/transcripts/$n.txt" | tr -s ' '); skipped: $(grep -c '^  SKIP' "$d/transcripts/$n.txt")"
}

# The labs compiled once, in parallel, so the tools' runs time only themselves.
labs="module02/warps module03/device_query module09/heat module15/matvec module17/heat_graph module22/cublas_vs_mine"
[ "$part" = rest ] && labs="module03/device_query module08/profile_vecadd"
if [ "$part" = matvec ]; then
  for i in 1 2 3; do one plain module15/matvec 120; cp "$d/transcripts/plain-module15_matvec.txt" "$d/transcripts/plain-$i.txt"; done
  OUT=$d timeout 420 bash scripts/device/wbpy_check.sh timing >"$d/timing.txt" 2>&1
  pack "wbpy_check timing rc=$?"
  pack "done"
  exit 0
fi
t0=$(date +%s)
printf '%s\n' $labs | xargs -P 8 -I{} sh -c 'timeout 200 "$W" run {} --solution --yes --quick --no-predict >/dev/null 2>&1; echo "warm {} rc=$?"' \
  | sort >"$d/warm.txt"
pack "warm-up compiles $(( $(date +%s) - t0 )) s: $(grep -c 'rc=0' "$d/warm.txt") rc=0 of $(echo $labs | wc -w)"

if [ "$part" = ncu ]; then
  # ncu, one at a time (two ncu processes on one GPU fail: session 6's exit code 9).
  for lab in module02/warps module03/device_query module15/matvec module22/cublas_vs_mine module09/heat module17/heat_graph; do
    one ncu "$lab" 150 --ncu
  done
  cp "$runs"/*.ncu.csv "$d/raw/" 2>/dev/null
  find "$d/raw" -size +300k -printf 'dropped (over 300 KB): %f %s\n' -delete >>"$log"
  pack "ncu CSVs kept: $(ls "$d/raw" | wc -l)"
  pack "done"
  exit 0
fi

# memcheck where session 6 failed on a measured rate (module03) and on NVTX (module08).
one memcheck module03/device_query 200 --sanitize
one memcheck module08/profile_vecadd 200 --sanitize

# The Python harness: triton_add plain, under ncu and under memcheck.
OUT=$d timeout 420 bash scripts/device/wbpy_check.sh triton >"$d/wbpy.txt" 2>&1
pack "wbpy_check triton rc=$?"

# The machine line: the driver's CUDA version now comes from the driver library.
OUT=$d/machine timeout 200 bash scripts/device/machine_line_check.sh >"$d/machine.txt" 2>&1
pack "machine_line_check rc=$?; $(grep -m1 'machine:' "$d/machine/transcripts/history.txt" 2>/dev/null)"
pack "done"
