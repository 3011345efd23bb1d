#!/usr/bin/env bash
# GPU check of issue 14's second round: the trace library's record cap and in-process
# totals (format 2), and memcheck's first error placed in the lab's file rather than in a
# CUDA header. One call on the lent GPU machine (about 3-5 minutes):
#   scripts/device/batch.sh "trace_cap_check.sh"
# Needs the portable runner and libworkbook_trace.so in .carry/bin (as profilers_check.sh).
# Writes under $OUT:
#   trace-cap-steps.txt      every step, its exit status and the checks (OK / BAD lines)
#   transcripts/<what>.txt   the terminal reports
#   raw/                     the trace heads/tails, the sanitizer log (fixtures material)
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT/transcripts" "$OUT/raw"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-trace-cap-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
if [ ! -f "$(dirname "$W")/libworkbook_trace.so" ]; then
  lib=$(find "$PWD/.carry" -name libworkbook_trace.so 2>/dev/null | head -1)
  [ -n "$lib" ] && export WORKBOOK_TRACE_LIB=$lib
fi
log=$OUT/trace-cap-steps.txt
: >"$log"
runs="$WORKBOOK_WORKSPACE/.workbook/runs"
rm -rf "$WORKBOOK_WORKSPACE"
say() { echo "$*" | tee -a "$log"; }
check() { if eval "$2"; then say "OK  $1"; else say "BAD $1"; fi; }
run() {
  local name=$1 expected=$2; shift 2
  timeout 400 "$@" >"$OUT/transcripts/$name.txt" 2>&1
  say "$name rc=$? (expected $expected)"
}
latest() { ls -t "$runs"/*."$1" 2>/dev/null | head -1; }
trace_facts() {  # name: size, lines, the meta and end lines, how many totals
  local f; f=$(latest trace.jsonl)
  [ -n "$f" ] || { say "$1: no trace file"; return; }
  say "$1: $(stat -c %s "$f") bytes, $(wc -l <"$f") lines"
  head -1 "$f" | tee -a "$log"
  tail -1 "$f" | tee -a "$log"
  say "$1: $(grep -c '"type":"total"' "$f") total lines; $(grep -c '"type":"gpu"' "$f") gpu line"
  { head -40 "$f"; echo ...; tail -60 "$f"; } >"$OUT/raw/$1.trace-head-tail.jsonl"
}

say "== module17 graph, default cap (20000): the file must be small, the counts exact"
run trace-graph 0 "$W" run module17/heat_graph --solution --yes --no-predict --trace
trace_facts trace-graph
f=$(latest trace.jsonl)
check "graph trace under 10 MB (was 332 MB)" "[ \"\$(stat -c %s '$f')\" -lt 10000000 ]"
check "graph trace says format 2" "head -1 '$f' | grep -q '\"format\":2'"
check "graph trace ends with an end line and not_written > 0" "tail -1 '$f' | grep -q '\"not_written\":[1-9]'"
check "the report says the timeline is truncated" "grep -q 'truncated: it shows the first' '$OUT/transcripts/trace-graph.txt'"
check "heat_step counted in the hundreds of thousands" "grep -E '^ heat_step +[0-9]{6}' '$OUT/transcripts/trace-graph.txt' >/dev/null"

if [ -z "${QUICK_CHECK:-}" ]; then  # QUICK_CHECK=1: the default-cap graph and memcheck only
say "== module17 graph with WB_TRACE_MAX_RECORDS=0: totals only"
WB_TRACE_MAX_RECORDS=0 run trace-graph-totals-only 0 "$W" run module17/heat_graph --solution --yes --no-predict --trace --json
trace_facts trace-graph-totals-only
python3 - "$OUT/transcripts/trace-graph-totals-only.txt" <<'EOF' | tee -a "$log"
import json, sys
text = open(sys.argv[1]).read()
j = json.loads(text[text.index('{'):])
t = j["profile"]["trace"]
k = {r["name"]: r["calls"] for r in t["kernels"]}
print("totals-only: kernels", k, "records_written", t["records_written"], "not_written", t["records_not_written"],
      "busy_us", round(t["busy_us"]), "timeline rows", len(t["timeline"]))
EOF

say "== module16 pipeline, default cap (fewer records: likely all written)"
run trace-pipeline 0 "$W" run module16/streams_pipeline --solution --yes --no-predict --trace
trace_facts trace-pipeline
fi

say "== memcheck on an out-of-bounds atomicAdd: the first error at dot_reduction.cu, not sm_60_atomic_functions.hpp"
oob=/tmp/wb-oob/dot_reduction.cu
mkdir -p /tmp/wb-oob
sed 's/if (t == 0) atomicAdd(res, static_cast<double>(partial\[0\]));/if (t == 0) atomicAdd(res + blockIdx.x * 65536, static_cast<double>(partial[0]));/' \
  solutions/module13/dot_reduction.cu >"$oob"
say "oob edit applied: $(grep -c 'blockIdx.x \* 65536' "$oob")"
run sanitize-oob-atomic "1 or 4" "$W" run module13/dot_reduction --file "$oob" --quick -p RUNS=3 --no-predict --sanitize
s=$(latest sanitizer.txt)
[ -n "$s" ] && cp "$s" "$OUT/raw/sanitizer-memcheck-oob-atomic.txt"
grep -m3 "sanitizer_memcheck\|Verdict\|inlined from" "$OUT/transcripts/sanitize-oob-atomic.txt" | tee -a "$log"
check "the check names the lab's file" "grep -q 'sanitizer_memcheck.* at dot_reduction.cu:' '$OUT/transcripts/sanitize-oob-atomic.txt'"
check "the header frame is shown only as 'inlined from'" "! grep 'sanitizer_memcheck' '$OUT/transcripts/sanitize-oob-atomic.txt' | grep -q sm_60"
say "== done"
