"""Difficulty spread and clue kinds of generated cross-numbers (issue 21).

Why: the generator used to give trivial clues (rating 0.0 for most puzzles); this prints,
for seeds 0..N-1 at each size, the native rating, its tier and which kinds of clue parts
the puzzles use, so the effect of a generator or rating change is measured, not guessed.
Usage: python bench/crossnumber_generate.py [--seeds 20] [--sizes 3 4]
"""

from __future__ import annotations

import argparse
import collections
import random
import re

import yaml

from puzzleforge.crossnumber.family import Params, family


def part_kind(part: str) -> str:
    """A coarse name for a clue part, for counting."""
    p = part.strip()
    if re.fullmatch(r"[AD]\d+ [<>] [AD]\d+", p):
        return "relation between entries"
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
        ratings = []
        for seed in range(args.seeds):
            p = family.generate(Params(mode="generate", size=size), random.Random(seed))
            ratings.append(p.meta["rating"])
            tiers[p.meta["tier"]] += 1
            clues = yaml.safe_load(p.meta["puzzle_file"])["clues"]
            for text in clues.values():
                for part in str(text).split(";"):
                    kinds[part_kind(part)] += 1
        print(f"size {size}: ratings {sorted(round(r, 2) for r in ratings)}")
        print(f"  tiers {dict(sorted(tiers.items()))}; zero ratings {ratings.count(0.0)}")
        print(f"  clue parts {dict(kinds.most_common())}")


if __name__ == "__main__":
    main()
