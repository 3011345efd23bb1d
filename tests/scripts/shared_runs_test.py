#!/usr/bin/env python3
"""scripts/shared_runs.py against a made-up seed and tree: a run of 12 words shared with the
seed (14 here) is found across line breaks, case and punctuation, and fails in modules/ (exit 1) but is
only reported in labs/; 11 shared words are not a run; and a missing seed is said plainly
with exit 0 (CI has no seed)."""
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[2]
script = root / "scripts/shared_runs.py"

SEED = ("Preface. The quick brown fox jumps over the lazy dog while seven tired cats "
        "watch from a warm windowsill in the afternoon sun. Nothing else here.\n")
TWELVE = "The QUICK brown fox,\njumps over the lazy dog -- while seven tired cats watch"
ELEVEN = "the quick brown fox jumps over the lazy dog while seven"


def run(files, seed=True):
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "repo"
        for name, text in files.items():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            (tree / name).write_text(text)
        args = [sys.executable, str(script), "--root", str(tree)]
        if seed:
            (Path(tmp) / "seed.txt").write_text(SEED)
            args += ["--seed", str(Path(tmp) / "seed.txt")]
        else:
            args += ["--seed", str(Path(tmp) / "absent.txt")]
        r = subprocess.run(args, capture_output=True, text=True)
        return r.returncode, r.stdout


failures = []
def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")

code, out = run({"modules/module01/README.md": "Intro line.\n" + TWELVE + " it.\n"})
expect("a 14-word run in modules/", code, 1)
expect("it is named by file and first line", "modules/module01/README.md:2: 14 words:" in out, True)
code, out = run({"exercises/module01.yaml": "q: " + ELEVEN + " dogs\n"})
expect("11 shared words in exercises/", code, 0)
expect("11 shared words are not a run", "0 run(s)" in out, True)
code, out = run({"labs/module01/a.cu": "// " + TWELVE + "\n", "modules/module01/README.md": "ok\n"})
expect("a run in labs/ only", code, 0)
expect("the labs/ run is reported", "labs/module01/a.cu:1: 14 words:" in out and "1 in labs/" in out, True)
code, out = run({"modules/module01/README.md": TWELVE + "\n"}, seed=False)
expect("no seed", code, 0)
expect("no seed is said", "no seed text at" in out, True)

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures" if failures else "shared_runs: all cases pass")
sys.exit(1 if failures else 0)
