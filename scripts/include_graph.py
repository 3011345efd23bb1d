#!/usr/bin/env python3
"""The include graph between the runner's areas (issue 13).

An area is a folder of runner/src (build, cmd, content, ...); main.cpp is the area
"main". Every `#include "area/file.hpp"` in an area's files is an edge from that area to
the included one. Prints the edges with the files that make them, then the cycles
(strongly connected components of more than one area), and exits 1 when there is one.
  usage: scripts/include_graph.py [--dot]      (run from the repository root)
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

SRC = Path("runner/src")
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
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
