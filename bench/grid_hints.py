"""Benchmark: step-by-step explanations of generated puzzles, every genre.

    .venv/bin/python bench/grid_hints.py [--count 20] [--genres sudoku,nurikabe]

For each genre, ``--count`` generated puzzles (seeds 1..count, default sizes) are explained
from an empty board with ``grid.hints.explain``. Printed per genre: steps per puzzle,
the share of steps by level (local deduction / one-place case split / search), steps that
name a given (must be 0), wrong values (must be 0), and CPU seconds per explanation.
The same checks, on fewer puzzles, run in tests/grid/test_grid_hints.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from puzzleforge.grid import api
from puzzleforge.grid.genres import GENRES, get_genre
from puzzleforge.grid.hints import explain, givens


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--genres", default=",".join(sorted(GENRES)))
    args = ap.parse_args()
    failures = 0
    print(
        f"{'genre':12s} {'steps':>6s} {'local':>6s} {'split':>6s} {'search':>6s} "
        f"{'givens':>6s} {'wrong':>6s} {'CPU s':>7s}"
    )
    for genre_id in args.genres.split(","):
        genre = get_genre(genre_id)
        levels: Counter = Counter()
        named_given = wrong = steps_total = 0
        cpu = 0.0
        for seed in range(1, args.count + 1):
            inst, sol, _ = api.generate(genre_id, "", seed)
            fixed = givens(genre, inst)
            t0 = time.process_time()
            steps = explain(genre, inst)
            cpu += time.process_time() - t0
            steps_total += len(steps)
            for s in steps:
                levels[s.level] += 1
                named_given += (s.var, s.entity) in fixed or s.entity in inst.clues.get("given", {})
                wrong += s.value != sol[s.var][s.entity]
        n = max(1, steps_total)
        failures += named_given + wrong
        print(
            f"{genre_id:12s} {steps_total / args.count:6.1f} {levels['propagation'] / n:6.0%} "
            f"{levels['probing'] / n:6.0%} {levels['search'] / n:6.0%} {named_given:6d} "
            f"{wrong:6d} {cpu / args.count:7.3f}"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
