#!/usr/bin/env bash
# Issue 27 on the GPU machine: one real lab built with `--ccbin` pointing at the system
# g++ (the path a Fedora learner takes with a compatibility compiler), run and graded, and
# the toolchain line of `workbook device --toolchain`. Prints the verdicts; writes the
# outputs to $OUT/ccbin_check/ (default /tmp/wb-out).
#   scripts/device/ccbin_check.sh [LAB]      (default module14/tiled_gemm, its solution)
set -u
lab=${1:-module14/tiled_gemm}
OUT=${OUT:-/tmp/wb-out}
d=$OUT/ccbin_check; mkdir -p "$d"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1 WORKBOOK_WORKSPACE=${WORKBOOK_WORKSPACE:-/tmp/wb-ccbin-ws}
W=${WORKBOOK_BIN:-$PWD/.carry/bin/workbook}
[ -x "$W" ] || W=$PWD/build/dev/runner/workbook
gxx=$(command -v g++) || { echo "ccbin_check: no g++ on PATH" >&2; exit 2; }
echo "runner: $W   g++: $gxx ($("$gxx" --version | head -1))"

"$W" --ccbin "$gxx" device --toolchain >"$d/toolchain.txt" 2>&1
echo "device --toolchain --ccbin: rc=$? · $(grep -E '^(Toolchain|  works|  unsupported|  fails)' "$d/toolchain.txt" | tr '\n' ' ')"

"$W" --ccbin "$gxx" run "$lab" --solution --yes --no-predict --json </dev/null >"$d/run.json" 2>"$d/run.err"
rc=$?
python3 - "$d/run.json" "$rc" "$gxx" <<'PY'
import json, sys
path, rc, gxx = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    j = json.load(open(path))
except Exception as e:
    print(f"run: rc={rc}, no JSON ({e}); see run.err"); sys.exit(0)
cmd = j["build"]["command"]
ok_ccbin = "-ccbin" in cmd and cmd[cmd.index("-ccbin") + 1] == gxx
print(f"run {j['lab']} --solution: rc={rc} verdict={j['verdict']} compile_error_kind={j.get('compile_error_kind')} "
      f"built={j['build']['ok']} -ccbin {gxx} in the command: {ok_ccbin}")
for m in j.get("metrics", []):
    print(f"  {m['name']:<16} {m['value']} {m['unit']}  {m['status']}")
PY
