#!/usr/bin/env bash
# Runs on the lent GPU machine (issue 9, part 0): the harness's kernel timings against
# Nsight Compute's gpu__time_duration for the same binaries (the harness's default clock,
# CUPTI kernel durations, and CUDA events behind a hold kernel, WB_TIMING=events), run-to-run spread of the
# reported medians, and the runner's wall-time overhead. Writes $OUT/timing.md (the
# table for docs/validation/timing.md) and keeps the raw files in $OUT/timing/.
#   usage: scripts/device/timing_study.sh [RUNS]     (RUNS runs per lab, default 5)
set -u
OUT=${OUT:-/tmp/wb-out}
RUNS=${1:-5}
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
dir=/tmp/wb-timing; rm -rf "$dir"; mkdir -p "$dir" "$OUT"
# LABS="module15/matvec" limits the study to some of them.
read -r -a labs <<<"${LABS:-module04/vecadd_roofline module14/tiled_gemm module15/matvec module12/coalescing}"
libs() { [ "$1" = module15/matvec ] && echo -lcublas; }

# ncu's kernel durations for one study binary: ncu_times NAME TAG [extra ncu options]
# writes $dir/NAME.TAG.csv (and .err).
#
# How many launches ncu profiles (issue 14: last session this step ran past the limit).
# module15/matvec times its warp kernel and cuBLAS gemv as replays of CUDA graphs of up to
# 512 launches each (wb::time_kernel_graph), and ncu profiles a graph's kernel nodes one by
# one. What the study needs from ncu is a per-kernel duration over a timing loop of at
# least 8 launches (timing_study.py's matching), for every kernel of STUDY. So:
#   - not WB_PROFILER=ncu: the binary would then take ONE sample per figure, so no timing
#     loop would reach the 8 launches timing_study.py looks for, and ncu would no longer
#     see the loops whose figures it is compared with;
#   - not --graph-profiling graph: each graph would become one result with no kernel
#     name, so warp_ms and cublas_ms (study 7's comparison) would have no ncu figure, and
#     graph time / launches cannot be matched either (the harness picks the count at run
#     time and does not report it);
#   - instead, graph nodes stay kernels (--graph-profiling node, ncu's default, written
#     out) and the launch cap counts per launch configuration (kernel, grid, block):
#     NCU_LAUNCHES (40, as study 7's own ncu run) of each; one -c 600 shared by all of
#     them runs out inside matvec's warp graphs (512 nodes a replay) before any gemv
#     launch, by the count of launches in the lab's code. Profiling stops there and
#     the rest of the binary runs unprofiled. NCU_TIMEOUT (seconds, default 150) bounds a
#     run all the same, so one slow lab cannot eat the study's time: SIGINT first (ncu
#     then shuts its target down and may still print what it profiled), SIGKILL 20 s on.
ncu_times() {
  local b=$1 tag=$2; shift 2
  timeout --signal=INT --kill-after=20 "${NCU_TIMEOUT:-150}" \
    ncu --csv --page raw --clock-control none "$@" --print-kernel-base function --metrics gpu__time_duration.sum \
    -k 'regex:^(vecadd|matmul_naive|matmul_tiled|matvec_row|matvec_warp|copy_row_wise|copy_col_wise|.*gemv.*)$' \
    --graph-profiling node --filter-mode per-launch-config -c "${NCU_LAUNCHES:-40}" \
    "$dir/$b" seed=1 >"$dir/$b.$tag.csv" 2>"$dir/$b.$tag.err" || echo "$b $tag rc=$?"
}

# Build the solutions by hand, in parallel (the same nvcc line a learner uses).
for lab in "${labs[@]}"; do
  nvcc -O3 -arch=sm_90 -I labs/common "solutions/$lab.cu" -o "$dir/${lab#*/}" $(libs "$lab") &
done
wait

# SETTLE_ONLY=1 skips the main comparison (the settle sweep and the probe only).
for lab in "${labs[@]}"; do
  [ -n "${SETTLE_ONLY:-}" ] && break
  b=${lab#*/}
  for k in $(seq 1 "$RUNS"); do
    WORKBOOK_RESULTS=$dir/$b.run$k.jsonl "$dir/$b" seed=$k >/dev/null 2>&1 || echo "$b run $k rc=$?"
  done
  WB_TIMING=events WORKBOOK_RESULTS=$dir/$b.events.jsonl "$dir/$b" seed=1 >/dev/null 2>&1 || echo "$b events rc=$?"
  # ncu flushes the caches before every profiled launch (--cache-control all, its default).
  ncu_times "$b" ncu
  # The same with ncu's own flush off: each profiled launch then sees the caches exactly as
  # the harness leaves them (its read flush before a cold sample), so any difference left
  # is the clock, not the conditions.
  ncu_times "$b" ncu_nocache --cache-control none
done

# Settling after the flush (WB_SETTLE_US: the GPU idles that long between the flush and
# the timed launch), three runs each: does the memory system still drain the flush's
# write-backs when the launch starts?
for us in ${SETTLE_VALUES:-0 2 10 50 200}; do
  for k in 1 2 3; do
    for b in ${SETTLE_LABS:-vecadd_roofline matvec}; do
      WB_SETTLE_US=$us WORKBOOK_RESULTS=$dir/$b.settle$us.run$k.jsonl "$dir/$b" seed=$k >/dev/null 2>&1 || echo "$b settle $us rc=$?"
    done
  done
done

# Short kernels, where caches cannot matter: the offset between the two instruments.
nvcc -O3 -arch=sm_90 -I labs/common scripts/device/probes/short_kernels.cu -o "$dir/short_kernels" &&
  { "$dir/short_kernels" >"$dir/short_kernels.txt" 2>&1
    ncu --csv --page raw --clock-control none --print-kernel-base function --metrics gpu__time_duration.sum \
      -k 'regex:^probe_' -c 400 "$dir/short_kernels" >"$dir/short_kernels.ncu.csv" 2>"$dir/short_kernels.ncu.err"; }

# Wall time: the bare binary vs a warm `workbook run --no-predict` of the same solution.
if [ -x "$W" ] && [ -x "$dir/tiled_gemm" ]; then
  "$W" run module14/tiled_gemm --solution --yes --no-predict --json >/dev/null 2>&1  # builds and caches
  python3 - "$dir/tiled_gemm" "$W" >"$dir/wall.txt" <<'PY'
import subprocess, sys, time
bare, runner = sys.argv[1], sys.argv[2]
for _ in range(3):
    for name, cmd in (("bare", [bare]), ("runner", [runner, "run", "module14/tiled_gemm", "--solution", "--yes", "--no-predict"])):
        t = time.perf_counter(); subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(name, time.perf_counter() - t)
PY
fi
python3 scripts/device/timing_study.py "$dir" >"$OUT/timing.md"
cat "$OUT/timing.md"
tar czf "$OUT/timing_raw.tgz" -C "$dir" .
