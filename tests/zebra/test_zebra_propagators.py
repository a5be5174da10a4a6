"""Soundness of every clue propagator and of the conciliation rules: on thousands of
random puzzles (clues true on a hidden solution) propagation never removes the true
solution, and every clue's truth function agrees with its CNF encoding."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from zebra_helpers import random_instance  # noqa: E402

from puzzleforge.zebra.engine import Engine  # noqa: E402
from puzzleforge.zebra.exact import ExactChecker  # noqa: E402
from puzzleforge.zebra.grid import NO, YES, Contradiction, Grid  # noqa: E402


def _consistent(g: Grid, sol) -> list[str]:
    bad = []
    for cell, mark in g.marks().items():
        c1, i1, c2, i2 = cell
        e = sol[c1].index(i1)
        truth = sol[c2][e] == i2
        if truth and mark == NO:
            bad.append(f"X on solution cell {cell}")
        if not truth and mark == YES:
            bad.append(f"● on non-solution cell {cell}")
    return bad


@pytest.mark.parametrize("K,k", [(3, 3), (3, 4), (4, 4), (3, 6), (4, 5)])
def test_full_propagation_never_removes_the_solution(K: int, k: int) -> None:
    for seed in range(400):
        cats, sol, clues = random_instance(
            seed * 7 + K * 100 + k, K, k, n_clues=random.Random(seed).randint(2, 10)
        )
        assert all(c.holds(sol) for c in clues), f"drawer produced a false clue (seed {seed})"
        engine = Engine(K, k, clues)
        try:
            engine.propagate()
        except Contradiction:
            pytest.fail(f"contradiction on a consistent clue set (seed {seed})")
        assert _consistent(engine.g, sol) == [], f"seed {seed}"


def test_each_propagator_sound_on_random_partial_grids() -> None:
    """Clue propagators alone, on grids pre-filled with random true marks."""
    for seed in range(1500):
        rng = random.Random(seed)
        K, k = rng.choice([(3, 4), (4, 4), (3, 5), (4, 6)])
        cats, sol, clues = random_instance(seed, K, k, n_clues=1)
        clue = clues[0]
        g = Grid(K, k)
        for _ in range(rng.randint(0, K * k)):
            c1, c2 = sorted(rng.sample(range(K), 2))
            e1, e2 = rng.randrange(k), rng.randrange(k)
            if e1 != e2:
                g.exclude(c1, sol[c1][e1], c2, sol[c2][e2])
        g.pending.clear()
        try:
            clue.propagate(g)
        except Contradiction:
            pytest.fail(f"{clue.kind} contradicted a consistent grid (seed {seed})")
        assert _consistent(g, sol) == [], f"{clue.kind} seed {seed}: {clue}"
        assert not clue.contradicts(g)


def test_truth_function_agrees_with_cnf() -> None:
    """A clue is true on a solution iff its clauses are satisfied by that solution."""
    rng = random.Random(5)
    for seed in range(120):
        K, k = 3, 4
        _, sol, clues = random_instance(1000 + seed, K, k, n_clues=1)
        clue = clues[0]
        checker = ExactChecker(K, k)
        checker.add_clue(clue, 0)
        for _ in range(5):
            other = [list(range(k))] + [rng.sample(range(k), k) for _ in range(K - 1)]
            assumptions = [checker.selectors[0]] + [
                checker.var(0, e, c, other[c][e]) for c in range(1, K) for e in range(k)
            ]
            sat = checker.session.solve(assumptions).sat
            assert sat == clue.holds(other), f"{clue} on {other}"
        checker.close()


def test_group_clues_sound_and_agree_with_cnf() -> None:
    from puzzleforge.zebra.categories import Category
    from puzzleforge.zebra.drawer import ClueDrawer

    for seed in range(300):
        rng = random.Random(seed)
        K, k = 3, rng.choice([3, 4, 5])
        labels = tuple(rng.choice(["woman", "man"]) for _ in range(k))
        if len(set(labels)) < 2:
            continue
        cats = [
            Category("categorical", "a", tuple(f"a{i}" for i in range(k))),
            Category("categorical", "b", tuple(f"b{i}" for i in range(k)), groups=labels),
            Category("categorical", "c", tuple(f"c{i}" for i in range(k))),
        ]
        sol = [list(range(k))] + [rng.sample(range(k), k) for _ in range(K - 1)]
        clue = None
        while clue is None:
            clue = ClueDrawer(rng, cats, sol, K, k).draw("group")
        assert clue.holds(sol)
        engine = Engine(K, k, [clue])
        engine.propagate()
        assert _consistent(engine.g, sol) == []
        checker = ExactChecker(K, k)
        checker.add_clue(clue, 0)
        other = [list(range(k))] + [rng.sample(range(k), k) for _ in range(K - 1)]
        assumptions = [checker.selectors[0]] + [
            checker.var(0, e, c, other[c][e]) for c in range(1, K) for e in range(k)
        ]
        assert checker.session.solve(assumptions).sat == clue.holds(other)
        checker.close()
