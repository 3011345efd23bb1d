#!/usr/bin/env bash
# Issue 25, "learner-written code that no check exercises", on the lent GPU: the labs this
# branch changed, with `dev check --run` (every solution passes and, where the manifest
# says `memcheck: quick`, is memcheck-clean; every starter and known-wrong variant fails:
# serial_grid_rounds_down, pinned_never_freed, convert_one_past_end,
# tree_reads_one_past_end, to_half_one_past_end, rng_init_unguarded, tree_reads_past_end),
# then what the memcheck pass costs: one run of each memcheck lab's solution, the lab's
# own wall time beside the pass's (the check's "[the pass took N s]"). Packs
# $OUT/bounds_check.tgz after each step (rows.txt: every row; cost.txt: the timings).
#   scripts/device/bounds_check.sh          every step
#   scripts/device/bounds_check.sh cost     the memcheck cost alone (validate.sh labs has
#                                           already run the dev checks)
set -u
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-bounds; rm -rf "$d"; mkdir -p "$d/labs"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-bounds-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
pack() { echo "$1" | tee -a "$d/steps.txt"; tar czf "$OUT/bounds_check.tgz" -C "$d" .; }
labs="module16/streams_pipeline module21/rounding module22/cublas_vs_mine module13/dot_reduction
module07/distance module14/conv1d"
only=""; for lab in $labs; do only="$only --only $lab"; done
mode=${1:-all}
t0=$(date +%s)
# shellcheck disable=SC2086
[ "$mode" = cost ] || timeout 300 "$W" dev check -j 16 $only </dev/null >"$d/compile.txt" 2>&1
pack "compile rc=$? $(( $(date +%s) - t0 )) s: $(tail -1 "$d/compile.txt" 2>/dev/null)"
for lab in $labs; do [ "$mode" = cost ] && break
  n=$(echo "$lab" | tr / _)
  t0=$(date +%s)
  timeout 590 "$W" dev check --run --only "$lab" </dev/null >"$d/labs/$n.txt" 2>&1
  rc=$?
  grep -E "^ +[A-Za-z!]" "$d/labs/$n.txt" >>"$d/rows.txt"
  pack "$lab rc=$rc $(( $(date +%s) - t0 )) s: $(tail -1 "$d/labs/$n.txt")"
done
for lab in module07/distance module13/dot_reduction module14/conv1d; do
  n=$(echo "$lab" | tr / _)
  "$W" run "$lab" --solution --yes --no-predict --json </dev/null >"$d/labs/$n.cost.json" 2>/dev/null
  python3 - "$lab" "$d/labs/$n.cost.json" >>"$d/cost.txt" <<'EOF'
import json, sys
lab, path = sys.argv[1], sys.argv[2]
try:
    j = json.load(open(path))
except Exception as e:
    print(f"{lab}: no JSON ({e})"); sys.exit()
c = [x for x in j.get("checks", []) if x.get("name") == "memcheck_quick"]
print(f"{lab}: verdict {j.get('verdict')}, lab run {j.get('process', {}).get('wall_s', 0):.1f} s (the graded run alone); memcheck_quick: "
      + (f"{'pass' if c[0].get('pass') else 'FAIL'}: {c[0].get('detail')}" if c else "absent"))
EOF
  pack "cost $lab: $(tail -1 "$d/cost.txt")"
done
pack done
