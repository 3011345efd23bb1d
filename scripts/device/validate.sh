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
