#!/usr/bin/env bash
# GPU validation of the machine line (driver, CUDA versions, clocks, power state per run)
# and of sweep grading (only the default value graded). One call on the lent GPU machine
# (about 2-3 minutes):
#   scripts/device/machine_line_check.sh
# Needs the portable runner in .carry/bin/workbook (README, "Building for another machine").
# Writes under $OUT:
#   machine-steps.txt          every step with its exit status (expected one beside it)
#   raw/nvidia_smi_h200_cuda_version.txt
#                              the answer to a field list with cuda_version (refused
#                              by driver 580, rc 2: why the runner asks libcuda instead)
#   raw/nvidia_smi_h200_machine.csv, raw/nvidia_smi_h200_units.csv
#                              the answers to the runner's first list (what it reads), nounits and with units: copy
#                              all three over tests/fixtures/profile/, update the values in
#                              tests/profile/gpu_clocks_test.cpp from them, re-run "[profile]"
#   transcripts/*.txt, json/*.json   the sweep, history and report of module04/vecadd_roofline
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT/transcripts" "$OUT/json" "$OUT/raw"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=/tmp/wb-machine-ws
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
log=$OUT/machine-steps.txt
: >"$log"
run() {
  local name=$1 expected=$2; shift 2
  timeout 300 "$@" >"$OUT/transcripts/$name.txt" 2>&1
  echo "$name rc=$? (expected $expected)" | tee -a "$log"
}
# The runner's first field list (profile/gpu_clocks.cpp clock_query_fields()), with and without cuda_version.
fields="clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,clocks_event_reasons.active,temperature.gpu,power.draw,power.limit,pstate,driver_version"
nvidia-smi --query-gpu=$fields,cuda_version --format=csv,nounits >"$OUT/raw/nvidia_smi_h200_cuda_version.txt" 2>&1
echo "nvidia-smi with cuda_version rc=$? (2 on driver 580: no nvidia-smi has that field)" | tee -a "$log"
nvidia-smi --query-gpu=$fields --format=csv,nounits >"$OUT/raw/nvidia_smi_h200_machine.csv" 2>&1
echo "nvidia-smi nounits rc=$? (expected 0)" | tee -a "$log"
nvidia-smi --query-gpu=$fields --format=csv >"$OUT/raw/nvidia_smi_h200_units.csv" 2>&1
echo "nvidia-smi units rc=$? (expected 0)" | tee -a "$log"
ls /sys/class/power_supply >"$OUT/raw/power_supply.txt" 2>&1
# Sweep: BLOCK=256 is the default (graded); 32 and 128 are shown "not graded", never OUT OF RANGE.
run sweep-json 0 sh -c "'$W' run module04/vecadd_roofline --solution --yes --sweep BLOCK=32,128,256 --no-predict --json >'$OUT/json/sweep.json'"
run sweep-text 0 "$W" run module04/vecadd_roofline --solution --yes --sweep BLOCK=32,128,256 --no-predict
run history 0 "$W" history module04/vecadd_roofline --limit 3
run history-json 0 sh -c "'$W' history module04/vecadd_roofline --limit 3 --json >'$OUT/json/history.json'"
run report 0 "$W" report module04/vecadd_roofline --out "$OUT/report"
grep -n "machine:" "$OUT/transcripts/history.txt" | head -3 | tee -a "$log"
grep -n -A2 "^- \*\*" "$OUT/report/report.md" | tee -a "$log"
grep -c "not graded" "$OUT/transcripts/sweep-text.txt" | sed 's/^/not-graded lines: /' | tee -a "$log"
