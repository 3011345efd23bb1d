#!/usr/bin/env python3
"""The include graph between the runner's areas (issue 13).

An area is a folder of runner/src (build, cmd, content, ...); main.cpp is the area
"main". Every `#include "area/file.hpp"` in an area's files is an edge from that area to
the included one. Prints the edges with the files that make them, then the cycles
(strongly connected components of more than one area), and exits 1 when there is one.
With --check it also holds every include to the table in runner/areas.cmake (the areas
each area may include; PUBLIC ones also from its headers) and exits 1 on any include the
table does not allow, on an area the table does not name, or on a cycle in the table.
  usage: scripts/include_graph.py [--dot | --check]   (run from the repository root)
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

SRC = Path("runner/src")
AREAS_TABLE = Path("runner/areas.cmake")
BASE_AREA = "util"  # open to every area (areas.cmake says so)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.M)


def area_of(path):
    rel = path.relative_to(SRC)
    return rel.parts[0] if len(rel.parts) > 1 else "main"


def graph():
    edges = defaultdict(set)  # (from, to) -> files
    for f in sorted(SRC.rglob("*")):
        if f.suffix not in (".hpp", ".cpp"):
            continue
        a = area_of(f)
        for b in INCLUDE.findall(f.read_text(errors="replace")):
            if b != a:
                edges[(a, b)].add(str(f.relative_to(SRC)))
    return edges


def read_table(text):
    """areas.cmake's workbook_area(NAME [PUBLIC a...] [PRIVATE b...]) lines, as
    {area: {"PUBLIC": set, "PRIVATE": set}}; raises ValueError on a line it cannot read."""
    text = re.sub(r"#.*", "", text)
    table = {}
    for call in re.findall(r"workbook_area\s*\(([^)]*)\)", text):
        words = call.split()
        if not words:
            raise ValueError("workbook_area() without a name")
        name, part = words[0], None
        if name in table:
            raise ValueError(f"area {name} has two lines")
        table[name] = {"PUBLIC": set(), "PRIVATE": set()}
        for w in words[1:]:
            if w in ("PUBLIC", "PRIVATE"):
                part = w
            elif part is None or not re.fullmatch(r"[a-z_]+", w):
                raise ValueError(f"workbook_area({call.strip()}): cannot read '{w}'")
            else:
                table[name][part].add(w)
    return table


def allowed(table, a, from_header):
    """The areas that files of area `a` may include (None: any, as main.cpp may)."""
    if a == "main":
        return None
    deps = table[a]["PUBLIC"] | ({BASE_AREA} if a != BASE_AREA else set())
    return deps if from_header else deps | table[a]["PRIVATE"]


def violations(edges, table, folders):
    """Each include the table does not allow, as a line that says what to do; `folders`
    are the area folders found (an area may have no include yet)."""
    out = []
    areas = {a for a, _ in edges} | {b for _, b in edges} | set(folders)
    for a in sorted(areas - set(table) - {"main"}):
        out.append(f"area {a} (runner/src/{a}/) has no line in {AREAS_TABLE}: add "
                   f"workbook_area({a} PUBLIC ... PRIVATE ...) naming the areas it may include")
    for name, parts in sorted(table.items()):
        for dep in sorted(parts["PUBLIC"] | parts["PRIVATE"]):
            if dep not in table or dep == name:
                out.append(f"{AREAS_TABLE}: area {name} names '{dep}', which is not another area")
    for (a, b), files in sorted(edges.items()):
        if a not in table:
            continue
        for f in sorted(files):
            ok = allowed(table, a, f.endswith(".hpp"))
            if ok is None or b in ok:
                continue
            if b in table[a]["PRIVATE"]:
                out.append(f"runner/src/{f} (a header) includes {b}/, which {AREAS_TABLE} lists as "
                           f"PRIVATE for {a}: include it from a .cpp, or move {b} to PUBLIC")
            else:
                out.append(f"runner/src/{f} includes {b}/, which {AREAS_TABLE} does not allow for {a}: "
                           f"use an area {a} may use, or add {b} to {a}'s line if the layering allows it")
    table_edges = {(a, d): {"(table)"} for a, p in table.items() for d in p["PUBLIC"] | p["PRIVATE"]}
    for comp in cycles(table_edges):
        out.append(f"{AREAS_TABLE} has a cycle among {', '.join(comp)}")
    return out


def cycles(edges):
    """Tarjan's strongly connected components with more than one node."""
    nodes = sorted({a for a, _ in edges} | {b for _, b in edges})
    succ = defaultdict(list)
    for a, b in edges:
        succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main():
    edges = graph()
    if "--dot" in sys.argv:
        print("digraph areas {")
        for a, b in sorted(edges):
            print(f'  "{a}" -> "{b}";')
        print("}")
        return 0
    for (a, b), files in sorted(edges.items()):
        print(f"{a} -> {b}  ({', '.join(sorted(files))})")
    found = cycles(edges)
    for comp in found:
        back = [f"{a} -> {b}" for (a, b) in sorted(edges) if a in comp and b in comp]
        print(f"CYCLE among {', '.join(comp)}: {'; '.join(back)}")
    print(f"{len({a for a, _ in edges} | {b for _, b in edges})} areas, {len(edges)} edges, {len(found)} cycles")
    bad = []
    if "--check" in sys.argv:
        try:
            folders = [p.name for p in SRC.iterdir() if p.is_dir()]
            bad = violations(edges, read_table(AREAS_TABLE.read_text()), folders)
        except (OSError, ValueError) as e:
            bad = [f"cannot read {AREAS_TABLE}: {e}"]
        for line in bad:
            print(f"NOT ALLOWED: {line}")
        print(f"{len(bad)} includes or table lines against {AREAS_TABLE}")
    return 1 if found or bad else 0


if __name__ == "__main__":
    sys.exit(main())
