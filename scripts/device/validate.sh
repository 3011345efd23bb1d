#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/validation/README.md): builds nothing of the
# runner (the portable binary is carried in .carry/bin, see README.md), runs the labs by
# hand and through the runner, writes the validation report, and checks the solutions
# with compute-sanitizer and Nsight Compute. Everything lands in $OUT (at most 8 files).
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-workspace
W=${WORKBOOK_BIN:-.carry/bin/workbook}
log=$OUT/steps.txt
step() { echo "== $*" | tee -a "$log"; }

step "device"
nvidia-smi --query-gpu=name,compute_cap,uuid,driver_version,clocks.sm,clocks.max.sm,memory.total,power.draw \
  --format=csv 2>&1 | tee -a "$log"
"$W" --version 2>&1 | tee -a "$log"

step "by hand, as on Colab: nvcc then run"
nvcc -O3 -arch=native -lineinfo -I labs/common solutions/module14/tiled_gemm.cu -o /tmp/tg_sol 2>&1 | tee -a "$log"
/tmp/tg_sol >"$OUT/byhand.txt" 2>&1; echo "solution by hand rc=$?" | tee -a "$log"
nvcc -O3 -arch=native -I labs/common labs/module14/tiled_gemm.cu -o /tmp/tg_start 2>&1 | tee -a "$log"
/tmp/tg_start >>"$OUT/byhand.txt" 2>&1; echo "starter by hand rc=$? (expected 1)" | tee -a "$log"

step "runner: solution with predictions and an explanation"
"$W" run module14/tiled_gemm --solution --predict speedup=3 --predict reason=1 \
  --explain "Tiled reads 16x less from L2/DRAM but is bound by shared-memory loads and barriers" \
  >"$OUT/run_solution.txt" 2>&1; echo "run --solution rc=$? (expected 0)" | tee -a "$log"
"$W" run module14/tiled_gemm --no-predict --json >"$OUT/run_starter.json" 2>&1
echo "run starter rc=$? (expected 1)" | tee -a "$log"
for i in 1 2 3; do
  "$W" run module14/tiled_gemm --solution --no-predict --json >>"$OUT/solution_repeats.json" 2>&1
  echo "repeat $i rc=$?" | tee -a "$log"
done

step "runner: dev check --run"
"$W" dev check --run --report "$OUT/H200.md" >>"$log" 2>&1; echo "dev check rc=$? (expected 0)" | tee -a "$log"

step "compute-sanitizer (memcheck, racecheck) and ncu on the solution"
{
  compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 5 /tmp/tg_sol N=256; echo "memcheck rc=$?"
  compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 5 /tmp/tg_sol N=128; echo "racecheck rc=$?"
  ncu --csv --page raw --clock-control none -k regex:matmul -c 12 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active \
    /tmp/tg_sol N=1024; echo "ncu rc=$?"
} >"$OUT/tools.txt" 2>&1
tail -3 "$OUT/tools.txt" | tee -a "$log"
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
