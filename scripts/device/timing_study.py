#!/usr/bin/env python3
"""Compares the harness's kernel timings with Nsight Compute's (issue 9, part 0).

Reads what scripts/device/timing_study.sh left in a folder:
  <lab>.run<k>.jsonl      the lab's results file, k = 1..RUNS (the default timing method)
  <lab>.events.jsonl      one run with WB_TIMING=events (CUDA events, no CUPTI)
  <lab>.ncu.csv           ncu --csv --page raw --metrics gpu__time_duration.sum
  <lab>.ncu_nocache.csv   the same with --cache-control none (the harness's own flush only)
  wall.txt                "name seconds" lines: bare binary vs `workbook run` wall times
and writes a markdown report on stdout.

Matching: ncu profiles every launch in order. Consecutive launches of one kernel with
the same grid and block form a run; runs of at least 8 launches are timing loops
(correctness launches come alone), and the n-th timing run of a kernel belongs to the
n-th timed metric the table below gives for it. The ncu figure is the median of the
run's launches after the first three (the warm-up).
"""
import csv
import io
import json
import statistics
import sys
from pathlib import Path

# lab file stem -> [(metric, kernel base name, scale to microseconds)]
STUDY = {
    "vecadd_roofline": [("kernel_us", "vecadd", 1.0)],
    "tiled_gemm": [("naive_ms", "matmul_naive", 1e3), ("tiled_ms", "matmul_tiled", 1e3)],
    "matvec": [("row_ms", "matvec_row", 1e3), ("warp_ms", "matvec_warp", 1e3), ("cublas_ms", "gemv", 1e3)],
    "coalescing": [("row_ms", "copy_row_wise", 1e3), ("col_ms", "copy_col_wise", 1e3)],
}


def metrics(path):
    out = {}
    if not path.exists():
        return out
    for line in path.read_text(errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("type") == "metric":
            out[rec["name"]] = rec
    return out


def ncu_runs(path):
    """[(kernel, config, [durations in us])] in launch order."""
    if not path.exists():
        return []
    text = path.read_text(errors="replace")
    start = text.find('"ID"')
    if start < 0:
        return []
    rows = list(csv.DictReader(io.StringIO(text[start:])))
    runs = []
    for row in rows[1:]:  # rows[0] holds the units
        name = row.get("Kernel Name", "")
        value = row.get("gpu__time_duration.sum", "").replace(",", "")
        try:
            ns = float(value)
        except ValueError:
            continue
        config = (row.get("Grid Size", ""), row.get("Block Size", ""))
        if runs and runs[-1][0] == name and runs[-1][1] == config:
            runs[-1][2].append(ns / 1e3)
        else:
            runs.append((name, config, [ns / 1e3]))
    return runs


def settle_table(folder):
    """The WB_SETTLE_US sweep: median over runs of each timed metric, per settle time."""
    files = sorted(folder.glob("*.settle*.run*.jsonl"))
    if not files:
        return
    values = {}
    for p in files:
        lab, rest = p.name.split(".settle", 1)
        us = int(rest.split(".")[0])
        m = metrics(p)
        for metric, kernel, scale in STUDY.get(lab, []):
            if metric in m:
                values.setdefault((lab, metric), {}).setdefault(us, []).append(m[metric]["value"] * scale)
    settles = sorted({us for v in values.values() for us in v})
    print("\nSettle time after the L2 flush (WB_SETTLE_US), median of runs, us:\n")
    print("| lab | metric | " + " | ".join(f"{us} us" for us in settles) + " |")
    print("|---|---|" + "---|" * len(settles))
    for (lab, metric), by in values.items():
        cells = [f"{statistics.median(by[us]):.2f}" if us in by else "-" for us in settles]
        print(f"| {lab} | {metric} | " + " | ".join(cells) + " |")


def short_kernels(folder):
    """The short-kernel probe: harness (kernel clock) against ncu, us."""
    txt = folder / "short_kernels.txt"
    if not txt.exists():
        return
    harness = {}
    for line in txt.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith("probe_"):
            harness[parts[0]] = (float(parts[1]), parts[2])
    runs = ncu_runs(folder / "short_kernels.ncu.csv")
    print("\nShort kernels (scripts/device/probes/short_kernels.cu): the instruments' offset\n")
    print("| kernel | harness median (us) | clock | ncu median (us) | ncu - harness (us) |")
    print("|---|---|---|---|---|")
    for name, (value, clock) in harness.items():
        durations = [d for r in runs if name in r[0] for d in r[2]]
        ncu = statistics.median(durations[3:] or durations) if durations else None
        print(f"| {name} | {value:.3f} | {clock} | {f'{ncu:.3f}' if ncu else '-'} | "
              f"{f'{ncu - value:+.3f}' if ncu else '-'} |")


def main(folder):
    folder = Path(folder)
    print("| lab | metric | kernel | harness median (us) | clock | run-to-run spread | ncu median (us) | harness vs ncu "
          "| ncu, cache control none (us) | harness vs that | events median (us) | events vs ncu |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for lab, rows in STUDY.items():
        runs = sorted(folder.glob(f"{lab}.run*.jsonl"))
        per_run = [metrics(p) for p in runs]
        events = metrics(folder / f"{lab}.events.jsonl")
        timing_runs = [r for r in ncu_runs(folder / f"{lab}.ncu.csv") if len(r[2]) >= 8]
        nocache_runs = [r for r in ncu_runs(folder / f"{lab}.ncu_nocache.csv") if len(r[2]) >= 8]
        seen = {}
        for metric, kernel, scale in rows:
            values = [m[metric]["value"] * scale for m in per_run if metric in m]
            k = seen.get(kernel, 0)
            matching = [r for r in timing_runs if kernel in r[0]]
            seen[kernel] = k + 1
            ncu = statistics.median(matching[k][2][3:] or matching[k][2]) if k < len(matching) else None
            matching_nc = [r for r in nocache_runs if kernel in r[0]]
            nc = statistics.median(matching_nc[k][2][3:] or matching_nc[k][2]) if k < len(matching_nc) else None
            if not values:
                print(f"| {lab} | {metric} | {kernel} | not reported | | | {ncu or '-'} | | {nc or '-'} | | | |")
                continue
            med = statistics.median(values)
            spread = (max(values) - min(values)) / med * 100 if med else 0
            one = events[metric]["value"] * scale if metric in events else None
            diff = (med / ncu - 1) * 100 if ncu else None
            if diff is not None:
                worst = max(worst, abs(diff))
            clock = ",".join(sorted({m[metric].get("clock", "?") for m in per_run if metric in m}))
            cells = [lab, metric, kernel, f"{med:.2f}", clock, f"{spread:.2f} % ({len(values)} runs)",
                     f"{ncu:.2f}" if ncu else "-", f"{diff:+.1f} %" if diff is not None else "-",
                     f"{nc:.2f}" if nc else "-", f"{(med / nc - 1) * 100:+.1f} %" if nc else "-",
                     f"{one:.2f}" if one else "-", f"{(one / ncu - 1) * 100:+.1f} %" if one and ncu else "-"]
            print("| " + " | ".join(cells) + " |")
    print(f"\nLargest harness-vs-ncu difference: {worst:.1f} %.")
    settle_table(folder)
    short_kernels(folder)
    wall = folder / "wall.txt"
    if wall.exists():
        times = {}
        for line in wall.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2:
                times.setdefault(parts[0], []).append(float(parts[1]))
        if "bare" in times and "runner" in times:
            b, r = statistics.median(times["bare"]), statistics.median(times["runner"])
            print(f"\nWall time, module14/tiled_gemm solution: bare binary {b:.3f} s, warm `workbook run --no-predict` "
                  f"{r:.3f} s (medians of {len(times['bare'])} and {len(times['runner'])}): {r / b:.3f}x.")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
