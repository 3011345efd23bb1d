#!/usr/bin/env bash
# Runs on the lent GPU machine. The runner is not built there: the portable binary is
# carried in .carry/bin (README: "Building for another machine"). It runs every lab
# through `workbook dev check --run` (the report is docs/validation/H200.md), one lab as a
# learner would, the tiled solution by hand under compute-sanitizer, and the device query
# and calibration with independent cross-checks. Everything lands in $OUT (<= 8 files).
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT"
# A workspace carried in .carry/ws holds lab binaries compiled ahead on the development
# machine (same nvcc, same cache keys), so the GPU's time goes to running, not compiling.
ws=/tmp/wb-workspace; [ -d .carry/ws ] && ws=$PWD/.carry/ws
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=$ws
W=${WORKBOOK_BIN:-.carry/bin/workbook}
log=$OUT/steps.txt
step() { echo "== $*" | tee -a "$log"; }

step "device"
nvidia-smi --query-gpu=name,compute_cap,uuid,driver_version,clocks.sm,clocks.max.sm,memory.total,power.draw \
  --format=csv 2>&1 | tee -a "$log"
"$W" --version 2>&1 | tee -a "$log"

# 1. Every lab: solutions must pass with every figure in range, starters must fail.
#    The report is written by the runner itself.
step "runner: dev check --run (report docs/validation/H200.md)"
mkdir -p docs/validation
"$W" dev check --run --report docs/validation/H200.md >>"$log" 2>&1; echo "dev check rc=$? (expected 0)" | tee -a "$log"
cp docs/validation/H200.md "$OUT/H200.md"

# 2. One interactive-style run with predictions and an explanation, as a learner makes it.
step "runner: module14/tiled_gemm --solution with predictions"
"$W" run module14/tiled_gemm --solution --predict speedup=3 --predict reason=1 \
  --explain "Both kernels are bound by load instructions; tiled needs 1.25 shared loads per FMA instead of 2 global ones" \
  >"$OUT/run_solution.txt" 2>&1; echo "run --solution rc=$? (expected 0)" | tee -a "$log"

# 3. By hand, as on Colab, plus compute-sanitizer on the tiled solution.
step "by hand: nvcc, run, compute-sanitizer"
{
  nvcc -O3 -arch=native -lineinfo -I labs/common solutions/module14/tiled_gemm.cu -o /tmp/tg_sol && /tmp/tg_sol N=512
  echo "solution by hand rc=$?"
  compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 /tmp/tg_sol N=128 >/dev/null; echo "memcheck rc=$?"
  compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 5 /tmp/tg_sol N=128 >/dev/null; echo "racecheck rc=$?"
} >"$OUT/tools.txt" 2>&1
grep -E 'rc=' "$OUT/tools.txt" | tee -a "$log"

step "device query and calibration (issue 3), with independent cross-checks"
{
  "$W" device; echo "device rc=$? (expected 0)"
  "$W" device --calibrate --json >/tmp/wb-cal.json 2>/tmp/wb-cal.err; echo "device --calibrate rc=$? (0; 1 = a cross-check failed)"
  cat /tmp/wb-cal.json; tail -5 /tmp/wb-cal.err
  "$W" device --json >/tmp/wb-dev.json 2>&1; echo "device --json rc=$?"
  "$W" show module14/tiled_gemm; echo "show rc=$?"
  nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv
  # Independent measurements: the FP32 ceiling from SMs x 128 lanes x the max SM clock;
  # torch (cuBLAS SGEMM, TF32 off; a tensor copy) when it is installed.
  python3 - <<'PY'
import json, subprocess
cal = json.load(open("/tmp/wb-cal.json")); dev = json.load(open("/tmp/wb-dev.json"))
f = {x["name"]: x["value"] for x in cal["figures"]}
q = dev["query"]
ceiling = 2 * q["sm_count"] * 128 * q["sm_clock_khz"] * 1e3 / 1e12
print(f"cross-check d2d copy kernel {f['d2d_gbps']:.0f} vs cudaMemcpy {f['memcpy_d2d_gbps']:.0f} GB/s: "
      f"{abs(f['d2d_gbps'] / f['memcpy_d2d_gbps'] - 1) * 100:.1f} % apart")
print(f"cross-check fp32 {f['fp32_tflops']:.2f} vs 2*SMs*128*max clock {ceiling:.2f} TFLOP/s: {f['fp32_tflops'] / ceiling * 100:.1f} %")
print(f"theoretical DRAM (2*mem clock*bus/8) {q['dram_gbps']:.0f} GB/s; measured d2d {f['d2d_gbps'] / q['dram_gbps'] * 100:.1f} % of it")
try:
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    n = 8192
    a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
    for _ in range(3): a @ b
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for _ in range(10):
        s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); sgemm = 2 * n**3 / (ts[len(ts) // 2] * 1e-3) / 1e12
    print(f"cross-check cuBLAS SGEMM {n}^3 {sgemm:.2f} TFLOP/s vs FMA probe {f['fp32_tflops']:.2f}: {sgemm / f['fp32_tflops'] * 100:.1f} %")
    x = torch.randn(256 * 2**20, device="cuda"); y = torch.empty_like(x)
    for _ in range(3): y.copy_(x)
    ts = []
    for _ in range(20):
        s.record(); y.copy_(x); e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); bw = 2 * x.numel() * 4 / (ts[len(ts) // 2] * 1e-3) / 1e9
    print(f"cross-check torch copy 1 GiB {bw:.0f} GB/s vs d2d {f['d2d_gbps']:.0f}: {abs(bw / f['d2d_gbps'] - 1) * 100:.1f} % apart")
except Exception as ex:
    print("torch cross-check skipped:", ex)
PY
  echo "cross-check rc=$?"
  nvcc -O3 -arch=native -I labs/common labs/common/probes/calibrate.cu -o /tmp/wb-calibrate
  /tmp/wb-calibrate quick=1 >/tmp/wb-cal-hand.txt 2>&1; echo "calibrate by hand (quick) rc=$?"; tail -4 /tmp/wb-cal-hand.txt
} >>"$log" 2>&1
grep -E 'rc=|cross-check' "$log" | tail -12
