#!/usr/bin/env python3
"""Checks the Colab notebook docs/colab/workbook.ipynb without running it.

- It is valid nbformat 4 JSON: cells with cell_type, metadata and a list of source lines;
  code cells with outputs [] and an execution_count; unique cell ids where nbformat 4.5
  asks for them.
- Every code cell is valid Python once its IPython lines (`!shell`, `%magic`) are set aside.
- Every `workbook` command in a `!` line names a real subcommand, and `workbook run` /
  `workbook show` a real lab; every `--predict ID=VALUE` names one of that lab's
  predictions with a value of the right kind (a choice's number or text, a number, yes or
  no), every `-p NAME=VALUE` one of its parameters, and every other flag is one the run
  command has. The lab manifests are read by the runner itself (`workbook show --json`).
- Every repository path the notebook names (scripts/..., labs/..., docs/..., the copy of
  a lab in the workspace) exists, and every setup.sh flag is one that setup.sh knows.

Usage: notebook_test.py --workbook PATH_TO_BINARY [--repo DIR] [--notebook FILE]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

REPO_DIRS = ("scripts", "labs", "modules", "docs", "solutions", "exercises", "data", "tests")
WORKSPACE = "/content/workspace"
CHECKOUT = "/content/workbook"

problems = []


def problem(where, what):
    problems.append(f"{where}: {what}")


def cell_text(cell):
    src = cell.get("source", [])
    return "".join(src) if isinstance(src, list) else src


def check_structure(nb):
    if nb.get("nbformat") != 4:
        problem("notebook", f"nbformat is {nb.get('nbformat')!r}, not 4")
    minor = nb.get("nbformat_minor")
    if not isinstance(minor, int) or minor < 0:
        problem("notebook", f"nbformat_minor {minor!r} is not a non-negative integer")
    if not isinstance(nb.get("metadata"), dict):
        problem("notebook", "metadata is missing or not an object")
    cells = nb.get("cells")
    if not isinstance(cells, list) or not cells:
        problem("notebook", "no cells")
        return []
    ids = set()
    for i, cell in enumerate(cells):
        where = f"cell {i}"
        kind = cell.get("cell_type")
        if kind not in ("code", "markdown", "raw"):
            problem(where, f"cell_type {kind!r}")
        if not isinstance(cell.get("metadata"), dict):
            problem(where, "metadata is missing or not an object")
        src = cell.get("source")
        if not isinstance(src, list) or not all(isinstance(s, str) for s in src):
            problem(where, "source is not a list of strings")
        elif any("\n" in s[:-1] for s in src):
            problem(where, "a source line holds a line break before its end")
        if kind == "code":
            if cell.get("outputs") != []:
                problem(where, "a code cell's outputs must be [] (a clean notebook)")
            if "execution_count" not in cell or cell["execution_count"] is not None:
                problem(where, "a code cell's execution_count must be null")
        if isinstance(minor, int) and minor >= 5:
            cid = cell.get("id")
            if not isinstance(cid, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", cid):
                problem(where, f"nbformat 4.5 wants an id of 1-64 letters, digits, - or _, not {cid!r}")
            elif cid in ids:
                problem(where, f"id {cid!r} is used twice")
            ids.add(cid)
    return cells


def ipython_lines(code):
    """The code with IPython escapes replaced by `pass` (same indentation), and the `!` lines."""
    python, shell = [], []
    for line in code.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("!", "%")):
            python.append(line[: len(line) - len(stripped)] + "pass")
            if stripped.startswith("!"):
                shell.append(stripped[1:].strip())
        else:
            python.append(line)
    return "\n".join(python), shell


def shell_commands(line):
    """Split a shell line into simple commands (argument lists), redirections dropped."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    commands, current, skip_next = [], [], False
    for tok in lexer:
        if skip_next:
            skip_next = False
            continue
        if tok in ("<", ">", ">>", "2>", "&>"):
            skip_next = True
            continue
        if set(tok) <= set(";&|"):
            if current:
                commands.append(current)
            current = []
            continue
        current.append(tok)
    if current:
        commands.append(current)
    return commands


class Runner:
    def __init__(self, binary, repo):
        self.binary = binary
        self.env = dict(os.environ, WORKBOOK_CONTENT=repo, NO_COLOR="1")
        self.env["WORKBOOK_WORKSPACE"] = tempfile.mkdtemp(prefix="nbtest-ws-")
        self.labs = {}
        # The subcommands, from the "Subcommands:" list of `workbook --help` (an unknown
        # subcommand's --help prints the main help and exits 0, so that is no test).
        text = self.run("--help").stdout
        section = text.split("Subcommands:", 1)[1].split("\n\n", 1)[0] if "Subcommands:" in text else ""
        self.subcommands = set(re.findall(r"^  (\S+)", section, re.M))
        if not self.subcommands:
            problem("workbook --help", "lists no subcommands: cannot check the notebook's commands")

    def run(self, *args):
        return subprocess.run([self.binary, *args], env=self.env, capture_output=True, text=True, timeout=120)

    def lab(self, lab_id):
        if lab_id not in self.labs:
            r = self.run("show", lab_id, "--json")
            self.labs[lab_id] = json.loads(r.stdout) if r.returncode == 0 else None
        return self.labs[lab_id]


def check_prediction(where, lab, flag):
    pid, sep, value = flag.partition("=")
    if not sep:
        problem(where, f"--predict {flag}: not ID=VALUE")
        return
    spec = next((p for p in lab["predictions"] if p["id"] == pid), None)
    if spec is None:
        ids = ", ".join(p["id"] for p in lab["predictions"])
        problem(where, f"{lab['lab']} has no prediction {pid!r} (it has: {ids})")
        return
    if spec["kind"] == "choice":
        n = len(spec["choices"])
        if not (value in spec["choices"] or (value.isdigit() and 1 <= int(value) <= n)):
            problem(where, f"--predict {flag}: not a choice number 1-{n} or a choice's text")
    elif spec["kind"] == "number":
        try:
            float(value)
        except ValueError:
            problem(where, f"--predict {flag}: not a number")
    elif value not in ("yes", "no", "y", "n"):
        problem(where, f"--predict {flag}: answer yes or no")


def check_workbook_command(where, args, runner):
    if not args:
        problem(where, "`workbook` without a command")
        return
    if args[0].startswith("-"):
        if args[0] not in ("--version", "--help", "-h"):
            problem(where, f"workbook {args[0]}: not a global flag this test knows")
        return
    sub = args[0]
    if sub not in runner.subcommands:
        problem(where, f"`workbook {sub}` is not a command of the runner")
        return
    help_run = runner.run(sub, "--help")
    if sub not in ("run", "show"):
        return
    positional = [a for a in args[1:] if not a.startswith("-")]
    lab_id = positional[0] if positional else None
    lab = runner.lab(lab_id) if lab_id else None
    if lab is None:
        problem(where, f"`workbook {sub}`: {lab_id!r} is not a lab of the content")
        return
    if sub == "show":
        return
    i = 1
    while i < len(args):
        a = args[i]
        if a in ("--predict", "-p", "--param"):
            value = args[i + 1] if i + 1 < len(args) else ""
            if a == "--predict":
                check_prediction(where, lab, value)
            elif value.partition("=")[0] not in [p["name"] for p in lab["params"]]:
                problem(where, f"-p {value}: {lab_id} has no such parameter")
            i += 2
            continue
        if a.startswith("-") and not re.search(r"(^|[\s,])" + re.escape(a) + r"\b", help_run.stdout):
            problem(where, f"workbook run {a}: not a flag of `workbook run`")
        i += 1


def check_path(where, token, repo):
    rel = None
    if token.startswith(WORKSPACE + "/labs/"):
        rel = token[len(WORKSPACE) + 1:]  # the workspace copy of a lab mirrors labs/
    elif token.startswith(CHECKOUT + "/"):
        rel = token[len(CHECKOUT) + 1:]
    elif token.startswith("./"):
        rel = token[2:]
    elif token.split("/", 1)[0] in REPO_DIRS and "/" in token:
        rel = token
    if rel and not os.path.exists(os.path.join(repo, rel)):
        problem(where, f"{token}: {rel} is not in the repository")


def check_setup_flags(where, args, repo):
    with open(os.path.join(repo, "scripts", "setup.sh")) as f:
        text = f.read()
    for a in args[1:]:
        if a.startswith("--") and f"{a})" not in text:
            problem(where, f"scripts/setup.sh {a}: setup.sh has no such flag")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workbook", required=True, help="the built runner")
    ap.add_argument("--repo", default=os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..")))
    ap.add_argument("--notebook", default=None)
    opts = ap.parse_args()
    nb_path = opts.notebook or os.path.join(opts.repo, "docs", "colab", "workbook.ipynb")
    with open(nb_path) as f:
        nb = json.load(f)
    cells = check_structure(nb)
    runner = Runner(opts.workbook, opts.repo)
    ran_a_lab = False
    for i, cell in enumerate(cells):
        where = f"cell {i}"
        text = cell_text(cell)
        for token in re.findall(r"`([^`\s]+)`", text) if cell.get("cell_type") == "markdown" else []:
            check_path(where, token, opts.repo)
        if cell.get("cell_type") != "code":
            continue
        python, shell = ipython_lines(text)
        try:
            compile(python, f"<{where}>", "exec")
        except SyntaxError as e:
            problem(where, f"not valid Python: {e}")
        for line in shell:
            for cmd in shell_commands(line):
                for token in cmd:
                    check_path(where, token, opts.repo)
                if cmd[0] == "workbook":
                    check_workbook_command(where, cmd[1:], runner)
                    ran_a_lab |= len(cmd) > 1 and cmd[1] == "run" and "--predict" in cmd
                if cmd[0].endswith("scripts/setup.sh"):
                    check_setup_flags(where, cmd, opts.repo)
    if not ran_a_lab:
        problem("notebook", "no `workbook run LAB --predict ID=VALUE` command: the notebook must run a lab with predictions as flags")
    for p in problems:
        print("FAIL:", p)
    if problems:
        return 1
    print(f"{nb_path}: valid nbformat 4, {len(cells)} cells; every command, lab, prediction and path checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
