"""Difficulty spread and clue kinds of generated cross-numbers (issue 21).

Why: the generator used to give trivial clues (rating 0.0 for most puzzles); this prints,
for seeds 0..N-1 at each size, the native rating, its tier and which kinds of clue parts
the puzzles use, so the effect of a generator or rating change is measured, not guessed.
It also prints the CPU seconds per puzzle (median and max, ``time.process_time``), how
many seeds gave a puzzle, how many grid attempts that took and why attempts were
dropped, and re-solves every puzzle from its file text (limit 2) to count the unique ones.
Usage: python bench/crossnumber_generate.py [--seeds 20] [--sizes 3 4]
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import statistics
import time

import yaml

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.crossnumber import api
from puzzleforge.crossnumber.family import Params, family
from puzzleforge.crossnumber.generate import generate_puzzle


def part_kind(part: str) -> str:
    """A coarse name for a clue part, for counting."""
    p = part.strip()
    if re.fullmatch(r"[AD]\d+ [<>] [AD]\d+", p):
        return "relation between entries"
    if re.search(r"\bdigits?\b", p) and not re.match(r"digit (sum|product)", p):
        return "single digits in words"
    if p.startswith("$countdigits"):
        return "digit count"
    if p.startswith("$gcd"):
        return "gcd with another entry"
    if p.startswith("digit product") and " of " not in p:
        return "digit product"
    if p.startswith("digit sum") and " of " not in p:
        return "digit sum"
    if re.search(r"\b[AD]\d+\b", p):
        return "expression over entries"
    return p if " " not in p or p.startswith("sum of") or p.startswith("square") else p


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4])
    args = ap.parse_args()
    for size in args.sizes:
        tiers: collections.Counter[str] = collections.Counter()
        kinds: collections.Counter[str] = collections.Counter()
        stats: dict[str, int] = {}
        ratings, cpu = [], []
        failed = unique = 0
        params = Params(mode="generate", size=size)
        for seed in range(args.seeds):
            t0 = time.process_time()
            try:
                text, model, result = generate_puzzle(random.Random(seed), size=size, stats=stats)
            except GenerationFailed:
                failed += 1
                cpu.append(time.process_time() - t0)
                continue
            cpu.append(time.process_time() - t0)
            p = family._puzzle(params, model, result, source=None, text=text)
            ratings.append(p.meta["rating"])
            tiers[p.meta["tier"]] += 1
            again = api.solve_puzzle(api.parse_puzzle(text), limit=2, steps=False)
            unique += again.complete and again.count == 1
            clues = yaml.safe_load(text)["clues"]
            for text_ in clues.values():
                for part in str(text_).split(";"):
                    kinds[part_kind(part)] += 1
        made = args.seeds - failed
        print(
            f"size {size}: {made}/{args.seeds} seeds gave a puzzle, {unique} unique on re-solve; "
            f"CPU s per seed median {statistics.median(cpu):.2f}, max {max(cpu):.2f}; "
            f"attempts {stats.get('attempts', 0)}, dropped "
            + str({k: v for k, v in sorted(stats.items()) if k != "attempts"})
        )
        print(f"  ratings {sorted(round(r, 2) for r in ratings)}")
        print(f"  tiers {dict(sorted(tiers.items()))}; zero ratings {ratings.count(0.0)}")
        print(f"  clue parts {dict(kinds.most_common())}")


if __name__ == "__main__":
    main()
