#!/usr/bin/env python3
"""The longest functions of runner/src (issue 13: every function under 80 lines).

A function is a definition that starts at column 0 (namespace scope: free functions and
out-of-class member definitions) with its opening brace on that line or the next ones,
and ends at the first line holding only "}" at column 0. Functions defined inside a class
body are not measured. Prints the N longest (default 15) as "lines  file:line  name".
  usage: scripts/function_lengths.py [N] [--max LINES] [--total-max LINES] [--root DIR]
(exit 1 if a function is longer than --max, or if DIR's .cpp and .hpp files hold more
lines together than --total-max). ctest runs it with --max 80 and the runner's line
budget (functions_under_80_lines); DIR defaults to runner/src.
"""
import re
import sys
from pathlib import Path

START = re.compile(r"^(?!namespace|struct|class|enum|union|template|#|//|}|using|extern|static_assert)[A-Za-z_].*\(")


def functions(path):
    lines = path.read_text(errors="replace").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        # a variable's initializer ("constexpr const char* kText = R\"(...{0}...)\";") is not a
        # function: an "=" before the first "(" says so
        if START.match(line) and not line.rstrip().endswith(";") and "=" not in line.split("(", 1)[0]:
            # the signature may span lines: find its "{" before any ";"
            j = i
            while j < len(lines) and "{" not in lines[j] and not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and "{" in lines[j]:
                k = j
                while k < len(lines) and lines[k] != "}" and not (k == j and lines[k].rstrip().endswith("}")):
                    k += 1
                name = re.search(r"([A-Za-z_][A-Za-z0-9_:~]*)\s*\(", line)
                yield (k - i + 1, i + 1, name.group(1) if name else line.strip()[:40])
                i = k + 1
                continue
        i += 1


def main():
    argv = sys.argv[1:]
    def option(name):
        return argv[argv.index(name) + 1] if name in argv else None
    values = {option("--max"), option("--root"), option("--total-max")}
    args = [a for a in argv if not a.startswith("--") and a not in values]
    top = int(args[0]) if args else 15
    limit = int(option("--max")) if option("--max") else None
    root = Path(option("--root") or "runner/src")
    found = []
    for f in sorted(root.rglob("*.cpp")):
        for n, line, name in functions(f):
            found.append((n, f"{f}:{line}", name))
    found.sort(reverse=True)
    for n, where, name in found[:top]:
        print(f"{n:5d}  {where}  {name}")
    failed = False
    if limit is not None:
        over = [x for x in found if x[0] > limit]
        print(f"{len(over)} of {len(found)} functions are longer than {limit} lines")
        failed = bool(over)
    if option("--total-max"):
        budget = int(option("--total-max"))
        total = sum(len(f.read_text(errors="replace").splitlines())
                    for f in sorted(root.rglob("*")) if f.suffix in (".cpp", ".hpp"))
        print(f"{root} holds {total} lines of C++ against a budget of {budget}")
        if total > budget:
            print(f"over by {total - budget}: delete a second way of doing something, or raise the budget "
                  "(--total-max in tests/CMakeLists.txt) in the same commit and say in its message what pays for it")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
