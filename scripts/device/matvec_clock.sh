#!/usr/bin/env bash
# Issue 9, study 7: can a batch method time module15's 18.75 us warp matvec within 3 %
# of Nsight Compute? Builds scripts/device/probes/matvec_clock.cu, runs it 3 times, then
# ncu's gpu__time_duration of the same kernel (ncu's cache flush on, then off).
#   scripts/device/matvec_clock.sh      -> $OUT/matvec_clock.txt, $OUT/*.ncu.csv
set -u
OUT=${OUT:-/tmp/wb-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
b=/tmp/matvec_clock
nvcc -O3 -arch=sm_90 -lineinfo -I labs/common scripts/device/probes/matvec_clock.cu -o "$b" -lcuda 2>&1 | tail -5
for r in 1 2 3; do echo "== run $r"; "$b"; done >"$OUT/matvec_clock.txt" 2>&1
ncu --csv --page raw --clock-control none --print-kernel-base function --metrics gpu__time_duration.sum \
  -k regex:probe_matvec -c 40 "$b" >"$OUT/matvec.ncu.csv" 2>"$OUT/matvec.ncu.err"
ncu --csv --page raw --clock-control none --cache-control none --print-kernel-base function \
  --metrics gpu__time_duration.sum -k regex:probe_matvec -c 40 "$b" >"$OUT/matvec_nocache.ncu.csv" 2>>"$OUT/matvec.ncu.err"
python3 - "$OUT" <<'PY' | tee -a "$OUT/matvec_clock.txt"
import csv, statistics, sys, io
for name in ("matvec", "matvec_nocache"):
    rows = [r for r in csv.DictReader(io.StringIO("".join(l for l in open(f"{sys.argv[1]}/{name}.ncu.csv") if l.startswith('"'))))]
    v = [float(r["gpu__time_duration.sum"]) for r in rows if r.get("Kernel Name", "").startswith("probe_matvec")]
    unit = rows[1]["gpu__time_duration.sum"] if rows else "?"
    print(f"ncu {name}: {len(v)} launches, median {statistics.median(v[1:]) if len(v) > 1 else 'n/a'} (units row: {unit})")
PY
