#!/usr/bin/env bash
# Does every reference solution pass on the basis a learner grades on? Each solution runs
# at its default sizes in a spec-sheet workspace (no calibration: the figures of
# data/gpus.yaml, which data/measured/ was graded on) and again in a workspace where
# `workbook device --calibrate` measured this GPU (dram_gbps from the copy kernel, and
# so on): a measured band converted to the calibrated figures must still hold the
# correct solution (issue 25). A lab that does not pass is run a second time, so one
# noisy sample is told apart from a band that is wrong.
#   scripts/device/basis_check.sh [REGEX]      (labs whose id matches REGEX; default all)
#   PHASES="calibrated sheet" (default: both, in that order); DEADLINE=540 (seconds: labs not
#   started by then are listed as skipped, so a call inside the 10-minute limit returns).
# Needs the portable runner in .carry/bin/. Packs $OUT/basis_check.tgz after every step:
# steps.txt (phase, lab, rc, seconds, verdict), transcripts/, calibrate.txt.
set -u
filter=${1:-.}
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-basis; rm -rf "$d"; mkdir -p "$d/transcripts"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1
export W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
sheet=/tmp/wb-basis-sheet cal=/tmp/wb-basis-cal
log=$d/steps.txt
start=$(date +%s) deadline=${DEADLINE:-540} phases=${PHASES:-calibrated sheet}
pack() { echo "$1" | tee -a "$log"; tar czf "$OUT/basis_check.tgz" -C "$d" .; }
"$W" list --json | python3 -c 'import json,sys; print("\n".join(l["id"] for m in json.load(sys.stdin) for l in m["labs"]))' \
  | grep -v multi_gpu | grep -E "$filter" >"$d/labs.txt"

# Compile every lab once, 16 at a time, into the spec-sheet workspace's build cache
# (`dev check` compiles starters, solutions and variants); the calibrated workspace
# shares the cache folder through a link, so its runs compile nothing.
t0=$(date +%s)
export WORKBOOK_WORKSPACE=$sheet
timeout 240 "$W" dev check -j 16 </dev/null >"$d/compile.txt" 2>&1
pack "compile rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 "$d/compile.txt")"

one() {  # one PHASE LAB TRY
  local n t0 rc
  n=$1-$(echo "$2" | tr / _)-$3
  t0=$(date +%s)
  timeout 150 "$W" run "$2" --solution --yes --no-predict </dev/null >"$d/transcripts/$n.txt" 2>&1
  rc=$?
  pack "$1 $2 try $3 rc=$rc $(( $(date +%s) - t0 )) s; $(grep -m1 'Verdict' "$d/transcripts/$n.txt" | cut -c1-300)"
  return $rc
}
phase() {  # phase NAME WORKSPACE
  export WORKBOOK_WORKSPACE=$2
  while read -r lab; do
    if (( $(date +%s) - start > deadline )); then pack "$1 $lab skipped: past the ${deadline} s deadline"; continue; fi
    one "$1" "$lab" 1 || one "$1" "$lab" 2
  done <"$d/labs.txt"
}

# The calibrated workspace first (the basis that broke), then the sheet.
mkdir -p "$cal/.workbook"
t0=$(date +%s)
WORKBOOK_WORKSPACE=$cal timeout 240 "$W" device --calibrate </dev/null >"$d/calibrate.txt" 2>&1
pack "calibrate rc=$? $(( $(date +%s) - t0 )) s: $(grep -iE 'dram|d2d' "$d/calibrate.txt" | head -3 | tr '\n' ' ')"
[ -d "$sheet/.workbook/build" ] && [ ! -e "$cal/.workbook/build" ] && ln -s "$sheet/.workbook/build" "$cal/.workbook/build"
for p in $phases; do
  case $p in calibrated) phase calibrated "$cal" ;; sheet) phase sheet "$sheet" ;; esac
done
pack "done in $(( $(date +%s) - start )) s"
