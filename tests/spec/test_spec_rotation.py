"""spec/rotation.py: a round-table model's solutions from the rotations of those with x0 = 0.

Each random model is built twice from the same draws: as spec/terms.py Terms (what the
engine reads) and as Z3 terms. Expected sets come from an independent source: every
assignment substituted into the Z3 terms and simplified by Z3 to true or false. Every
model the shape test accepts must have a rotation-invariant solution set (checked on the
brute-force set itself), and the rotated rows must be exactly that set.
"""

from __future__ import annotations

import itertools
import random

import pytest
import z3

from puzzleforge.spec.rotation import rotated_rows, rotation_class
from puzzleforge.spec.terms import BOOL, DISPATCH, INT, Builder, Term
from puzzleforge.spec.termsat import term_domains

Z3_FNS = {n: getattr(z3, n) for n in ("If", "Sum", "And", "Or", "Not", "Implies", "Distinct")}


def _build(rng: random.Random, fns: dict, bs: list, xs: list, m: int, modular: bool) -> list:
    """Bounds ``0 <= x < m``, then random statements over differences (modulo m when
    ``modular``; otherwise sometimes a plain one that is not)."""
    And, Or, Not, If, Sum = fns["And"], fns["Or"], fns["Not"], fns["If"], fns["Sum"]
    out = [And(x >= 0, x < m) for x in xs]

    def mo(d, z):  # d == z modulo m, over the range of a difference
        return Or([d == i * m + z for i in (-1, 0, 1)])

    def stmt(depth: int):
        x, y = rng.sample(xs, 2)
        k = rng.randrange(8 if depth else 3)
        if k == 0 or (k == 1 and modular):
            return mo(x - y, rng.randint(-m + 1, m - 1))
        if k == 1:  # not modulo m (unless the draw happens to make it so)
            return rng.choice([x - y == rng.randint(-2, 2), x < y, x == rng.randrange(m)])
        if k == 2:
            return x != y if rng.random() < 0.5 else x == y
        if k == 3:
            return Not(stmt(depth - 1))
        if k == 4:
            return And(stmt(depth - 1), stmt(depth - 1))
        if k == 5:
            return Or(stmt(depth - 1), stmt(depth - 1))
        if k == 6 and bs:
            return fns["Implies"](rng.choice(bs), stmt(depth - 1))
        if k == 7 and len(xs) >= 3:
            return fns["Distinct"](rng.sample(xs, rng.randint(2, len(xs))))
        return Sum([If(stmt(0), 1, 0) for _ in range(3)]) == rng.randint(0, 3)

    for _ in range(rng.randint(1, 4)):
        out.append(stmt(rng.randint(1, 3)))
    return out


def _brute(assertions, consts, doms) -> set:
    out = set()
    for vals in itertools.product(*doms):
        pairs = [
            (c, z3.BoolVal(v) if z3.is_bool(c) else z3.IntVal(v))
            for c, v in zip(consts, vals, strict=True)
        ]
        if all(z3.is_true(z3.simplify(z3.substitute(a, *pairs))) for a in assertions):
            out.add(tuple(vals))
    return out


def _model(seed: int):
    rng = random.Random(seed)
    m, nb, nx = rng.randint(3, 5), rng.randint(0, 2), rng.randint(2, 4)
    modular = rng.random() < 0.7
    zb = [z3.Bool(f"b{i}") for i in range(nb)]
    zx = [z3.Int(f"x{i}") for i in range(nx)]
    b = Builder()
    tb = [Term(b, b.mk("const", i), BOOL) for i in range(nb)]
    tx = [Term(b, b.mk("const", 100 + i), INT) for i in range(nx)]
    build_seed = rng.randrange(1 << 30)
    terms = _build(random.Random(build_seed), DISPATCH, tb, tx, m, modular)
    z3s = _build(random.Random(build_seed), Z3_FNS, zb, zx, m, modular)
    roots = [t.i if type(t) is Term else b.mk("lit", bool(t)) for t in terms]
    ids = list(range(nb)) + [100 + i for i in range(nx)]
    kinds = [z3.Z3_BOOL_SORT] * nb + [z3.Z3_INT_SORT] * nx
    z3_asserts = [t if isinstance(t, z3.BoolRef) else z3.BoolVal(bool(t)) for t in z3s]
    expected = _brute(z3_asserts, zb + zx, [[False, True]] * nb + [list(range(m))] * nx)
    return b, roots, ids, kinds, m, nb, modular, expected


@pytest.mark.parametrize("seed", range(80))
def test_rotated_rows_match_brute_force(seed: int) -> None:
    b, roots, ids, kinds, m, nb, modular, expected = _model(seed)
    doms = term_domains(b.nodes, roots, ids, kinds)
    assert doms is not None
    got = rotation_class(b.nodes, roots, doms[0], doms[1])
    if modular and any(n[0] == "sub" for n in b.nodes):
        assert got is not None  # only statements modulo m, equalities and Distinct
    if got is None:
        return
    s, mm = got
    assert mm == m
    cols = [ids.index(c) for c in s]

    def rot(row: tuple) -> tuple:
        return tuple((v + 1) % m if k in cols else v for k, v in enumerate(row))

    assert {rot(r) for r in expected} == expected  # the independent check of the shape
    res = rotated_rows(b, roots, ids, kinds, None, doms)
    assert res is not None
    rows, k = res
    assert ids[k] == s[0]
    assert rows is not None
    assert len(rows) == len(expected)
    assert {tuple(r) for r in rows} == expected


def _table(m: int):
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    y = Term(b, b.mk("const", 2), INT)
    bounds = [(x >= 0).i, (x < m).i, (y >= 0).i, (y < m).i]
    return b, x, y, bounds


def _class(b, roots):
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    doms = term_domains(b.nodes, roots, [1, 2], kinds)
    return rotation_class(b.nodes, roots, doms[0], doms[1])


def test_statements_not_modulo_m_are_refused() -> None:
    Or = DISPATCH["Or"]
    b, x, y, bounds = _table(6)
    assert _class(b, [*bounds, (x - y == 1).i]) is None  # seat 5 has no right neighbour
    assert _class(b, [*bounds, (x - y == 1).i, (x < y).i]) is None
    assert _class(b, [*bounds, Or(x - y == 1, x - y == -5).i, (x == 2).i]) is None
    assert _class(b, [*bounds, Or(x - y == 1, x - y == -5).i]) == ([1, 2], 6)
    assert _class(b, [*bounds, (x != y).i, DISPATCH["Distinct"](x, y).i]) is None  # no difference


def test_limit_counts_every_rotation() -> None:
    """Two neighbours at a table of 5: 10 seatings (5 rotations of 2)."""
    Or = DISPATCH["Or"]
    b, x, y, bounds = _table(5)
    roots = [*bounds, Or(x - y == 1, x - y == -4, x - y == -1, x - y == 4).i]
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    doms = term_domains(b.nodes, roots, [1, 2], kinds)
    rows, _ = rotated_rows(b, roots, [1, 2], kinds, None, doms)
    assert sorted(map(tuple, rows)) == sorted(
        (a, c) for a in range(5) for c in range(5) if (a - c) % 5 in (1, 4)
    )
    rows, _ = rotated_rows(b, roots, [1, 2], kinds, 10, doms)
    assert len(rows) == 10  # within max_solution: all of them
    rows, _ = rotated_rows(b, roots, [1, 2], kinds, 9, doms)
    assert len(rows) > 9  # more than max_solution: the caller rejects
