#!/usr/bin/env bash
# Timing probe (issue 9, study 6): where does a warm `workbook run --no-predict` spend
# its time beyond the lab binary itself? Times, REPS times each (medians, seconds): the
# bare module14/tiled_gemm solution, the warm runner run of it, and the tools the runner
# starts on every run (nvidia-smi's GPU query, nvcc --version), and `workbook list`
# (loading every manifest). Writes $OUT/overhead.txt.
set -u
OUT=${OUT:-/tmp/wb-out}; REPS=${1:-7}
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=${WORKBOOK_WORKSPACE:-/tmp/wb-overhead}
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
mkdir -p "$OUT"
nvcc -O3 -arch=sm_90 -I labs/common solutions/module14/tiled_gemm.cu -o /tmp/tg_bare || exit 1
"$W" run module14/tiled_gemm --solution --yes --no-predict >/dev/null 2>&1  # builds and caches
python3 - "$W" "$REPS" >"$OUT/overhead.txt" <<'PY'
import statistics, subprocess, sys, time
w, reps = sys.argv[1], int(sys.argv[2])
cmds = {
    "bare lab": ["/tmp/tg_bare"],
    "workbook run --no-predict": [w, "run", "module14/tiled_gemm", "--solution", "--yes", "--no-predict"],
    "nvidia-smi GPU query": ["nvidia-smi", "--query-gpu=name,compute_cap,uuid,driver_version,memory.total",
                             "--format=csv,noheader,nounits"],
    "nvcc --version": ["nvcc", "--version"],
    "workbook list": [w, "list"],
}
times = {k: [] for k in cmds}
for _ in range(reps):
    for name, cmd in cmds.items():
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - t)
for name, v in times.items():
    print(f"{name}: median {statistics.median(v):.4f} s, min {min(v):.4f}, max {max(v):.4f} ({reps} runs)")
bare, runner = statistics.median(times["bare lab"]), statistics.median(times["workbook run --no-predict"])
print(f"runner / bare: {runner / bare:.3f}x")
PY
echo "processes visible: $(ls /proc | grep -c '^[0-9]')" >>"$OUT/overhead.txt"
cat "$OUT/overhead.txt"
