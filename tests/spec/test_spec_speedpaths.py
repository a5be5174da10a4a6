"""The finite-domain fast path (spec/finite.py) gives exactly Z3's answers.

Random constraint problems over Booleans and small integers (the shapes specs build:
If/Sum counts, bounds, Distinct, Implies, integer division and modulo) are solved twice:
by exhaustive evaluation and by Z3 enumeration with model completion. The solution sets
(projected on the constants that occur) and optima must be identical, and the fast path
must refuse (return None) whatever it cannot evaluate exactly.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3

from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec import solving
from puzzleforge.spec.fastz3 import collect_consts, const_ids
from puzzleforge.spec.finite import compile_finite
from puzzleforge.spec.family import SpecParams, load_spec_family

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"


def _z3_solutions(assertions: list, consts: list) -> list[tuple]:
    ctx = assertions[0].ctx
    s = z3.Solver(ctx=ctx)
    s.add(assertions)
    out = []
    while s.check() == z3.sat:
        m = s.model()
        vals = [m.eval(c, model_completion=True) for c in consts]
        out.append(tuple(bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long() for v in vals))
        if not consts:
            break
        s.add(z3.Or([c != v for c, v in zip(consts, vals)]))
        assert len(out) < 5000
    return sorted(out)


def _random_problem(rng: random.Random, ctx: z3.Context) -> tuple[list, list, z3.ArithRef]:
    bools = [z3.Bool(f"b{i}", ctx) for i in range(rng.randint(1, 5))]
    ints = [z3.Int(f"x{i}", ctx) for i in range(rng.randint(0, 3))]
    cons: list = []
    for x in ints:
        lo = rng.randint(-4, 3)
        if rng.random() < 0.3:
            cons.append(z3.Or([x == v for v in rng.sample(range(-3, 6), 3)]))
        else:
            cons.append(z3.And(x >= lo, x <= lo + rng.randint(0, 5)))

    def term(depth: int) -> z3.ArithRef:
        r = rng.random()
        if depth == 0 or r < 0.3:
            if ints and rng.random() < 0.5:
                return rng.choice(ints)
            return z3.IntVal(rng.randint(-3, 5), ctx)
        if r < 0.5:
            return z3.If(boolean(depth - 1), term(depth - 1), term(depth - 1))
        if r < 0.7:
            return z3.Sum([z3.If(b, rng.randint(1, 6), 0) for b in bools] + [term(depth - 1)])
        if r < 0.8:
            return term(depth - 1) * rng.randint(-2, 3)
        if r < 0.9:
            return term(depth - 1) - term(depth - 1)
        d = rng.choice([-3, -2, 2, 3])
        return term(depth - 1) / d if rng.random() < 0.5 else term(depth - 1) % d

    def boolean(depth: int) -> z3.BoolRef:
        r = rng.random()
        if depth == 0 or r < 0.25:
            return rng.choice(bools)
        if r < 0.45:
            return rng.choice([term(depth - 1) <= term(depth - 1), term(depth - 1) > term(depth - 1),
                               term(depth - 1) == term(depth - 1)])
        if r < 0.55:
            return z3.Implies(boolean(depth - 1), boolean(depth - 1))
        if r < 0.65:
            return z3.Not(boolean(depth - 1))
        if r < 0.75:
            return z3.Xor(boolean(depth - 1), boolean(depth - 1))
        if r < 0.85 and len(ints) >= 2:
            return z3.Distinct(ints)
        return rng.choice([z3.And, z3.Or])(boolean(depth - 1), boolean(depth - 1))

    cons += [boolean(3) for _ in range(rng.randint(1, 3))]
    return cons, bools + ints, term(2)


@pytest.mark.parametrize("seed", range(12))
def test_finite_path_matches_z3_on_random_problems(seed: int) -> None:
    rng = random.Random(seed)
    ctx = z3.Context()
    checked = 0
    for _ in range(25):
        cons, consts, objective = _random_problem(rng, ctx)
        kinds = [c.sort().kind() for c in consts]
        present = const_ids(cons + [objective])
        proj = [c for c in consts if c.get_id() in present]
        res = compile_finite(cons, proj, [c.sort().kind() for c in proj], objective=objective)
        if res is None:
            # refusing is allowed only for an integer without finite top-level bounds
            assert any(k == z3.Z3_INT_SORT for k in kinds)
            continue
        prob, objv = res
        used = [proj[i] for i in prob.used]
        got = sorted(zip(*prob.row_values(prob.rows))) if used else [()] * len(prob.rows)
        assert got == _z3_solutions(cons, used), [str(c) for c in cons]
        assert list(prob.rows) == sorted(prob.rows)
        if len(prob.rows):
            # the objective agrees with Z3's evaluation on every solution
            for row, vals in zip(prob.rows[:20], zip(*prob.row_values(prob.rows[:20]))):
                sub = [(c, z3.BoolVal(v, ctx) if isinstance(v, bool) else z3.IntVal(v, ctx))
                       for c, v in zip(used, vals)]
                want = z3.simplify(z3.substitute(objective, *sub)) if sub else z3.simplify(objective)
                assert int(objv[list(prob.rows).index(row)]) == want.as_long()
        checked += 1
    assert checked >= 5


def test_finite_path_refuses_what_it_cannot_model_exactly() -> None:
    ctx = z3.Context()
    x, y = z3.Int("x", ctx), z3.Int("y", ctx)
    r = z3.Real("r", ctx)
    bounds = [x >= 0, x <= 3, y >= 0, y <= 3]
    kinds = [z3.Z3_INT_SORT, z3.Z3_INT_SORT]
    assert compile_finite(bounds + [x / y == 1], [x, y], kinds) is None  # y may be 0
    assert compile_finite([x >= 0, x + 1 > 2], [x], [z3.Z3_INT_SORT]) is None  # unbounded
    assert compile_finite([r > 0, r < 2], [r], [z3.Z3_REAL_SORT]) is None
    assert compile_finite(bounds + [x * 2**61 * y > 1], [x, y], kinds) is None  # overflow
    aux = z3.Int("aux", ctx)
    assert compile_finite(bounds + [aux == x], [x, y], kinds) is None  # outside the projection
    prob, _ = compile_finite(bounds + [x / (y + 1) == 1], [x, y], kinds)
    assert len(prob.rows) == len(_z3_solutions(bounds + [x / (y + 1) == 1], [x, y]))


def _capture(spec: Path, n: int, seed: int) -> list[tuple]:
    """(assertions, projection) of every enumeration made while generating ``n`` puzzles."""
    seen: list[tuple] = []
    original = solving.SolvingMixin._enumerate_finite

    def spy(self, assertions, limit, consts, kinds):  # noqa: ANN001 - test hook
        out = original(self, assertions, None, consts, kinds)
        z3_sols = _z3_solutions(assertions, consts) if len(consts) <= 16 else None
        seen.append((out, z3_sols, consts))
        if out is not None and limit is not None and len(out) > limit:
            raise solving.Rejection("too many solutions", "test hook")
        return out

    solving.SolvingMixin._enumerate_finite = spy
    try:
        fam = load_spec_family(spec)
        for i in range(n):
            try:
                fam.generate(SpecParams(attempts=1), make_rng(derive_seed(seed, fam.name, i)))
            except Exception:  # noqa: BLE001 - rejected attempts are fine here
                pass
    finally:
        solving.SolvingMixin._enumerate_finite = original
    return seen


CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "puzzleclone"


@pytest.mark.parametrize("spec", [EXAMPLES / "house_numbers.yaml", EXAMPLES / "ore.yaml", EXAMPLES / "vase.yaml",
                                  CORPUS / "2-graduation.yaml", CORPUS / "1-hamburger.yaml"],
                         ids=lambda p: p.stem)
def test_spec_enumerations_agree_with_z3(spec: Path) -> None:
    if not spec.exists():
        pytest.skip(f"{spec} is absent (the shared corpus is not checked out here)")
    seen = _capture(spec, 6, 3)
    compared = 0
    for fast, z3_sols, consts in seen:
        if fast is None or z3_sols is None:
            continue
        got = sorted(tuple(s.values.get(c.get_id()) for c in consts) for s in fast)
        assert got == z3_sols
        assert [tuple(s.values.get(c.get_id()) for c in consts) for s in fast] == got  # canonical order
        compared += 1
    assert compared >= 1  # the fast path ran and was checked at least once


def test_collect_and_const_ids_agree() -> None:
    ctx = z3.Context()
    a, b = z3.Bools("a b", ctx)
    x = z3.Int("x", ctx)
    e = [z3.Implies(a, x > 2), z3.Or(b, x == 1)]
    assert const_ids(e) == {c.get_id() for c in collect_consts(e)}
