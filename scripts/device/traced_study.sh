#!/usr/bin/env bash
# Timing probe (issue 9): does CUPTI's kernel tracing itself slow the cold vector add?
# Runs the module04 solution RUNS times under three clocks: the default kernel clock
# (CUPTI durations), events without CUPTI, and events while CUPTI traces anyway
# (WB_TIMING=events-traced). Prints "mode median-of-medians runs" lines to $OUT/traced.txt.
set -u
OUT=${OUT:-/tmp/wb-out}; RUNS=${1:-3}
export PATH=/usr/local/cuda/bin:$PATH
d=/tmp/wb-traced; rm -rf "$d"; mkdir -p "$d" "$OUT"
nvcc -O3 -arch=sm_90 -I labs/common solutions/module04/vecadd_roofline.cu -o "$d/va" || exit 1
for mode in kernels events events-traced; do
  for k in $(seq 1 "$RUNS"); do
    if [ "$mode" = kernels ]; then env -u WB_TIMING WORKBOOK_RESULTS="$d/$mode.$k.jsonl" "$d/va" seed=$k >/dev/null 2>&1
    else WB_TIMING=$mode WORKBOOK_RESULTS="$d/$mode.$k.jsonl" "$d/va" seed=$k >/dev/null 2>&1; fi
  done
done
PYTHONPATH=scripts/device python3 - "$d" >"$OUT/traced.txt" <<'PY'
import statistics, sys
from pathlib import Path
from timing_study import metrics  # the results-file reader of the main study
for mode in ("kernels", "events", "events-traced"):
    runs = [metrics(p) for p in sorted(Path(sys.argv[1]).glob(f"{mode}.*.jsonl"))]
    vals = [m["kernel_us"]["value"] for m in runs if "kernel_us" in m]
    print(mode, f"{statistics.median(vals):.2f}" if vals else "-", " ".join(f"{v:.2f}" for v in vals))
PY
cat "$OUT/traced.txt"
