"""Benchmark: a Sudoku clue-removal uniqueness loop on each solver backend.

Prints ms per uniqueness check for Z3 and for SAT (CaDiCaL, Glucose) and their ratio,
all measured in this one run (the machines are noisy: compare ratios, not absolutes).

    .venv/bin/python bench/solver_backends.py [--puzzles 3]

Each puzzle: one session holds the Sudoku rules and a clause blocking the known full
solution behind an activation literal; the givens are assumptions; removing a given is
kept when the solver still finds no other solution. 81 checks per puzzle.
"""

from __future__ import annotations

import argparse
import random
import time

from puzzleforge.core.solver import VarPool, exactly_one, open_session


def sudoku_clauses(pool: VarPool) -> list[list[int]]:
    x = lambda r, c, v: pool.id((r, c, v))  # noqa: E731
    clauses: list[list[int]] = []
    for r in range(9):
        for c in range(9):
            clauses += exactly_one([x(r, c, v) for v in range(9)])
    for v in range(9):
        for i in range(9):
            clauses += exactly_one([x(i, c, v) for c in range(9)])
            clauses += exactly_one([x(r, i, v) for r in range(9)])
        for br in range(3):
            for bc in range(3):
                clauses += exactly_one(
                    [x(3 * br + dr, 3 * bc + dc, v) for dr in range(3) for dc in range(3)]
                )
    return clauses


def full_grid(rng: random.Random) -> list[list[int]]:
    """A valid solved grid: the base pattern under random symmetries."""
    base = [[(3 * (r % 3) + r // 3 + c) % 9 for c in range(9)] for r in range(9)]
    digits = list(range(9))
    rng.shuffle(digits)
    bands = rng.sample(range(3), 3)
    rows = [3 * b + r for b in bands for r in rng.sample(range(3), 3)]
    stacks = rng.sample(range(3), 3)
    cols = [3 * s + c for s in stacks for c in rng.sample(range(3), 3)]
    return [[digits[base[r][c]] for c in cols] for r in rows]


def removal_loop(backend: str, grid: list[list[int]], rng: random.Random) -> tuple[int, float, int]:
    pool = VarPool()
    clauses = sudoku_clauses(pool)
    lit = lambda r, c: pool.id((r, c, grid[r][c]))  # noqa: E731
    with open_session(backend, clauses, pool=pool) as session:
        act = session.new_var()
        session.add_clause([-act] + [-lit(r, c) for r in range(9) for c in range(9)])
        givens = {(r, c) for r in range(9) for c in range(9)}
        order = sorted(givens)
        rng.shuffle(order)
        checks = 0
        start = time.perf_counter()
        for cell in order:
            givens.discard(cell)
            checks += 1
            if session.solve([lit(r, c) for r, c in sorted(givens)] + [act]).sat:
                givens.add(cell)
        elapsed = time.perf_counter() - start
    return checks, elapsed, len(givens)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=4)
    args = parser.parse_args()
    backends = ["sat", "glucose", "z3"]
    per_check: dict[str, float] = {}
    for backend in backends:
        rng = random.Random(2024)
        total_checks, total_time, clue_counts = 0, 0.0, []
        for _ in range(args.puzzles):
            grid = full_grid(rng)
            checks, elapsed, clues = removal_loop(backend, grid, random.Random(rng.random()))
            total_checks += checks
            total_time += elapsed
            clue_counts.append(clues)
        per_check[backend] = 1000 * total_time / total_checks
        print(
            f"{backend:8s} {total_checks:4d} checks  {per_check[backend]:8.3f} ms/check  "
            f"minimal puzzles with {clue_counts} clues"
        )
    print(f"ratio z3 / sat(cadical) = {per_check['z3'] / per_check['sat']:.1f}x")
    print(f"ratio glucose / sat(cadical) = {per_check['glucose'] / per_check['sat']:.2f}x")


if __name__ == "__main__":
    main()
