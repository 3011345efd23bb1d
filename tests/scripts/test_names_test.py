#!/usr/bin/env python3
"""Catch2 test names that CTest can run: catch_discover_tests registers each TEST_CASE by
its name, and CTest splits a name at ';' (a CMake list) while Catch reads a name that
starts with '-' as an option; either way the test silently never runs. Exit 1 names them."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2] / "tests"
bad = []
for path in sorted(root.rglob("*_test.cpp")):
    for m in re.finditer(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"', path.read_text(encoding="utf-8")):
        name = m.group(1)
        if ";" in name or name.startswith("-"):
            line = path.read_text(encoding="utf-8").count("\n", 0, m.start()) + 1
            bad.append(f"{path.relative_to(root.parent)}:{line}: {name}")
for b in bad:
    print(b)
print(f"{len(bad)} test names CTest cannot run (no ';', no leading '-')" if bad else "every test name can be run by CTest")
sys.exit(1 if bad else 0)
