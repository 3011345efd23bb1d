#!/usr/bin/env bash
# Every lab's reference solution at its quick sizes, one at a time on an otherwise idle
# GPU: a correct solution must PASS under --quick as it does at the default sizes (the
# ranges are evaluated at the quick values). A lab that does not pass is run a second
# time, so one noisy sample is told apart from a range that is wrong at that size.
#   scripts/device/quick_all.sh
# Needs the portable runner in .carry/bin/. Packs $OUT/quick_all.tgz after every lab:
# steps.txt (lab, rc, seconds, verdict) and transcripts/.
set -u
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-quick; rm -rf "$d"; mkdir -p "$d/transcripts"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-quick-ws
export W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
log=$d/steps.txt
pack() { echo "$1" | tee -a "$log"; tar czf "$OUT/quick_all.tgz" -C "$d" .; }
"$W" list --json | python3 -c 'import json,sys; print("\n".join(l["id"] for m in json.load(sys.stdin) for l in m["labs"]))' \
  | grep -v multi_gpu >"$d/labs.txt"
# Compile in parallel (these runs share the GPU, so their verdicts are not kept).
t0=$(date +%s)
xargs -P 8 -I{} sh -c 'timeout 300 "$W" run {} --solution --yes --quick --no-predict >/dev/null 2>&1' <"$d/labs.txt"
pack "compiled $(wc -l <"$d/labs.txt") labs in $(( $(date +%s) - t0 )) s"
one() {  # one LAB TRY
  local n t0 rc
  n=$(echo "$1" | tr / _)-$2
  t0=$(date +%s)
  timeout 120 "$W" run "$1" --solution --yes --quick --no-predict </dev/null >"$d/transcripts/$n.txt" 2>&1
  rc=$?
  pack "$1 try $2 rc=$rc $(( $(date +%s) - t0 )) s; $(grep -m1 'Verdict' "$d/transcripts/$n.txt" | cut -c1-300)"
  return $rc
}
while read -r lab; do
  one "$lab" 1 || one "$lab" 2
done <"$d/labs.txt"
pack "done"
