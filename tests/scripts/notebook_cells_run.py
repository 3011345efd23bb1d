#!/usr/bin/env python3
"""Runs the Colab notebook's cells on this machine, as closely to Colab as it can.

Every `!` line of docs/colab/workbook.ipynb from the set-up cell on runs through bash on a
pseudo-terminal (`script`, as Colab's `!` does) with COLAB_RELEASE_TAG set, and /content
moved to a temporary folder; the Python cells (reading the JSON verdict) run too. The cells
before the set-up (nvidia-smi, the clone or upload) are left out: the checkout is this one.
It prints a transcript and exits 1 if a Python cell fails or a command outlives --timeout.

  tests/scripts/notebook_cells_run.py                      # runs scripts/setup.sh --no-run too
  tests/scripts/notebook_cells_run.py --workbook BIN       # a runner built elsewhere: no setup.sh
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import types


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", default=os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
    ap.add_argument("--workbook", help="use this runner binary and skip the scripts/setup.sh line")
    ap.add_argument("--timeout", type=int, default=600, help="seconds for one command")
    opts = ap.parse_args()
    root = tempfile.mkdtemp(prefix="colab-content-")
    nb = json.load(open(os.path.join(opts.repo, "docs", "colab", "workbook.ipynb")))
    env = dict(os.environ, COLAB_RELEASE_TAG="emulated-by-notebook_cells_run", WORKBOOK_BIN_DIR=root + "/bin")
    bin_dir = os.path.dirname(os.path.abspath(opts.workbook)) if opts.workbook else root + "/bin"
    pty = shutil.which("script")
    started = False
    failed = False
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        src = "".join(cell["source"])
        started |= "scripts/setup.sh" in src
        if not started:
            continue
        src = src.replace("/content", root).replace("/root/.local/bin", bin_dir)
        print(f"===== cell {i}", flush=True)
        python = []
        for line in src.split("\n"):
            s = line.strip()
            if s.startswith("%"):
                continue
            if not s.startswith("!"):
                python.append(line)
                continue
            cmd = s[1:]
            if opts.workbook and "scripts/setup.sh" in cmd:
                print(f"(skipped, --workbook given) $ {cmd}")
                continue
            print(f"$ {cmd}", flush=True)
            argv = [pty, "-qec", cmd, "/dev/null"] if pty else ["bash", "-c", cmd]
            try:
                subprocess.run(argv, env=env, cwd=opts.repo, stdin=subprocess.DEVNULL, timeout=opts.timeout)
            except subprocess.TimeoutExpired:
                print(f"!! timed out after {opts.timeout} s (a prompt waiting for input?)")
                failed = True
        code = "\n".join(python)
        if code.strip():
            try:  # the cell's os.environ settings go to the commands' environment
                exec(compile(code, f"<cell {i}>", "exec"), {"os": types.SimpleNamespace(environ=env)})
            except BaseException as e:  # SystemExit included: the cell's own "no report"
                print(f"!! cell {i} failed: {e!r}")
                failed = True
    print(f"(content folder {root})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
