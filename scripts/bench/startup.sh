#!/usr/bin/env bash
# How long the everyday commands take to answer: each command's median wall time over
# RUNS runs (default 10, after one warm-up run that fills the course outline's cache),
# beside `workbook --help` (the process start, CLI11 and the linker: the floor). Not a
# timed test: figures depend on the machine; docs/maintaining.md's performance section quotes them.
#   scripts/bench/startup.sh [WORKBOOK_BINARY]    (default build/dev/runner/workbook)
# The workspace and the cache are fresh temporary folders, so a learner's journal is never
# touched; set RUNS=N for more runs. SEED=DIR copies the workspace DIR (its journal) into
# the temporary one first: the figures for a learner with runs and predictions recorded.
set -eu
bin=${1:-build/dev/runner/workbook}
[ -x "$bin" ] || { echo "no workbook binary at $bin: build it (cmake --build --preset dev) or pass its path" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export WORKBOOK_WORKSPACE=$tmp/ws WORKBOOK_CACHE_DIR=$tmp/cache NO_COLOR=1 RUNS=${RUNS:-10}
mkdir -p "$WORKBOOK_WORKSPACE"
if [ -n "${SEED:-}" ]; then
  [ -d "$SEED/.workbook" ] || { echo "SEED=$SEED is not a workspace (no .workbook/ in it)" >&2; exit 2; }
  cp -r "$SEED/." "$WORKBOOK_WORKSPACE/"
fi
python3 - "$bin" <<'PY'
import os, statistics, subprocess, sys, time
binary = sys.argv[1]
runs = int(os.environ["RUNS"])
commands = [["--help"], ["list"], ["progress"], ["next"], ["show", "module01", "--no-pager"], []]
seed = os.environ.get("SEED")
print(f"{binary}: median of {runs} runs (ms), after one warm-up run"
      + (f", workspace copied from {seed}" if seed else ", empty workspace"))
print(f"{'command':<32}{'median':>8}{'min':>8}{'max':>8}{'- --help':>10}")
floor = None
for args in commands:
    def once():
        t = time.perf_counter()
        r = subprocess.run([binary] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        ms = (time.perf_counter() - t) * 1000
        if r.returncode != 0:
            sys.exit(f"workbook {' '.join(args)} exited {r.returncode}: {r.stderr.decode(errors='replace')[:300]}")
        return ms
    once()
    times = [once() for _ in range(runs)]
    median = statistics.median(times)
    if floor is None:
        floor = median
    name = "workbook " + " ".join(args) if args else "workbook (bare)"
    print(f"{name:<32}{median:8.1f}{min(times):8.1f}{max(times):8.1f}{median - floor:10.1f}")
PY
