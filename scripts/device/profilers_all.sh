#!/usr/bin/env bash
# Issue 14, "--ncu / --sanitize on every lab": every lab's reference solution at its
# quick sizes under compute-sanitizer memcheck (6 at a time) and under Nsight Compute with
# the runner's default metrics (1 at a time), plus racecheck/synccheck/initcheck where the
# lab's kernels use shared memory or barriers. The real tool outputs are kept as fixtures.
#   scripts/device/profilers_all.sh [sanitize|ncu|all]
# Needs the portable runner in .carry/bin/workbook (see profilers_check.sh).
# Writes under $OUT: steps.txt (one line per lab and tool: rc and verdict line),
#   transcripts/<tool>-<lab>.txt, raw/ (ncu CSVs and sanitizer logs of every lab).
set -u
OUT=${OUT:-/tmp/wb-out}
what=${1:-all}
mkdir -p "$OUT/transcripts" "$OUT/raw"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=${WORKBOOK_WORKSPACE:-/tmp/wb-profall-ws}
export W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook} OUT
runs="$WORKBOOK_WORKSPACE/.workbook/runs"
"$W" list --json | python3 -c 'import json,sys; print("\n".join(l["id"] for m in json.load(sys.stdin) for l in m["labs"]))' \
  >"$OUT/labs.txt"
# One lab under one tool: transcript, rc, the verdict line, and the tool's own output.
one() {
  local tool=$1 lab=$2 flag=$3 n
  n=$(echo "$lab" | tr / _)
  timeout 240 "$W" run "$lab" --solution --yes --quick --no-predict "$flag" >"$OUT/transcripts/$tool-$n.txt" 2>&1
  local rc=$?
  local verdict
  verdict=$(grep -m1 -E "^Verdict|Verdict:" "$OUT/transcripts/$tool-$n.txt" | tr -s ' ')
  echo "$tool $lab rc=$rc $verdict"
}
export -f one
# Compile every lab once (in parallel) so the tools' runs time only themselves.
xargs -P 8 -I{} bash -c 'timeout 300 "$W" run {} --solution --yes --quick --no-predict >/dev/null 2>&1; echo "warm {} rc=$?"' \
  <"$OUT/labs.txt" | sort >"$OUT/warm.txt"
if [ "$what" = sanitize ] || [ "$what" = all ]; then
  xargs -P 6 -I{} bash -c 'one memcheck {} --sanitize' <"$OUT/labs.txt" | sort | tee -a "$OUT/steps.txt"
  for spec in racecheck:module13/dot_reduction racecheck:module14/tiled_gemm synccheck:module13/dot_reduction \
              initcheck:module04/vecadd_roofline racecheck:module20/wmma_gemm; do
    one "${spec%%:*}" "${spec#*:}" "--sanitize=${spec%%:*}" | tee -a "$OUT/steps.txt"
  done
  cp "$runs"/*.sanitizer.txt "$OUT/raw/" 2>/dev/null
fi
if [ "$what" = ncu ] || [ "$what" = all ]; then
  # One lab at a time: two ncu processes on one GPU fail ("a driver resource was
  # unavailable", session 6: module15/matvec's run-95 exited with code 9).
  xargs -P 1 -I{} bash -c 'one ncu {} --ncu' <"$OUT/labs.txt" | sort | tee -a "$OUT/steps.txt"
  cp "$runs"/*.ncu.csv "$OUT/raw/" 2>/dev/null
fi
# Keep the raw files small enough to come back: drop any over 200 KB (say which).
find "$OUT/raw" -size +200k -printf 'dropped (over 200 KB): %f %s\n' -delete | tee -a "$OUT/steps.txt"
echo "done" | tee -a "$OUT/steps.txt"
