#!/usr/bin/env bash
# Session 6's last call: the machine line (issue 16) and the trace cap (issue 14), packed
# after each step into $OUT/final6.tgz.
#   scripts/device/final6.sh
set -u
OUT=${OUT:-/tmp/wb-out}
d=/tmp/wb-final6; rm -rf "$d"; mkdir -p "$d"
pack() { echo "$1" >>"$d/steps.txt"; tar czf "$OUT/final6.tgz" -C "$d" .; }
OUT=$d/machine timeout 100 bash scripts/device/machine_line_check.sh >"$d/machine.txt" 2>&1
pack "machine_line_check rc=$?"
OUT=$d/trace QUICK_CHECK=1 timeout 110 bash scripts/device/trace_cap_check.sh >"$d/trace.txt" 2>&1
pack "trace_cap_check rc=$?"
