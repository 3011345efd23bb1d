#!/usr/bin/env bash
# `dev check --run --quick` lab by lab: does every starter and known-wrong variant still
# FAIL at the quick sizes a learner iterates with (a PASS there would teach the mistake),
# and which slow variants stay out of range? Compiles everything first (-j 16), then runs
# one lab at a time, packing $OUT/quick_devcheck.tgz after each (rows.txt: every row).
#   scripts/device/quick_devcheck.sh
set -u
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-qdc; rm -rf "$d"; mkdir -p "$d/labs"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-qdc-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
pack() { echo "$1" | tee -a "$d/steps.txt"; tar czf "$OUT/quick_devcheck.tgz" -C "$d" .; }
t0=$(date +%s)
timeout 240 "$W" dev check --quick -j 16 </dev/null >"$d/compile.txt" 2>&1
pack "compile rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 "$d/compile.txt")"
"$W" list --json | python3 -c 'import json,sys; print("\n".join(l["id"] for m in json.load(sys.stdin) for l in m["labs"]))' \
  | grep -v multi_gpu >"$d/labs.txt"
while read -r lab; do
  n=$(echo "$lab" | tr / _)
  timeout 150 "$W" dev check --run --quick --only "$lab" </dev/null >"$d/labs/$n.txt" 2>&1
  rc=$?
  grep -E "^ +[A-Za-z!]" "$d/labs/$n.txt" >>"$d/rows.txt"
  pack "$lab rc=$rc: $(tail -1 "$d/labs/$n.txt")"
done <"$d/labs.txt"
pack done
