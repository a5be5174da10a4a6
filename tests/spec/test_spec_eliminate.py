"""spec/eliminate.py: eliminating an unknown fixed by an equation gives exactly the solutions.

Expected sets come from an independent source: every assignment of a small space (the
defined unknown over a range that holds every value its equation allows) evaluated by a
plain recursive interpreter of the term nodes written here, with Python's own integer
arithmetic and SMT-LIB's Euclidean division.
"""

from __future__ import annotations

import itertools
import random

import pytest
import z3

from puzzleforge.spec.eliminate import eliminated_rows
from puzzleforge.spec.terms import BOOL, DISPATCH, INT, Builder, Term

If, Sum, And, Or, Not = (DISPATCH[n] for n in ("If", "Sum", "And", "Or", "Not"))


def _value(nodes: list[tuple], i: int, env: dict[int, int | bool]) -> int | bool:
    op, args = nodes[i]
    if op == "const":
        return env[args]
    if op in ("num", "lit"):
        return args
    xs = [_value(nodes, a, env) for a in args]
    if op == "div" or op == "mod":
        a, d = xs
        m = a % abs(d)
        return m if op == "mod" else (a - m) // d
    return {
        "and": lambda: all(xs),
        "or": lambda: any(xs),
        "not": lambda: not xs[0],
        "implies": lambda: (not xs[0]) or xs[1],
        "eq": lambda: xs[0] == xs[1],
        "distinct": lambda: len(set(xs)) == len(xs),
        "ite": lambda: xs[1] if xs[0] else xs[2],
        "le": lambda: xs[0] <= xs[1],
        "lt": lambda: xs[0] < xs[1],
        "ge": lambda: xs[0] >= xs[1],
        "gt": lambda: xs[0] > xs[1],
        "add": lambda: sum(xs),
        "sub": lambda: xs[0] - sum(xs[1:]),
        "neg": lambda: -xs[0],
        "mul": lambda: xs[0] * xs[1],
    }[op]()


def _model(rng: random.Random) -> tuple[Builder, list[int], list[int], list[int], list[list]]:
    """A random model: a defined integer x, small integers ys, Booleans bs."""
    b = Builder()
    ny, nb = rng.randint(1, 3), rng.randint(0, 2)
    x = Term(b, b.mk("const", 1), INT)
    ys = [Term(b, b.mk("const", 10 + i), INT) for i in range(ny)]
    bs = [Term(b, b.mk("const", 20 + i), BOOL) for i in range(nb)]
    roots = [And(y >= 0, y <= rng.randint(1, 3)).i for y in ys]
    weights = [rng.randint(-6, 12) for _ in ys]
    e = Sum([If(y == rng.randint(0, 2), w, 0) for y, w in zip(ys, weights, strict=True)])
    if bs and rng.random() < 0.5:
        e = e + If(bs[0], rng.randint(1, 5), 0)
    c = rng.choice([-3, -2, -1, 1, 2, 3, 4])
    lhs = x if c == 1 and rng.random() < 0.5 else (c * x if rng.random() < 0.5 else x * c)
    roots.append((e == lhs if rng.random() < 0.5 else lhs == e).i)
    if rng.random() < 0.6:  # x's own bounds (else unbounded: only its equation fixes it)
        roots.append(And(x > rng.randint(-20, 5), x <= rng.randint(0, 40)).i)
    for _ in range(rng.randint(0, 3)):  # other conditions over x, ys and bs
        y = rng.choice(ys)
        k = rng.randrange(4)
        if k == 0:
            roots.append((x + y != rng.randint(-5, 10)).i)
        elif k == 1:
            roots.append(Or(y == rng.randint(0, 2), x >= rng.randint(-10, 10)).i)
        elif k == 2 and bs:
            roots.append(Or(Not(bs[-1]), y + x * 2 < rng.randint(-5, 30)).i)
        else:
            roots.append((Sum([If(v > 0, 1, 0) for v in ys]) <= rng.randint(0, len(ys))).i)
    consts = [1] + [10 + i for i in range(ny)] + [20 + i for i in range(nb)]
    kinds = [z3.Z3_INT_SORT] * (1 + ny) + [z3.Z3_BOOL_SORT] * nb
    doms = [list(range(-45, 46))] + [list(range(4))] * ny + [[False, True]] * nb
    present = _present(b, roots)  # the engine passes the constants the model contains
    keep = [k for k, c in enumerate(consts) if c in present]
    return b, roots, [consts[k] for k in keep], [kinds[k] for k in keep], [doms[k] for k in keep]


def _present(b: Builder, roots: list[int]) -> set[int]:
    out, stack = set(), list(roots)
    while stack:
        op, args = b.nodes[stack.pop()]
        if op == "const":
            out.add(args)
        elif op not in ("num", "lit"):
            stack.extend(args)
    return out


def _brute(b: Builder, roots: list[int], consts: list[int], doms: list[list]) -> set[tuple]:
    out = set()
    for vals in itertools.product(*doms[1:]):
        for xv in doms[0]:
            env = dict(zip(consts, (xv, *vals), strict=True))
            if all(_value(b.nodes, r, env) for r in roots):
                out.add((xv, *vals))
    return out


@pytest.mark.parametrize("seed", range(50))
def test_eliminated_rows_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    b, roots, consts, kinds, doms = _model(rng)
    expected = _brute(b, list(roots), consts, doms)  # |E| <= 3 * 12 + 5: x within the range
    rows = eliminated_rows(b, roots, consts, kinds, None)
    assert rows is not None
    assert len(rows) == len(expected)
    assert {tuple(r) for r in rows} == expected


def test_limit_keeps_more_than_limit_rows() -> None:
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    y = Term(b, b.mk("const", 2), INT)
    roots = [And(y >= 0, y <= 9).i, (x == 2 * y).i]
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    assert sorted(eliminated_rows(b, roots, [1, 2], kinds, None) or []) == [
        [2 * v, v] for v in range(10)
    ]
    assert len(eliminated_rows(b, roots, [1, 2], kinds, 3) or []) > 3


def test_outside_the_shape() -> None:
    b = Builder()
    x = Term(b, b.mk("const", 1), INT)
    y = Term(b, b.mk("const", 2), INT)
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    bounds = [And(y >= 0, y <= 9).i]
    # x on both sides, x times an unknown, x only bounded, x == number: no definition
    for root in (x == x + y, x * y == 6, x > y, x == 5):
        assert eliminated_rows(b, [*bounds, root.i], [1, 2], kinds, None) is None
    # a definition, but y unbounded: the rewritten model is still infinite
    assert eliminated_rows(b, [(3 * x == y + 1).i], [1, 2], kinds, None) is None
