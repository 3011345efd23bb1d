#!/usr/bin/env bash
# Session 7: the two labs whose ranges changed for --quick (module14/tiled_gemm_sizes,
# module15/matvec), proven again at both sizes: the quick solution twice each, then
# `dev check --run` at the default sizes (solution passes, starter fails, every wrong
# and slow variant gives its declared verdict). Packs $OUT/recheck7.tgz after each step.
set -u
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-recheck7; rm -rf "$d"; mkdir -p "$d"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-recheck7-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
pack() { echo "$1" | tee -a "$d/steps.txt"; tar czf "$OUT/recheck7.tgz" -C "$d" .; }
for lab in module14/tiled_gemm_sizes module15/matvec; do
  n=$(echo "$lab" | tr / _)
  for i in 1 2; do
    timeout 150 "$W" run "$lab" --solution --yes --quick --no-predict </dev/null >"$d/quick-$n-$i.txt" 2>&1
    pack "$lab quick try $i rc=$? $(grep -m1 Verdict "$d/quick-$n-$i.txt" | cut -c1-200)"
  done
  timeout 280 "$W" dev check --run --only "$lab" </dev/null >"$d/devcheck-$n.txt" 2>&1
  pack "dev check --run $lab rc=$? $(tail -1 "$d/devcheck-$n.txt")"
done
pack done
