#!/usr/bin/env python3
"""scripts/function_lengths.py --max against made-up sources: a function of exactly the
limit passes, one line more fails (exit 1), functions inside a class body are not
measured, a signature over several lines counts from its first line, and a constant's
initializer is not a function; --total-max counts every .cpp and .hpp line below the root."""
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parents[2]
script = root / "scripts/function_lengths.py"


def lengths_exit(source, limit, option="--max", header=""):
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "a.cpp").write_text(source)
        (Path(tmp) / "sub").mkdir()
        (Path(tmp) / "sub" / "b.hpp").write_text(header)
        r = subprocess.run([sys.executable, str(script), "3", option, str(limit), "--root", tmp],
                           capture_output=True, text=True)
        return r.returncode, r.stdout


def function(name, lines, signature_lines=1):
    head = [f"int {name}("] + ["    int a" + ("," if i < signature_lines - 2 else "") for i in range(signature_lines - 1)]
    head[-1] += ") {" if signature_lines > 1 else ") {"
    body = ["  ++x;"] * (lines - len(head) - 1)
    return "\n".join(head + body + ["}"]) + "\n"


failures = []
def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got}, want {want}")

code, out = lengths_exit(function("at_limit", 80), 80)
expect("an 80-line function under --max 80", code, 0)
code, out = lengths_exit(function("over", 81), 80)
expect("an 81-line function under --max 80", code, 1)
expect("the report names it", "over" in out, True)
code, out = lengths_exit(function("split_signature", 81, signature_lines=3), 80)
expect("a three-line signature counts from its first line", code, 1)
code, out = lengths_exit("struct S {\n  int f() {\n" + "    ++x;\n" * 100 + "  }\n};\n", 80)
expect("a function inside a class body", code, 0)
text = 'constexpr const char* kText = R"(a {0} b\n' + "line\n" * 100 + ')";\n' + function("after", 10)
code, out = lengths_exit(text, 80)
expect("a long string constant with braces in it is not a function", code, 0)
code, out = lengths_exit('constexpr int twice(int x) {\n' + "  ++x;\n" * 100 + "}\n", 80)
expect("a constexpr function is still measured", code, 1)

# --total-max: the lines of the .cpp and .hpp files below the root, together.
code, out = lengths_exit("int a;\nint b;\n", 5, "--total-max", header="#pragma once\nint c;\nint d;\n")
expect("5 lines (a .cpp and a .hpp in a folder) under --total-max 5", code, 0)
code, out = lengths_exit("int a;\nint b;\n", 4, "--total-max", header="#pragma once\nint c;\nint d;\n")
expect("5 lines under --total-max 4", code, 1)
expect("the report says by how much", "over by 1" in out, True)

for f in failures:
    print("FAIL:", f)
print(f"{len(failures)} failures" if failures else "function_lengths --max: all cases pass")
sys.exit(1 if failures else 0)
