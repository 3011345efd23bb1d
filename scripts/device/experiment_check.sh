#!/usr/bin/env bash
# Issue 29 on the GPU machine: `workbook experiment run --trace` over two real CUDA
# programs, examples/experiment/train_loop.cu built in FP32 and in BF16, with
# examples/experiment/train_precision.yaml. Writes the run's JSON, the `experiment show`
# text, the report (Markdown + SVG curves) and a plain run's JSON, packed after each step
# into $OUT/experiment_check.tgz (default /tmp/wb-out), and prints the lines to paste into
# docs/validation/H200-measurements.md.
#   scripts/device/experiment_check.sh
set -u
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-experiment-out; rm -rf "$d"; mkdir -p "$d" "$OUT"
pack() { tar czf "$OUT/experiment_check.tgz" -C "$d" .; }
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1
export WORKBOOK_WORKSPACE=${WORKBOOK_WORKSPACE:-/tmp/wb-experiment-ws}
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
[ -x "$W" ] || W=$PWD/build/dev/runner/workbook
[ -x "$W" ] || { echo "experiment_check: no workbook binary (set WORKBOOK_BIN)" >&2; exit 2; }
ws=$WORKBOOK_WORKSPACE
mkdir -p "$ws/bin" "$ws/experiments"
echo "runner: $W   workspace: $ws   nvcc: $(nvcc --version | tail -1)"

for p in fp32 bf16; do
  flag=""; [ "$p" = bf16 ] && flag="-DTRAIN_BF16"
  nvcc -O3 -arch=native $flag examples/experiment/train_loop.cu -o "$ws/bin/train_$p" >"$d/build-$p.txt" 2>&1 \
    || { echo "experiment_check: nvcc failed for $p (see $d/build-$p.txt)"; cat "$d/build-$p.txt"; exit 3; }
done
cp examples/experiment/train_precision.yaml "$ws/experiments/train_precision.yaml"

# A plain run first (timings without the tracing's cost), then the traced one.
"$W" experiment run train_precision -p speedup=1.8 -p bound=1 --json \
  --explain "BF16 halves the bytes of the two passes over the samples; both passes are memory-bound" \
  </dev/null >"$d/run.json" 2>"$d/run.err"
echo "experiment run: rc=$?" | tee -a "$d/steps.txt"; pack
"$W" experiment run train_precision --no-predict --trace --json </dev/null >"$d/run-trace.json" 2>"$d/run-trace.err"
echo "experiment run --trace: rc=$?" | tee -a "$d/steps.txt"; pack
"$W" experiment show train_precision >"$d/show-trace.txt" 2>&1
"$W" experiment show train_precision --run "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$d/run.json" 2>/dev/null || echo 1)" >"$d/show.txt" 2>&1
"$W" report --out "$d/report" >"$d/report.txt" 2>&1
echo "report: rc=$? files: $(ls "$d/report" | tr '\n' ' ')" | tee -a "$d/steps.txt"; pack
cat "$d/show.txt"
echo
cat "$d/show-trace.txt"
python3 - "$d/run.json" "$d/run-trace.json" <<'PY'
import json, sys
for path in sys.argv[1:]:
    try:
        j = json.load(open(path))
    except Exception as e:
        print(f"{path}: no JSON ({e})"); continue
    print(f"{path}: status={j['status']} traced={j['traced']} gpu={j['gpu']}")
    for v in j["variants"]:
        f = v["figures"]
        ms = f.get("step_ms", {})
        print(f"  {v['name']:<5} step_ms median={ms.get('median')} spread={ms.get('spread')} "
              f"ratio={ms.get('ratio_to_baseline')} val_loss={f.get('val_loss', {}).get('median')} "
              f"kernels={[k['name'] for k in v['kernels']][:4]}")
    for p in j["predictions"]:
        print(f"  prediction {p['name']}: {p['answer']} measured={p['measured']} {p['band']}")
PY
pack
