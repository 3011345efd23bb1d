#!/usr/bin/env python3
"""Joins the per-lab reports that `scripts/device/validate.sh labs` or own_references.sh brings back (one
`workbook dev check --run --only LAB --report FILE` each) into one report per GPU.

    python3 scripts/device/join_reports.py OUT.md TITLE CALL... -- REPORT.md...

CALL: one line per device call, "command (seconds)", as run; a CALL starting "note: " is
a paragraph of prose after the list (the runner, what is not as declared and why). The joined file opens with
how it was made, a count of the rows by kind and verdict (read from each report's Labs
table, so the counts are the reports' own), then every report with its headings one
level down. The marker line of `dev check --report` is dropped: the joined file was not
written by dev check, so `dev check --report` refuses to overwrite it without --force.
"""
import collections
import re
import sys


def rows_of(text):
    """The rows of the report's Labs table: (lab, variant, verdict, expected, ok)."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]  # **no** is bold
        if len(cells) >= 6 and "/" in cells[0] and cells[2] in ("yes", "no") and cells[5] in ("yes", "no"):
            rows.append((cells[0], cells[1], cells[3], cells[4], cells[5] == "yes"))
    return rows


def kind_of(variant):
    if variant.startswith("wrong:"):
        return "wrong: variants"
    if variant.startswith("slow:"):
        return "slow: variants"
    return variant  # solution, solution:spec_sheet, starter


def main(argv):
    if "--" not in argv or len(argv) < 4:
        sys.exit(__doc__)
    cut = argv.index("--")
    out, title, calls, files = argv[1], argv[2], argv[3:cut], argv[cut + 1:]
    texts = [(f, open(f, encoding="utf-8").read()) for f in sorted(files)]
    count = collections.Counter()
    bad = []
    for f, text in texts:
        for lab, variant, verdict, expected, ok in rows_of(text):
            count[(kind_of(variant), verdict, ok)] += 1
            if not ok:
                bad.append(f"{lab} {variant}: {verdict} (expected {expected})")
    total = sum(count.values())
    lines = [f"# {title}", "",
             "Joined by scripts/device/join_reports.py from per-lab reports (each one "
             "`workbook dev check --run --only LAB --report`, run by the script the calls name), "
             f"{len(texts)} labs. The calls:", ""]
    lines += [f"- `{c}`" for c in calls if not c.startswith("note: ")]
    for c in calls:  # each note a paragraph of its own after the list
        if c.startswith("note: "):
            lines += ["", c[len("note: "):]]
    lines += ["", f"## Result: {total} rows, {total - len(bad)} as declared", "",
              "| row | verdict | as declared | rows |", "|---|---|---|---|"]
    order = ["solution", "solution:spec_sheet", "starter", "wrong: variants", "slow: variants"]
    for (kind, verdict, ok), n in sorted(count.items(), key=lambda k: (order.index(k[0][0]) if k[0][0] in order else 9, k[0][1])):
        lines.append(f"| {kind} | {verdict} | {'yes' if ok else 'NO'} | {n} |")
    if bad:
        lines += ["", "Rows not as declared:", ""] + [f"- {b}" for b in bad]
    for f, text in texts:
        body = [l for l in text.splitlines() if not l.startswith("<!-- written by `workbook dev check --report`")]
        only = re.findall(r"--only (\S+)", text)
        name = " ".join(o.strip("`") for o in only) or f
        body = [f"## {name}" if l == "# Validation report" else ("#" + l) if re.match(r"^#+ ", l) else l for l in body]
        lines += [""] + body
    open(out, "w", encoding="utf-8").write("\n".join(lines).rstrip() + "\n")
    print(f"{out}: {len(texts)} labs, {total} rows, {len(bad)} not as declared")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
