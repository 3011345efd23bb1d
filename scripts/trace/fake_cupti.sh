#!/usr/bin/env bash
# Builds the CUPTI injection library's source against a fake CUPTI (fake_cupti.cpp) and
# runs it: the trace it writes is the library's real output for 5,000 synthetic records.
#   scripts/trace/fake_cupti.sh [OUT.jsonl]     (default: /tmp/wb-fake-cupti.jsonl)
# With WB_TRACE_MAX_RECORDS=100 (the default here) it regenerates
# tests/fixtures/profile/trace_fake_cupti_capped.jsonl.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-/tmp/wb-fake-cupti.jsonl}
cuda=${CUDA_HOME:-/usr/local/cuda}
bin=$(mktemp -d)/fake_cupti
g++ -std=c++17 -O1 -Wall -Wextra -I"$cuda/include" -I"$root/runner/src" \
  "$here/fake_cupti.cpp" "$root/runner/trace/wb_trace_inject.cpp" -o "$bin"
WB_TRACE_MAX_RECORDS=${WB_TRACE_MAX_RECORDS:-100} WORKBOOK_TRACE=$out "$bin"
echo "$out: $(wc -l <"$out") lines"
