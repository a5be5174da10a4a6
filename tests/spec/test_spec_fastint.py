"""FastInt (spec/fastint.py) builds exactly the terms z3py builds, with the same AST ids.

Why ids: a post_generation spec's scenario ``_sol`` is Z3's first model in a fresh
context, and that model depends on the order in which the context's terms were created
(recycled ids change it). So "the same formula" is not enough: every node must be
created in the same order, which these tests check by building the same expressions in
two fresh contexts, once with z3py's own operators and once with FastInt, and comparing
every node's id and printed form.
"""

from __future__ import annotations

import random

import pytest
import z3

from puzzleforge.spec.fastint import FastInt, make_fast_int
from puzzleforge.spec.fastz3 import fast_and, fast_if, fast_implies, fast_not, fast_sum


def _nodes(exprs: list) -> list[tuple[int, str]]:
    """Every node under ``exprs`` (post-order, first visit) as (id, sexpr)."""
    seen: dict[int, str] = {}

    def walk(e: z3.ExprRef) -> None:
        if e.get_id() in seen:
            return
        for ch in e.children():
            walk(ch)
        seen[e.get_id()] = e.sexpr()

    for e in exprs:
        walk(e)
    return sorted(seen.items())


def _build(fast: bool, seed: int) -> list[tuple[int, str]]:
    ctx = z3.Context()
    rng = random.Random(seed)

    def const(name: str) -> z3.ArithRef:
        c = z3.Int(name, ctx)
        return make_fast_int(c) if fast else c

    xs = [const(f"x{i}") for i in range(6)]
    If = fast_if if fast else z3.If
    Sum = fast_sum if fast else z3.Sum
    Implies = fast_implies if fast else z3.Implies
    Not = fast_not if fast else z3.Not
    And = fast_and if fast else z3.And
    out: list = []
    for _ in range(60):
        a, b = rng.sample(xs, 2)
        k = rng.randint(-5, 60)
        op = rng.randrange(16)
        if op == 0:
            out.append(a == k)
        elif op == 1:
            out.append(a != k)
        elif op == 2:
            out.append(a < b)
        elif op == 3:
            out.append(k <= a)  # reflected: a >= k
        elif op == 4:
            out.append(a > k)
        elif op == 5:
            out.append(a + k >= b - k)
        elif op == 6:
            out.append(k - a == k * b)
        elif op == 7:
            out.append(a * b + k != b)
        elif op == 8:
            out.append(sum([a, b, k]) <= 3 * a)  # builtin sum: 0 + a + b + k
        elif op == 9:
            out.append(Sum([If(x == k, x, 0) for x in xs]) == b)
        elif op == 10:
            out.append(Sum([If(x > k, 1, 0) for x in xs]) == k % 7)
        elif op == 11:
            out.append(a == b)
        elif op == 14:
            out.append(Implies(And(a == k, b != k), Not(a + b > k)))
        elif op == 15:
            out.append(Not(Implies(a < b, Not(b == 2 * a))))
        elif op == 12:
            xs.append((a + b) * k)
        else:
            out.append(a - b > 2 * k + b)
    return _nodes(out)


@pytest.mark.parametrize("seed", range(6))
def test_fast_operators_create_the_same_nodes_in_the_same_order(seed):
    assert _build(True, seed) == _build(False, seed)


def test_results_stay_fast_and_hashable():
    x, y = (make_fast_int(z3.Int(n)) for n in "xy")
    assert type(x) is FastInt
    assert type(x + 1) is FastInt and type(2 * y) is FastInt and type(3 - x) is FastInt
    assert type(fast_sum([x, y])) is FastInt
    assert type(fast_if(x > 0, x, 1)) is FastInt
    assert type(fast_implies(x > 0, y > 0)) is z3.BoolRef and type(fast_not(x > 0)) is z3.BoolRef
    assert len({x, y, x}) == 2  # hashable, as any z3 term


def test_other_operands_get_z3py_results_and_errors():
    x = make_fast_int(z3.Int("x"))
    r = z3.Real("r")
    assert (x == r).eq(z3.ToReal(z3.Int("x")) == r)  # coerced by z3py, as before
    assert (x + 0.5).sort() == z3.RealSort()
    assert (x == None) is False  # noqa: E711  z3py's rule for None
    assert z3.is_true(z3.simplify(x * True == x))  # a Bool operand: z3py's If(b, x, 0)
    with pytest.raises(z3.Z3Exception):
        x == "text"  # noqa: B015  (z3py: not a numeral)
    assert fast_not(True).eq(z3.Not(True))  # a Python bool: z3py casts it
    assert fast_implies(True, z3.Bool("p")).eq(z3.Implies(True, z3.Bool("p")))
    assert make_fast_int(r) is r and type(r) is z3.ArithRef  # only Int terms change
