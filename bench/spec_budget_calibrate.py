"""Calibrate spec/budget.py's UNITS_PER_MS: Z3 resource units per CPU millisecond.

Why: the spec engine's Z3 budgets are counted in Z3 resource units (deterministic), but
their figures (``attempt_seconds``, the slices in ms) are meant as idle-machine time.
This runs generation on the given specs, records for every budgeted Z3 check the units
it consumed and the CPU time it took (time.process_time: load-independent enough on a
shared machine), and prints units per ms overall and for the long checks (>= 50 ms),
which are the ones a budget can stop.

    PYTHONPATH=src python bench/spec_budget_calibrate.py SPEC.yaml ... [-n 10]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec import budget as B
from puzzleforge.spec.family import SpecParams, load_spec_family


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="+")
    ap.add_argument("-n", type=int, default=10)
    ap.add_argument("--attempts", type=int, default=20)
    args = ap.parse_args()
    samples: list[tuple[str, int, float]] = []
    current = [""]
    orig = B.WorkBudget.run

    def run(self, solver, cap_ms=None, *, charge=True):
        t0 = time.process_time()
        before = B.rlimit_count(solver)
        r = orig(self, solver, cap_ms, charge=charge)
        spent = (B.rlimit_count(solver) - before) % (1 << 32)
        samples.append((current[0], spent, (time.process_time() - t0) * 1000))
        return r

    B.WorkBudget.run = run
    for path in args.specs:
        current[0] = Path(path).stem
        fam = load_spec_family(path, trust=True)
        for i in range(args.n):
            for a in range(args.attempts):
                try:
                    fam.generate(SpecParams(attempts=1), make_rng(derive_seed(1, fam.name, i, a)))
                    break
                except GenerationFailed:
                    continue
        rows = [(u, ms) for s, u, ms in samples if s == current[0]]
        tu, tms = sum(u for u, _ in rows), sum(ms for _, ms in rows)
        long = [u / ms for u, ms in rows if ms >= 50]
        lr = f"{statistics.median(long):.0f} ({min(long):.0f}-{max(long):.0f})" if long else "-"
        print(
            f"{current[0]:24} checks {len(rows):6d} units {tu:12d} cpu_ms {tms:9.0f} "
            f"u/ms {tu / max(tms, 1e-9):7.0f} long {len(long):4d} u/ms_long {lr}",
            flush=True,
        )
    tu, tms = sum(u for _, u, _ in samples), sum(ms for _, _, ms in samples)
    long = [u / ms for _, u, ms in samples if ms >= 50]
    print(
        f"all: {tu / max(tms, 1e-9):.0f} units/ms; long checks: {len(long)}, median "
        f"{statistics.median(long) if long else 0:.0f} units/ms"
    )


if __name__ == "__main__":
    main()
