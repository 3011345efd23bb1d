#!/usr/bin/env python3
"""scripts/include_graph.py --check against a made-up table: it reads areas.cmake's lines,
allows what a line names (PUBLIC also from headers, util to everyone), and names each
include that breaks the table, an area without a line and a cycle in the table."""
import importlib.util
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("include_graph", root / "scripts/include_graph.py")
ig = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ig)

failures = []


def expect(what, cond):
    if not cond:
        failures.append(what)


table = ig.read_table("""
# a comment with workbook_area(nope) in it
workbook_area(util)
workbook_area(low)
workbook_area(mid   PUBLIC low
                    PRIVATE util)
workbook_area(top   PRIVATE mid)
""")
expect("four areas read, the commented one not", sorted(table) == ["low", "mid", "top", "util"])
expect("PUBLIC and PRIVATE read", table["mid"]["PUBLIC"] == {"low"} and table["mid"]["PRIVATE"] == {"util"})

ok = {("mid", "low"): {"mid/a.hpp"}, ("top", "mid"): {"top/a.cpp"}, ("low", "util"): {"low/a.hpp"},
      ("main", "top"): {"main.cpp"}}
expect("allowed includes pass", ig.violations(ok, table, ["low", "mid", "top", "util"]) == [])

bad = ig.violations({("low", "mid"): {"low/x.cpp"}}, table, [])
expect("an include the table does not allow is named", len(bad) == 1 and "low/x.cpp includes mid/" in bad[0])
bad = ig.violations({("top", "mid"): {"top/x.hpp"}}, table, [])
expect("a header including a PRIVATE area is named", len(bad) == 1 and "PRIVATE" in bad[0])
bad = ig.violations({}, table, ["newarea"])
expect("an area folder without a line is named", len(bad) == 1 and "newarea" in bad[0])
looped = ig.read_table("workbook_area(a PUBLIC b) workbook_area(b PRIVATE a)")
expect("a cycle in the table is named", any("cycle" in v for v in ig.violations({}, looped, [])))
expect("an unknown dependency is named", any("'ghost'" in v for v in
       ig.violations({}, ig.read_table("workbook_area(a PUBLIC ghost)"), [])))
for broken in ("workbook_area(a b)", "workbook_area()", "workbook_area(a) workbook_area(a)"):
    try:
        ig.read_table(broken)
        failures.append(f"{broken} is refused")
    except ValueError:
        pass

for f in failures:
    print(f"FAILED: {f}")
print(f"{len(failures)} failures" if failures else "include_graph --check: all cases pass")
sys.exit(1 if failures else 0)
