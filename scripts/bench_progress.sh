#!/usr/bin/env bash
# Times `workbook progress` and `workbook next` on a journal of many runs (issue 26: they
# were quadratic in the runs, 280 s at 100 k). Not a ctest: a figure to read, on a
# machine that says how loaded it is.
#
#   scripts/bench_progress.sh [RUNS] [BINARY]        default 100000 runs, build/dev/runner/workbook
#   WITHOUT_INDEXES=1 scripts/bench_progress.sh 10000   the same with the indexes of journal
#                                                     version 9 dropped (the figure before)
#
# The journal is made in a temporary workspace against the real content: one `workbook
# progress` creates it at the current schema, then python3's sqlite3 adds RUNS runs of the
# real labs (a third pass, each with a metric, every tenth with an explanation). Prints the
# seconds each command took (best of 3) and the load average.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-100000}"
bin="${2:-build/dev/runner/workbook}"
[[ -x "$bin" ]] || { echo "no workbook binary at $bin: build it (cmake --build --preset dev --target workbook) or pass its path" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export WORKBOOK_CONTENT="$PWD" WORKBOOK_WORKSPACE="$tmp/ws" NO_COLOR=1 WORKBOOK_NOW=2026-12-01
"$bin" progress >/dev/null
journal="$tmp/ws/.workbook/journal.db"
python3 - "$journal" "$runs" "${WITHOUT_INDEXES:-0}" <<'PY'
import glob, os, sqlite3, sys
journal, runs, drop = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
labs = sorted("module%s/%s" % (os.path.basename(os.path.dirname(p))[6:], os.path.basename(p)[:-3])
              for p in glob.glob("labs/module*/*.cu"))
db = sqlite3.connect(journal)
with db:
    for i in range(runs):
        lab = labs[i % len(labs)]
        cur = db.execute(
            "INSERT INTO runs(lab, variant, source, params, seed, device, arch, started_at, verdict) "
            "VALUES(?, 'starter', '/ws/x.cu', '{}', ?, 'Tesla T4', 'sm_75', ?, ?)",
            (lab, i, "2026-11-01T00:00:%02d.000Z" % (i % 60), "pass" if i % 3 == 0 else "fail"))
        run = cur.lastrowid
        db.execute("INSERT INTO metrics(run_id, name, unit, derived, value, status) VALUES(?, 'time', 'ms', 0, ?, 'in range')",
                   (run, 1.0 + i % 7))
        if i % 10 == 0:
            db.execute("INSERT INTO explanations(run_id, text, recorded_at) VALUES(?, 'because', '2026-11-01T00:02:00.000Z')",
                       (run,))
    if drop:
        for name in ("metrics_by_run", "explanations_by_run", "runs_by_lab"):
            db.execute("DROP INDEX IF EXISTS " + name)
    db.execute("UPDATE runs SET finished_at='2026-11-01T00:01:00.000Z'")  # ended after their rows (schema.cpp)
print("journal: %d runs over %d labs%s" % (runs, len(labs), ", indexes of version 9 dropped" if drop else ""))
PY
best() {
  python3 - "$bin" "$@" <<'PY'
import subprocess, sys, time
times = []
for _ in range(3):
    t0 = time.monotonic()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
    times.append(time.monotonic() - t0)
print("%-10s %.3f s (best of 3)" % (sys.argv[2], min(times)))
PY
}
best progress
best next
best history
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
