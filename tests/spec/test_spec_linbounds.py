"""spec/linbounds.py: the bounds derived from linear rows hold for every solution.

The oracle is Z3 (an independent decision procedure): for each derived bound, the
constraints together with its violation must be unsatisfiable.
"""

from __future__ import annotations

import random

import z3

from puzzleforge.spec.linbounds import tighten_bounds


class _Nodes:
    """finite.py's node list (op, args) for small linear rows, with the Z3 twin of each."""

    def __init__(self, n: int) -> None:
        self.nodes: list[tuple] = []
        self.xs = [z3.Int(f"x{i}") for i in range(n)]
        self.consts = [self.add(("const", i)) for i in range(n)]

    def add(self, node: tuple) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def num(self, v: int) -> int:
        return self.add(("num", v))


def _random_system(rng: random.Random):
    n = rng.randint(2, 4)
    b = _Nodes(n)
    conj, z3s = [], []
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    for i, x in enumerate(b.xs):
        if rng.random() < 0.8:
            lo[i] = rng.randint(-2, 2)
            z3s.append(x >= lo[i])
        if rng.random() < 0.2:
            hi[i] = rng.randint(5, 30)
            z3s.append(x <= hi[i])
    for _ in range(rng.randint(1, 3)):
        coefs = {
            i: rng.choice([-3, -1, 1, 2, 5, 7]) for i in rng.sample(range(n), rng.randint(1, n))
        }
        terms = [b.add(("mul", (b.num(a), b.consts[i]))) for i, a in coefs.items()]
        lhs = b.add(("add", tuple(terms))) if len(terms) > 1 else terms[0]
        k = rng.randint(0, 60)
        op = rng.choice(["le", "lt", "eq", "ge", "gt"])
        conj.append(b.add((op, (lhs, b.num(k)))))
        e = z3.Sum([a * b.xs[i] for i, a in coefs.items()])
        z3s.append({"le": e <= k, "lt": e < k, "eq": e == k, "ge": e >= k, "gt": e > k}[op])
    return b, conj, z3s, lo, hi


def test_derived_bounds_hold_for_every_solution():
    rng = random.Random(2611)
    derived = 0
    for _ in range(150):
        b, conj, z3s, lo, hi = _random_system(rng)
        lo2, hi2 = dict(lo), dict(hi)
        tighten_bounds(b.nodes, conj, set(range(len(b.xs))), lo2, hi2)
        for i, x in enumerate(b.xs):
            for bound, viol in (
                (lo2.get(i), lambda v, x=x: x < v),
                (hi2.get(i), lambda v, x=x: x > v),
            ):
                if bound is None:
                    continue
                s = z3.Solver()
                s.add(z3s + [viol(bound)])
                assert s.check() == z3.unsat
        derived += sum(1 for i in hi2 if i not in hi) + sum(1 for i in lo2 if i not in lo)
    assert derived > 50  # the random rows do bound many unknowns


def test_a_budget_row_bounds_each_unknown():
    # 10*a + 20*b + 30*c == 300 with a, b, c >= 0: a <= 30, b <= 15, c <= 10
    b = _Nodes(3)
    terms = [b.add(("mul", (b.num(p), b.consts[i]))) for i, p in enumerate((10, 20, 30))]
    row = b.add(("eq", (b.add(("add", tuple(terms))), b.num(300))))
    lo, hi = {0: 0, 1: 0, 2: 0}, {}
    tighten_bounds(b.nodes, [row], {0, 1, 2}, lo, hi)
    assert hi == {0: 30, 1: 15, 2: 10}
    assert lo == {0: 0, 1: 0, 2: 0}
    # a row over a constant outside the integers given is not used
    lo, hi = {0: 0, 1: 0, 2: 0}, {}
    tighten_bounds(b.nodes, [row], {0, 1}, lo, hi)
    assert hi == {}


def test_an_empty_bound_means_no_solution():
    # tighten_bounds returns False only when some unknown is left with no value: Z3 must
    # then find the system unsatisfiable; when it returns True the bounds hold as above
    rng = random.Random(1127)
    empty = 0
    for _ in range(300):
        b, conj, z3s, lo, hi = _random_system(rng)
        for i, x in enumerate(b.xs):  # tight boxes, so that contradictions are common
            hi.setdefault(i, lo.get(i, 0) + rng.randint(0, 6))
            z3s.append(x <= hi[i])
        lo2, hi2 = dict(lo), dict(hi)
        s = z3.Solver()
        s.add(z3s)
        if not tighten_bounds(b.nodes, conj, set(range(len(b.xs))), lo2, hi2):
            empty += 1
            assert s.check() == z3.unsat
        else:
            for i, x in enumerate(b.xs):
                s.push()
                s.add(z3.Or(x < lo2[i], x > hi2[i]) if i in lo2 else x > hi2[i])
                assert s.check() == z3.unsat
                s.pop()
    assert empty > 30


def test_skipped_bound_atoms_change_nothing():
    # a conjunct already read as a bound (x >= 0) derives only that bound: skipping it
    # gives the same bounds
    rng = random.Random(77)
    for _ in range(100):
        b, conj, _, lo, hi = _random_system(rng)
        atoms = []
        for i in range(len(b.xs)):
            if i in lo:
                atoms.append(b.add(("ge", (b.consts[i], b.num(lo[i])))))
        lo1, hi1, lo2, hi2 = dict(lo), dict(hi), dict(lo), dict(hi)
        r1 = tighten_bounds(b.nodes, atoms + conj, set(range(len(b.xs))), lo1, hi1)
        r2 = tighten_bounds(b.nodes, atoms + conj, set(range(len(b.xs))), lo2, hi2, set(atoms))
        assert (r1, lo1, hi1) == (r2, lo2, hi2)
