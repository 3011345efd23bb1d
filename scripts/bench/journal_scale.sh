#!/usr/bin/env bash
# The everyday commands on a journal of many runs (issue 26): `progress` and `next` (the
# target: under 1 s at 100 k runs), `history` and `report` beside them, then `journal
# export` and `journal import` of that journal with their peak memory against the export's
# size (the target: import under 10x the file). Not a ctest: figures to read, on a machine
# that says how loaded it is (printed last).
#
#   scripts/bench/journal_scale.sh [RUNS] [BINARY]    default 100000 runs, build/dev/runner/workbook
#
# The journal is made in a temporary workspace against the real content: one `workbook
# progress` creates it at the current schema, then python3's sqlite3 adds RUNS runs of the
# real labs (a third pass; each with a prediction, a metric and a finished verdict; every
# tenth with an explanation). Times are the best of 3; memory is the peak resident set.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-100000}"
bin="${2:-build/dev/runner/workbook}"
[[ -x "$bin" ]] || { echo "no workbook binary at $bin: build it (cmake --build --preset dev --target workbook) or pass its path" >&2; exit 2; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export WORKBOOK_CONTENT="$PWD" WORKBOOK_WORKSPACE="$tmp/ws" NO_COLOR=1 WORKBOOK_NOW=2026-12-01
"$bin" progress >/dev/null
python3 - "$tmp/ws/.workbook/journal.db" "$runs" <<'PY'
import glob, os, sqlite3, sys
journal, runs = sys.argv[1], int(sys.argv[2])
labs = sorted("module%s/%s" % (os.path.basename(os.path.dirname(p))[6:], os.path.basename(p)[:-3])
              for p in glob.glob("labs/module*/*.cu"))
db = sqlite3.connect(journal)
with db:
    for i in range(runs):
        lab = labs[i % len(labs)]
        run = db.execute(
            "INSERT INTO runs(lab, variant, source, params, seed, device, arch, started_at, verdict) "
            "VALUES(?, 'starter', '/ws/x.cu', '{\"N\":1024}', ?, 'Tesla T4', 'sm_75', ?, ?)",
            (lab, i, "2026-11-01T00:00:%02d.000Z" % (i % 60), "pass" if i % 3 == 0 else "fail")).lastrowid
        db.execute("INSERT INTO predictions(run_id, lab, prediction, answer, number, recorded_at) "
                   "VALUES(?, ?, 'speedup', '3', 3.0, '2026-11-01T00:00:00.000Z')", (run, lab))
        db.execute("INSERT INTO metrics(run_id, name, unit, derived, value, status) VALUES(?, 'time', 'ms', 0, ?, 'in range')",
                   (run, 1.0 + i % 7))
        if i % 10 == 0:
            db.execute("INSERT INTO explanations(run_id, text, recorded_at) VALUES(?, 'because', '2026-11-01T00:02:00.000Z')",
                       (run,))
    db.execute("UPDATE runs SET finished_at='2026-11-01T00:01:00.000Z'")  # ended after their rows (schema.cpp)
print("journal: %d runs over %d labs, %.1f MB" % (runs, len(labs), os.path.getsize(journal) / 1e6))
PY
# Best of 3 wall seconds and the peak resident set of a command (stdout dropped).
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
times = []
for _ in range(3):
    t0 = time.monotonic()
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, check=True)
    times.append(time.monotonic() - t0)
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print("%-16s %7.3f s (best of 3)  peak %6.0f MB" % (sys.argv[1], min(times), peak_mb))
PY
}
measure progress "$bin" progress
measure next "$bin" next
measure history "$bin" history
measure report "$bin" report --out "$tmp/report"
measure export "$bin" journal export "$tmp/export.json"
size_mb=$(python3 -c "import os,sys; print('%.1f' % (os.path.getsize(sys.argv[1]) / 1e6))" "$tmp/export.json")
echo "export file      $size_mb MB"
# Import into a fresh workspace (the first call adds every row, the next two find them all).
WORKBOOK_WORKSPACE="$tmp/ws2" "$bin" progress >/dev/null
WORKBOOK_WORKSPACE="$tmp/ws2" measure import "$bin" journal import "$tmp/export.json"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
