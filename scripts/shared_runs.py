#!/usr/bin/env python3
"""Runs of consecutive words the project shares with the workbook's source text (issue 41).

Content is written in the project's own words: figures and facts carry over from the
workbook, sentences do not. This script finds every run of MIN (default 12) or more
consecutive words that a file shares with the seed text. Words are compared with case and
punctuation normalised (a word is a run of letters and digits, lower-cased), so line
breaks, markup and comment markers do not hide a copy.

Files read: modules/ and exercises/ (any run makes the exit status 1) and, reported
separately and never failing, labs/ and solutions/ (there the idiom the workbook teaches,
a global index and its guard, may stay).

  usage: scripts/shared_runs.py [--seed FILE] [--min N] [--root DIR] [--quiet]

The seed defaults to ../shared/seeds/000_73773c14738dddb7.txt beside the repository. Where
there is no seed the script says so and exits 0: CI has no seed, and nothing can be
counted without it.
Prints "file:line: N words: the run" for each run, then the counts.
"""
import argparse
import re
import sys
from pathlib import Path

WORD = re.compile(r"[a-z0-9]+")
STRICT = ("modules", "exercises")
REPORTED = ("labs", "solutions")
SUFFIXES = {".md", ".yaml", ".yml", ".cu", ".cuh", ".cpp", ".hpp", ".h", ".py", ".txt"}
SEED_NAME = "000_73773c14738dddb7.txt"


def words_of(text):
    return WORD.findall(text.lower())


def words_with_lines(text):
    """Every word of the text with the line (from 1) it is on."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        out.extend((w, number) for w in words_of(line))
    return out


def seed_grams(seed_words, n):
    return {tuple(seed_words[i:i + n]) for i in range(len(seed_words) - n + 1)}


def runs_in(words, grams, n):
    """Maximal runs of consecutive n-grams found in the seed: (first line, word count, text)."""
    found = []
    i = 0
    while i + n <= len(words):
        if tuple(w for w, _ in words[i:i + n]) not in grams:
            i += 1
            continue
        j = i
        while j + 1 + n <= len(words) and tuple(w for w, _ in words[j + 1:j + 1 + n]) in grams:
            j += 1
        length = j - i + n
        found.append((words[i][1], length, " ".join(w for w, _ in words[i:i + length])))
        i = j + n
    return found


def default_seed(root):
    return root.parent / "shared" / "seeds" / SEED_NAME


def files_under(root, top):
    base = root / top
    if not base.is_dir():
        return []
    return sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in SUFFIXES)


def scan(root, tops, grams, n, quiet):
    count = 0
    for top in tops:
        for path in files_under(root, top):
            words = words_with_lines(path.read_text(errors="replace"))
            for line, length, text in runs_in(words, grams, n):
                count += 1
                if not quiet:
                    print(f"{path.relative_to(root)}:{line}: {length} words: {text}")
    return count


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", help="the workbook's source text")
    parser.add_argument("--min", type=int, default=12, help="shortest run reported (words)")
    parser.add_argument("--root", help="the repository (default: this script's)")
    parser.add_argument("--quiet", action="store_true", help="print the counts only")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve() if args.root else Path(__file__).resolve().parents[1]
    seed = Path(args.seed) if args.seed else default_seed(root)
    if not seed.is_file():
        print(f"shared_runs: no seed text at {seed}: nothing counted (pass --seed FILE)")
        return 0
    n = max(1, args.min)
    grams = seed_grams(words_of(seed.read_text(errors="replace")), n)
    strict = scan(root, STRICT, grams, n, args.quiet)
    reported = scan(root, REPORTED, grams, n, args.quiet)
    print(f"shared_runs: {strict} run(s) of {n}+ words in {' and '.join(t + '/' for t in STRICT)}"
          f" (must be 0); {reported} in {' and '.join(t + '/' for t in REPORTED)} (reported only)")
    return 1 if strict else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
