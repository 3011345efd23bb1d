#!/usr/bin/env bash
# Timing probe (issue 9, studies 4 and 5): what does CUPTI's kernel tracing do to the
# kernels it times? Runs the timing study's four solutions RUNS times under five clocks:
#   kernels                   the default kernel clock (CUPTI's serialising kernel records)
#   concurrent                the kernel clock from CUPTI's concurrent-kernel records
#   events                    CUDA events, CUPTI not loaded
#   events-traced             events while CUPTI records the kernels (serialising kind)
#   events-traced-concurrent  events while CUPTI records them with the concurrent kind
# (study 5 ran before the default changed, when "kernels" meant the concurrent kind.)
# and the probe scripts/device/probes/tracing_cost.cu (a one-element-per-thread and a
# grid-stride vector add) under the same clocks and under ncu. Writes $OUT/traced.txt:
# "lab metric mode median runs..." lines, the probe's lines, and ncu's probe medians.
set -u
OUT=${OUT:-/tmp/wb-out}; RUNS=${1:-3}
export PATH=/usr/local/cuda/bin:$PATH
d=/tmp/wb-traced; rm -rf "$d"; mkdir -p "$d" "$OUT"
labs=(module04/vecadd_roofline module15/matvec module14/tiled_gemm module12/coalescing)
modes=(kernels concurrent events events-traced events-traced-concurrent)
for lab in "${labs[@]}"; do
  extra=; [ "$lab" = module15/matvec ] && extra=-lcublas
  nvcc -O3 -arch=sm_90 -I labs/common "solutions/$lab.cu" -o "$d/${lab#*/}" $extra &
done
nvcc -O3 -arch=sm_90 -I labs/common scripts/device/probes/tracing_cost.cu -o "$d/tracing_cost" &
wait
for mode in "${modes[@]}"; do
  for k in $(seq 1 "$RUNS"); do
    for lab in "${labs[@]}"; do
      b=${lab#*/}
      if [ "$mode" = kernels ]; then env -u WB_TIMING WORKBOOK_RESULTS="$d/$b.$mode.$k.jsonl" "$d/$b" seed=$k >/dev/null 2>&1
      else WB_TIMING=$mode WORKBOOK_RESULTS="$d/$b.$mode.$k.jsonl" "$d/$b" seed=$k >/dev/null 2>&1; fi
    done
    if [ "$mode" = kernels ]; then env -u WB_TIMING "$d/tracing_cost" >"$d/probe.$mode.$k.txt" 2>&1
    else WB_TIMING=$mode "$d/tracing_cost" >"$d/probe.$mode.$k.txt" 2>&1; fi
  done
done
ncu --csv --page raw --clock-control none --print-kernel-base function --metrics gpu__time_duration.sum \
  -k 'regex:^probe_add' -c 1000 "$d/tracing_cost" >"$d/probe.ncu.csv" 2>"$d/probe.ncu.err"
PYTHONPATH=scripts/device python3 - "$d" "${modes[@]}" >"$OUT/traced.txt" <<'PY'
import statistics, sys
from pathlib import Path
from timing_study import STUDY, metrics, ncu_runs  # the main study's readers
folder, modes = Path(sys.argv[1]), sys.argv[2:]
fmt = lambda vals: (f"{statistics.median(vals):.2f} " if vals else "- ") + " ".join(f"{v:.2f}" for v in vals)
for stem, rows in STUDY.items():
    for metric, _kernel, scale in rows:
        for mode in modes:
            runs = [metrics(p) for p in sorted(folder.glob(f"{stem}.{mode}.*.jsonl"))]
            print(stem, metric, mode, fmt([m[metric]["value"] * scale for m in runs if metric in m]))
for mode in modes:
    per = {}
    for p in sorted(folder.glob(f"probe.{mode}.*.txt")):
        for line in p.read_text(errors="replace").splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0].startswith("probe_add"):
                per.setdefault(parts[0], []).append(float(parts[1]))
    for name, vals in per.items():
        print(name, "-", mode, fmt(vals))
for kernel, _config, times in ncu_runs(folder / "probe.ncu.csv"):
    if len(times) >= 8:
        print(kernel, "-", "ncu", fmt([statistics.median(times[3:])]))
PY
cat "$OUT/traced.txt"
tar czf "$OUT/traced_raw.tgz" -C "$d" .
