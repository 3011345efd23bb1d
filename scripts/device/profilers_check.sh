#!/usr/bin/env bash
# GPU validation of `workbook run --trace | --ncu | --sanitize` and the clock lines
# (issue 14). Runs on the lent GPU machine in one call (about 5-8 minutes):
#   scripts/device/profilers_check.sh
# Needs the portable runner in .carry/bin/workbook (README, "Building for another
# machine") and the CUPTI injection library built beside it
# (build/portable/runner/libworkbook_trace.so, copied to .carry/bin/; else any
# libworkbook_trace.so under .carry/ is used through WORKBOOK_TRACE_LIB).
# Writes under $OUT:
#   profilers-steps.txt            every step with its exit status (expected one beside it)
#   transcripts/<what>.txt         the terminal report of each run (docs/validation material)
#   json/<what>.json               the same runs' --json for module08/12/13/14/16/17
#   raw/                           the tools' own outputs, to become tests/fixtures/profile:
#                                  ncu CSVs, sanitizer logs, trace files, nvidia-smi answers
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT/transcripts" "$OUT/json" "$OUT/raw"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-prof-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
if [ ! -f "$(dirname "$W")/libworkbook_trace.so" ]; then
  lib=$(find "$PWD/.carry" -name libworkbook_trace.so 2>/dev/null | head -1)
  [ -n "$lib" ] && export WORKBOOK_TRACE_LIB=$lib
fi
log=$OUT/profilers-steps.txt
: >"$log"
step() { echo "== $*" | tee -a "$log"; }
runs="$WORKBOOK_WORKSPACE/.workbook/runs"
# Runs one command with its transcript; logs "NAME rc=N (expected E)".
run() {
  local name=$1 expected=$2; shift 2
  timeout 300 "$@" >"$OUT/transcripts/$name.txt" 2>&1
  local rc=$?
  echo "$name rc=$rc (expected $expected)" | tee -a "$log"
  return 0
}
# The newest file of a kind in the runs folder, copied to raw/NAME.
keep_latest() { local f; f=$(ls -t "$runs"/*."$1" 2>/dev/null | head -1); [ -n "$f" ] && cp "$f" "$OUT/raw/$2"; }

step "tools and fields"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  ncu --version; compute-sanitizer --version | head -3
  nvidia-smi --help-query-gpu | grep -iE "^\"?clocks|reason" | head -60
} >"$OUT/raw/tools.txt" 2>&1
for f in "clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,clocks_event_reasons.active,temperature.gpu,power.draw,pstate" \
         "clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,clocks_throttle_reasons.active,temperature.gpu,power.draw,pstate"; do
  nvidia-smi --query-gpu=$f --format=csv,nounits >>"$OUT/raw/nvidia_smi_clocks.csv" 2>&1
  echo "rc=$?" >>"$OUT/raw/nvidia_smi_clocks.csv"
done
ls -l "$W" "$(dirname "$W")"/libworkbook_trace.so ${WORKBOOK_TRACE_LIB:-} 2>&1 | tee -a "$log"

step "no tool: --ncu with WORKBOOK_NCU pointing nowhere must be exit 2"
WORKBOOK_NCU=/nonexistent/ncu run ncu_missing 2 "$W" run module12/coalescing --solution --yes --quick --no-predict --ncu

step "--trace on every lab that has a solution (quick sizes, 8 at a time; the first of each compiles it)"
labs=$(python3 -c 'import json,sys; print(" ".join(l["id"] for m in json.load(sys.stdin) for l in m["labs"]))' < <("$W" list --json))
echo "$labs" | tr ' ' '\n' | grep -v '^$' >"$OUT/raw/labs.txt"
export W OUT
xargs -P 8 -I{} bash -c 'n=$(echo {} | tr / _); timeout 200 "$W" run {} --solution --yes --quick --no-predict --trace \
  >"$OUT/transcripts/trace-$n.txt" 2>&1; echo "trace {} rc=$?"' <"$OUT/raw/labs.txt" | sort | tee -a "$log"
grep -L "Trace (CUPTI)" "$OUT"/transcripts/trace-*.txt | sed 's/^/no trace summary: /' | tee -a "$log"

step "--trace alone on the pipeline and the graph (JSON and the trace files)"
for lab in module16/streams_pipeline module17/heat_graph module08/profile_vecadd; do
  n=${lab//\//_}
  run "trace-full-$n" 0 "$W" run "$lab" --solution --yes --no-predict --trace
  keep_latest trace.jsonl "trace-$n.jsonl"
done
timeout 300 "$W" run module16/streams_pipeline --solution --yes --no-predict --trace --json >"$OUT/json/trace-module16.json" 2>&1
echo "trace --json module16 rc=$?" | tee -a "$log"

step "--ncu: module12 coalescing (sectors per request 4 vs 32), module14 (requests, DRAM bytes), module08 (occupancy)"
for lab in module12/coalescing module14/tiled_gemm module08/profile_vecadd; do
  n=${lab//\//_}
  run "ncu-$n" 0 "$W" run "$lab" --solution --yes --quick --no-predict --ncu
  keep_latest ncu.csv "ncu-$n.csv"
done
timeout 300 "$W" run module12/coalescing --solution --yes --quick --no-predict --ncu --json >"$OUT/json/ncu-module12.json" 2>&1
echo "ncu --json module12 rc=$?" | tee -a "$log"
run ncu-sections-module12 0 "$W" run module12/coalescing --solution --yes --quick --no-predict --ncu=SpeedOfLight,dram__bytes_write.sum
keep_latest ncu.csv "ncu-sections-module12.csv"

step "--sanitize: module13 (clean), racecheck on a missing barrier, an out-of-bounds write (must fail)"
run sanitize-module13 0 "$W" run module13/dot_reduction --solution --yes --quick -p RUNS=3 --no-predict --sanitize
keep_latest sanitizer.txt sanitizer-memcheck-clean.txt
run sanitize-racecheck-missing-barrier 1 "$W" run module13/dot_reduction --variant missing_loop_barrier --quick -p RUNS=3 --no-predict --sanitize=racecheck
keep_latest sanitizer.txt sanitizer-racecheck-missing-barrier.txt
run sanitize-synccheck-early-return "1 or 4" "$W" run module13/dot_reduction --variant tree_early_return --quick -p RUNS=3 --no-predict --sanitize=synccheck
keep_latest sanitizer.txt sanitizer-synccheck-early-return.txt
# A known-wrong copy: each block's sum lands 64 Ki doubles further past `res`.
oob=/tmp/wb-oob/dot_reduction.cu
mkdir -p /tmp/wb-oob
sed 's/if (t == 0) atomicAdd(res, static_cast<double>(partial\[0\]));/if (t == 0) atomicAdd(res + blockIdx.x * 65536, static_cast<double>(partial[0]));/' \
  solutions/module13/dot_reduction.cu >"$oob"
grep -c "blockIdx.x \* 65536" "$oob" | sed 's/^/oob edit applied: /' | tee -a "$log"
run sanitize-oob-write "1 or 4" "$W" run module13/dot_reduction --file "$oob" --quick -p RUNS=3 --no-predict --sanitize
keep_latest sanitizer.txt sanitizer-memcheck-oob.txt

step "clock lines (every run records them; these are from the runs above)"
grep -h "GPU before the run\|GPU after the run\|warning: the" "$OUT"/transcripts/*.txt | sort | uniq -c | sort -rn | head -20 | tee -a "$log"
python3 - "$WORKBOOK_WORKSPACE/.workbook/journal.db" <<'PY' 2>&1 | tee -a "$log"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("select count(*), sum(throttled), min(sm_mhz), max(sm_mhz) from run_gpu_state").fetchone())
for row in db.execute("select run_id, phase, sm_mhz, mem_mhz, reason_names, tool from run_gpu_state order by run_id desc limit 6"):
    print(row)
PY
step "done"
