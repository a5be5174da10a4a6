"""Explanation length per size and tier: raw engine steps vs the readable steps people
read (bookkeeping folded, sweeps merged) and guess chains vs their shortest refutations.

Issue 22 asks for a 4x5 easy explanation on one printed page (<= 30 steps); this prints
the figures behind that (median, max) for each size, tier and language given.

    .venv/bin/python bench/zebra_explain.py [--n 10] [--sizes 4x5:easy,4x4,5x5] [--lang en,pl]
"""

from __future__ import annotations

import argparse
import statistics

import puzzleforge
from puzzleforge.core.seeding import derive_seed
from puzzleforge.zebra import explain


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10, help="puzzles per size, tier and language")
    ap.add_argument("--sizes", default="4x5:easy,4x4,4x5,5x5")
    ap.add_argument("--lang", default="en,pl")
    args = ap.parse_args()
    print(
        f"{'size':>10} {'lang':>4} {'n':>3} {'raw med':>8} {'read med':>9} {'read max':>9} "
        f"{'chain med':>10} {'refut med':>10} {'refut max':>10}"
    )
    for spec in args.sizes.split(","):
        size, _, tier = spec.partition(":")
        K, k = (int(x) for x in size.split("x"))
        for lang in args.lang.split(","):
            raw, readable, chains, refs = [], [], [], []
            for i in range(args.n):
                params = {"K": K, "k": k, "lang": lang}
                if tier:
                    params["difficulty"] = tier
                p = puzzleforge.generate("zebra", seed=derive_seed(0, "zebra-explain", i), **params)
                raw.append(len(explain(p, raw=True)))
                steps = explain(p)
                readable.append(len(steps))
                for s in steps:
                    if s["rule"] == "guess":
                        chains.append(len(s["chain"]))
                        refs.append(len(s["refutation"]["steps"]))
            med = statistics.median
            print(
                f"{spec:>10} {lang:>4} {args.n:>3} {med(raw):8.1f} {med(readable):9.1f} "
                f"{max(readable):9d} {med(chains) if chains else 0:10.1f} "
                f"{med(refs) if refs else 0:10.1f} {max(refs) if refs else 0:10d}",
                flush=True,
            )


if __name__ == "__main__":
    main()
