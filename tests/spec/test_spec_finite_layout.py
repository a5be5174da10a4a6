"""The exhaustive evaluator's faster layout and walks (spec/finite.py, finitespace.py, fastz3.py, z3raw.py).

* grouped broadcast axes, shape-grouped sums and plain-Python scalar operators give the
  same rows, in the same order, as the one-axis-per-constant and flat layouts, and the
  same solution sets as Z3, on random count/weight problems shaped like 11-wine's;
* ``walk_finite`` over a wider projection evaluates exactly as ``compile_finite`` on
  the constants that occur;
* the plain-pointer walks find the constants the z3core-wrapper walk finds;
* a division whose ``a - (a mod d)`` leaves the 16-bit range is evaluated exactly.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import z3

from puzzleforge.spec import fastz3, finitespace
from puzzleforge.spec.fastz3 import collect_consts, const_ids
from puzzleforge.spec.finite import compile_finite, walk_finite
from puzzleforge.spec.z3raw import RAW, ast_at, ptr


def _z3_solutions(assertions: list, consts: list) -> list[tuple]:
    s = z3.Solver(ctx=assertions[0].ctx)
    s.add(assertions)
    out = []
    while s.check() == z3.sat:
        m = s.model()
        vals = [m.eval(c, model_completion=True) for c in consts]
        out.append(tuple(bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long() for v in vals))
        s.add(z3.Or([c != v for c, v in zip(consts, vals, strict=True)]))
        assert len(out) < 5000
    return sorted(out)


def _wine_like(rng: random.Random, ctx: z3.Context, n: int) -> tuple[list, list]:
    """n 3-valued 'belonging' constants, n 'volumes' fixed by equalities, counts and weights."""
    bel = [z3.Int(f"b{i}", ctx) for i in range(n)]
    vol = [z3.Int(f"v{i}", ctx) for i in range(n)]
    values = rng.sample(range(1, 40), n)
    cons = [z3.And([z3.Or(x == 0, x == 1, x == 2) for x in bel])]
    cons.append(z3.Sum([z3.If(x == 0, 1, 0) for x in bel]) == rng.randint(1, 2))
    if rng.random() < 0.8:
        cons.append(z3.Sum([z3.If(x == 1, 1, 0) for x in bel]) == rng.randint(1, max(1, n // 2)))
    k = rng.randint(1, 4)
    cons.append(
        z3.Sum([z3.If(b == 2, v, 0) for b, v in zip(bel, vol, strict=True)])
        == k * z3.Sum([z3.If(b == 1, v, 0) for b, v in zip(bel, vol, strict=True)])
    )
    cons.append(z3.And([z3.And(v > 0, v <= 50) for v in vol]))
    cons.append(z3.Distinct(vol))
    if rng.random() < 0.5:  # a mixed term: fixed and free constants, a product, a difference
        i, j = rng.sample(range(n), 2)
        cons.append(vol[i] * bel[j] - bel[i] <= rng.randint(0, 60))
    cons.append(z3.And([v == w for v, w in zip(vol, values, strict=True)]))
    proj = []
    for v, b in zip(vol, bel, strict=True):  # the symbols' order: per barrel, volume then belonging
        proj += [v, b]
    return cons, proj


def _rows(cons: list, proj: list) -> tuple[list, list]:
    kinds = [c.sort().kind() for c in proj]
    res = compile_finite(cons, proj, kinds)
    assert res is not None
    prob, _ = res
    return prob.rows.tolist(), prob.row_values(prob.rows)


LAYOUTS = [
    {"_FLAT": 1 << 40},  # one flat pass: every node over every assignment
    {"_FLAT": 0, "AXIS_MIN": 1},  # one axis per constant (the layout before)
    {"_FLAT": 0, "AXIS_MIN": 2, "BLOCK": 64},  # grouped axes, several outer blocks
    {"_FLAT": 0, "AXIS_MIN": 9, "BLOCK": 1 << 10},
    {"_FLAT": 0, "AXIS_MIN": 64},
    {"_FLAT": 0, "AXIS_MIN": 1 << 20},  # one axis holding all trailing constants
]


@pytest.mark.parametrize("seed", range(8))
def test_layouts_agree_with_each_other_and_with_z3(seed: int, monkeypatch) -> None:
    rng = random.Random(seed)
    ctx = z3.Context()
    for n in (3, 5, rng.randint(6, 8)):
        cons, proj = _wine_like(rng, ctx, n)
        got = []
        for layout in LAYOUTS:
            with monkeypatch.context() as m:
                for name, value in layout.items():
                    m.setattr(finitespace, name, value)
                got.append(_rows(cons, proj))
        assert all(g == got[0] for g in got[1:]), f"layouts disagree (n={n})"
        rows, values = got[0]
        assert rows == sorted(rows)
        if n <= 5:
            used = [c for c in proj if c.get_id() in const_ids(cons)]
            want = _z3_solutions(cons, used)
            assert sorted(zip(*values, strict=True)) == want


def test_grouped_axes_keep_the_canonical_order() -> None:
    sizes = [3, 2, 3, 3, 2, 5]
    finite_groups = finitespace._axis_groups(list(range(len(sizes))), sizes)
    flat = [k for members, _ in finite_groups for k in members]
    assert flat == list(range(len(sizes)))  # consecutive, in order
    for members, size in finite_groups:
        assert size == int(np.prod([sizes[k] for k in members]))


def test_walk_over_all_symbols_is_compile_finite_on_the_ones_that_occur() -> None:
    rng = random.Random(5)
    ctx = z3.Context()
    for _ in range(6):
        cons, proj = _wine_like(rng, ctx, rng.randint(3, 6))
        extra = [z3.Int("unused", ctx), z3.Real("unused_real", ctx), z3.Bool("unused_b", ctx)]
        wide = (
            extra[:1] + proj[:3] + extra[1:] + proj[3:] + [proj[1]]
        )  # absent ones and a duplicate
        walk = walk_finite(cons, wide)
        assert walk is not None
        present = const_ids(cons)
        want_consts = [c for c in wide if c.get_id() in present]
        # each constant that occurs once (a duplicate at its last position), in projection order
        assert sorted(c.get_id() for c in walk.consts) == sorted({c.get_id() for c in want_consts})
        last = {c.get_id(): i for i, c in enumerate(wide)}
        assert [last[c.get_id()] for c in walk.consts] == sorted(
            last[c.get_id()] for c in walk.consts
        )
        got = walk.evaluate()
        want = compile_finite(cons, walk.consts, walk.kinds)
        assert got is not None and want is not None
        assert got[0].rows.tolist() == want[0].rows.tolist()
        assert got[0].row_values(got[0].rows) == want[0].row_values(want[0].rows)
    x = z3.Real("x", ctx)
    assert walk_finite([x > 0, x < 2], [x]) is None  # a real constant that occurs: refused
    assert walk_finite([z3.Int("y", ctx) == 1], [x]) is None  # outside the projection


def test_division_leaving_the_16_bit_range_is_exact() -> None:
    # every node fits int16, but a - (a mod d) = -33000 does not (the evaluator before
    # computed it in int16, wrapped, and found no solution)
    ctx = z3.Context()
    x, y = z3.Ints("x y", ctx)
    cons = [z3.Or(x == -32001, x == 5), z3.Or(y == 1000, y == 7), x / y == -33]
    res = compile_finite(cons, [x, y], [z3.Z3_INT_SORT] * 2)
    assert res is not None
    prob, _ = res
    assert (
        list(zip(*prob.row_values(prob.rows), strict=True))
        == _z3_solutions(cons, [x, y])
        == [(-32001, 1000)]
    )


@pytest.mark.parametrize("flat", [1 << 40, 0])
def test_scalar_sums_beyond_the_narrow_type_are_exact(flat: int, monkeypatch) -> None:
    # a sum whose every node fits int16 but whose fixed terms add up to 60000 first
    # (the broadcast layout adds the scalar terms together before the array ones)
    monkeypatch.setattr(finitespace, "_FLAT", flat)
    ctx = z3.Context()
    a, b, z, y = z3.Ints("a b z y", ctx)
    cons = [
        a == 30000,
        b == 30000,
        z3.Or(z == -30000, z == -29999),
        z3.Or(y == 0, y == 1, y == 2),
        z3.Sum([a, b, z, y]) <= 30001,
    ]  # one n-ary addition
    res = compile_finite(cons, [a, b, z, y], [z3.Z3_INT_SORT] * 4)
    assert res is not None
    prob, _ = res
    used = [[a, b, z, y][i] for i in prob.used]
    assert sorted(zip(*prob.row_values(prob.rows), strict=True)) == _z3_solutions(cons, used)


@pytest.mark.skipif(RAW is None, reason="plain-pointer accessors unavailable in this z3 build")
def test_plain_pointer_walks_find_what_the_wrapper_walk_finds() -> None:
    rng = random.Random(2)
    ctx = z3.Context()
    for _ in range(5):
        cons, _proj = _wine_like(rng, ctx, rng.randint(3, 7))
        cons.append(z3.ForAll([z3.Int("q", ctx)], z3.Int("q", ctx) + z3.Int("w", ctx) >= 0))
        slow = list(fastz3._uninterpreted(ctx.ref(), [e.as_ast() for e in cons]))
        assert [i for i, _ in slow] == [c.get_id() for c in collect_consts(cons)]
        assert {i for i, _ in slow} == const_ids(cons)
    e = z3.Int("z", ctx) + 1
    rebuilt = ast_at(ptr(e.as_ast()))
    assert ptr(rebuilt) == ptr(e.as_ast()) and z3.Ast(ptr(e.as_ast()))._as_parameter_ == ptr(
        rebuilt
    )
    assert ptr(z3.Ast(ptr(e.as_ast()))) == ptr(
        e.as_ast()
    )  # built in Python: held as _as_parameter_
