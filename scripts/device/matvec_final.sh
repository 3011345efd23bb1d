#!/usr/bin/env bash
# Issue 9 (study 7, lab check): module15/matvec's solution with wb::time_kernel_graph,
# 3 runs, then ncu's gpu__time_duration of matvec_warp and of cuBLAS's gemv (25 launches
# each), then `dev check --run module15` and two profiler re-checks (skip_check). Packs
# $OUT/final.tgz after every step, so a time-out still brings back what finished.
#   scripts/device/matvec_final.sh
set -u
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-final; rm -rf "$d"; mkdir -p "$d"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-final-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
pack() { echo "$1" >>"$d/steps.txt"; tar czf "$OUT/final.tgz" -C "$d" .; }
nvcc -O3 -arch=sm_90 -I labs/common solutions/module15/matvec.cu -o "$d/matvec" -lcublas 2>"$d/nvcc.txt"
for k in 1 2 3; do WORKBOOK_RESULTS=$d/run$k.jsonl timeout 60 "$d/matvec" seed=$k >"$d/run$k.txt" 2>&1; done
pack "runs done"
for k in matvec_warp gemv; do
  timeout 60 ncu --csv --page raw --clock-control none --print-kernel-base function --metrics gpu__time_duration.sum \
    -k "regex:$k" -c 25 "$d/matvec" seed=1 >"$d/ncu-$k.csv" 2>"$d/ncu-$k.err"
  pack "ncu $k rc=$?"
done
WB_PROFILER=ncu timeout 60 "$W" run module02/warps --solution --yes --quick --no-predict --ncu >"$d/ncu-module02.txt" 2>&1
pack "ncu module02 rc=$?"
WB_PROFILER=sanitize timeout 60 "$W" run module03/device_query --solution --yes --quick --no-predict --sanitize >"$d/memcheck-module03.txt" 2>&1
pack "memcheck module03 rc=$?"
timeout 150 "$W" dev check --run --only module15/matvec >"$d/devcheck-module15.txt" 2>&1
pack "dev check module15 rc=$?"
