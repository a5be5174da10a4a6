"""Seconds per rated, certified zebra puzzle (median and p90) for several sizes.

Each puzzle goes through the whole pipeline: categories, clues, restriction (SAT +
deduction engine), 5 randomised rating solves and the SAT certificate of uniqueness and
necessity. Targets (issue 5): 4x5 <= 0.5 s, 5x5 <= 1.5 s, 6x6 <= 8 s median.

    .venv/bin/python bench/zebra_generate.py [--n 20] [--sizes 3x4,4x4,4x5,5x5,6x6]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.zebra.generator import generate_puzzle

TARGETS = {"4x5": 0.5, "5x5": 1.5, "6x6": 8.0}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20, help="puzzles per size")
    ap.add_argument("--sizes", default="3x4,4x4,4x5,5x5,6x6")
    ap.add_argument("--lang", default="en")
    args = ap.parse_args()
    generate_puzzle(make_rng(0), K=3, k=4, lang=args.lang)  # load the category data once
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(wall clock suffers when the machine is shared; 'cpu med' is process time)")
    print(f"{'size':>5} {'n':>4} {'median s':>9} {'p90 s':>8} {'max s':>7} {'cpu med':>8} "
          f"{'clues':>6} {'score':>6}  target (on wall-clock median)")
    for size in args.sizes.split(","):
        K, k = (int(x) for x in size.split("x"))
        times, cpu, clues, scores = [], [], [], []
        for i in range(args.n):
            rng = make_rng(derive_seed(0, "zebra-bench", K * 100 + k * 1000 + i))
            start, cstart = time.perf_counter(), time.process_time()
            p = generate_puzzle(rng, K=K, k=k, lang=args.lang)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - cstart)
            assert p.certificate["unique"] and p.certificate["all_clues_necessary"]
            clues.append(len(p.clues))
            scores.append(p.rating["score"])
        times.sort()
        p90 = times[min(len(times) - 1, int(round(0.9 * (len(times) - 1))))]
        med = statistics.median(times)
        target = TARGETS.get(size)
        verdict = "" if target is None else f"<= {target} s median: {'met' if med <= target else 'NOT met'}"
        print(f"{size:>5} {len(times):>4} {med:9.3f} {p90:8.3f} {times[-1]:7.2f} "
              f"{statistics.median(cpu):8.3f} "
              f"{statistics.mean(clues):6.1f} {statistics.mean(scores):6.1f}  {verdict}", flush=True)


if __name__ == "__main__":
    main()
