"""What a spec family holds in memory between calls (issue 16 item 4: peak memory).

A Z3 context costs about 17 MB of RSS. A ``generate`` call that gives no puzzle must
free its fresh context (post_generation specs get one per call) when its exception is
dropped, without waiting for a GC pass: its exception's traceback and the failures it
reports used to form reference cycles with the retry loop's frame, so the context of a
rejected call lived on next to the next call's. Checked with the cyclic GC switched off.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
import z3

from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.puzzle import stamp
from puzzleforge.core.seeding import derive_seed, make_rng
from puzzleforge.spec.budget import BUDGET_DECIDES_KEY
from puzzleforge.spec.family import SpecParams, load_spec_family
from puzzleforge.spec.solmodel import ValuesModel, z3_to_py
from puzzleforge.spec.z3space import _MAX_SYMBOLS, Z3Space

ROOT = Path(__file__).resolve().parents[2]
WINE = ROOT / "examples" / "specs" / "wine_merchant.yaml"

#: conditions added before ``post_generation:`` so that every attempt is rejected
NEVER = {
    # contradicts wine_volume_domain: "no solution"
    "no-solution": "  never:\n    formula: wine_s.get('volume')[0] < 0\n",
    # an expression error in every attempt: "error in conditions.never.formula"
    "expression-error": "  never:\n    formula: 1 // (wine_num - wine_num) == 0\n",
}


def _live_spaces() -> int:
    return sum(isinstance(o, Z3Space) for o in gc.get_objects())


@pytest.mark.parametrize("kind", sorted(NEVER))
def test_a_call_without_a_puzzle_frees_its_fresh_context(tmp_path: Path, kind: str) -> None:
    text = WINE.read_text(encoding="utf-8")
    assert "\npost_generation:" in text
    spec = tmp_path / "never.yaml"
    spec.write_text(text.replace("\npost_generation:", "\n" + NEVER[kind] + "post_generation:"))
    fam = load_spec_family(spec, trust=True)
    gc.collect()
    before = _live_spaces()
    gc.disable()
    try:
        for seed in range(3):
            try:
                fam.generate(SpecParams(attempts=2), make_rng(seed))
            except GenerationFailed as exc:
                reasons = set(exc.reasons)
            else:
                raise AssertionError("the spec made a puzzle")
            assert reasons == (
                {"no solution"} if kind == "no-solution" else {"error in conditions.never.formula"}
            )
            assert _live_spaces() == before
    finally:
        gc.enable()


def test_the_symbol_cache_is_bounded() -> None:
    space = Z3Space()
    for i in range(_MAX_SYMBOLS + 10):
        space.symbol(f"s{i}", "int")
    assert len(space._symbols) == 10
    assert space.symbol("s5", "int").eq(space.symbol("s5", "int"))


#: Int symbols without top-level bounds (so Z3 assertions, pre-checked): a linear system
#: for mode 1-2, a nonlinear one (checks capped by the budget) for mode 0
MIXED = """\
variables:
  a:
    type: int
    domain: "[2, 9]"
  mode:
    type: int
    domain: "[0, 2]"
symbols:
  v:
    source:
    - "['x', 'y']"
    type: int
conditions:
  positive:
    formula: And(v['x'] > 0, Abs(v['y']) == v['y'])
  gap:
    formula: v['y'] - v['x'] == 1
  rel:
    formula: "(v['x'] * v['y'] == a * (a + 1)) if mode == 0 else (v['x'] + v['y'] == 2 * a + 1)"
queries:
  q1:
    desc: What is x?
    ans_formula: get_value(_solutions[0], v['x'])
    ans_text: str(_ans)
desc: "mode {mode}, a {a}. {q1}"
"""


def test_a_call_that_meets_a_budget_decided_check_is_made_in_a_fresh_context(
    tmp_path: Path,
) -> None:
    """Linear attempts run (and are pre-checked) in the family's shared context; the call
    whose attempt turns out nonlinear starts over in a fresh context, so every item is the
    one a family that knew from the start (fresh contexts only) gives."""
    spec = tmp_path / "mixed.yaml"
    spec.write_text(MIXED, encoding="utf-8")

    def record(fam, i: int) -> str:
        seed = derive_seed(1, fam.name, i)
        return stamp(fam.generate(SpecParams(attempts=30), make_rng(seed)), seed).to_json()

    shared = load_spec_family(spec, trust=True)
    got = [record(shared, i) for i in range(6)]
    assert shared._lambda_cache.get(BUDGET_DECIDES_KEY) is True
    assert getattr(shared._z3._local, "space", None) is None  # the shared context is freed
    want = []
    for i in range(6):
        fresh = load_spec_family(spec, trust=True)
        fresh._lambda_cache[BUDGET_DECIDES_KEY] = True
        want.append(record(fresh, i))
    assert got == want
    modes = [json.loads(r)["config"]["mode"] for r in got]
    assert 0 in modes and set(modes) & {1, 2}


class _Clock:
    """The one part of an attempt ``collect_models`` reads: its CPU deadline (none here)."""

    def check_time(self) -> None:
        return None


def _enumerate(assertions: list, consts: list) -> list:
    from puzzleforge.spec.fastz3 import add_block
    from puzzleforge.spec.modelloop import collect_models

    ctx = consts[0].ctx
    solver = z3.Solver(ctx=ctx)
    solver.add(assertions)
    kinds = [c.sort().kind() for c in consts]

    def next_model(found: int) -> object:
        return solver.model() if solver.check() == z3.sat else None

    return collect_models(
        _Clock(), consts, kinds, None, next_model, lambda c, r: add_block(solver, c, r)
    )


def test_integer_solutions_keep_no_z3_model_and_evaluate_as_z3s_model() -> None:
    """An enumeration used to keep Z3's model of every solution (56-award: 3,728 models,
    ~41 MB of its peak); over Int and Bool constants a model rebuilt from the values on
    demand evaluates exactly as Z3's own model of the same values."""
    ctx = z3.Context()
    x, y, b = z3.Int("x", ctx), z3.Int("y", ctx), z3.Bool("b", ctx)
    sols = _enumerate([x >= 0, x <= 2, y == 2 * x + 1, b == (x > 0)], [x, y, b])
    assert sorted(s.values[x.get_id()] for s in sols) == [0, 1, 2]
    free = z3.Int("free", ctx)
    for s in sols:
        assert isinstance(s._model, ValuesModel)
        assert s._model.model is None  # nothing built until an expression needs it
        want = z3.Solver(ctx=ctx)
        want.add(x == s.values[x.get_id()], y == s.values[y.get_id()], b == s.values[b.get_id()])
        assert want.check() == z3.sat
        m = want.model()
        for expr in (x * y - 3, z3.If(b, y, -y), (y + 1) / 2, y % 2 == 1, free + x):
            assert s.evaluate(expr) == z3_to_py(m.evaluate(expr))
        assert s.evaluate(free + x, model_completion=True) == s.values[x.get_id()]


def test_real_solutions_keep_z3s_exact_model() -> None:
    ctx = z3.Context()
    r = z3.Real("r", ctx)
    sols = _enumerate([3 * r == 1], [r])
    assert len(sols) == 1
    assert isinstance(sols[0]._model, z3.ModelRef)  # the float value alone is not exact
    assert sols[0]._model.evaluate(3 * r) == z3.RealVal(1, ctx)


def test_cached_systems_keep_no_finished_context_alive() -> None:
    """spec/mathexpr.py caches translated systems; an entry's terms hold their context, so
    entries of an earlier context are dropped when a system is made in another one (a
    fresh context per puzzle kept up to 8 finished contexts, ~17 MB each)."""
    import weakref

    from puzzleforge.spec import mathexpr

    def system_in_a_new_context() -> tuple[weakref.ref, list]:
        ctx = z3.Context()
        zs = [z3.Real("a", ctx), z3.Real("b", ctx)]
        exprs = mathexpr.build_system(["(Cmp == (Add (Var 0) (Var 1)) (Const 3))"], zs)
        return weakref.ref(ctx), exprs["z3_expr"]

    first, first_terms = system_in_a_new_context()
    assert str(first_terms[0]) == "a + b == 3"
    del first_terms
    gc.collect()
    assert first() is not None  # the cache holds it while it is the newest context
    second, second_terms = system_in_a_new_context()
    gc.collect()
    assert first() is None  # freed: the cache keeps the second context's entry only
    assert second() is not None and str(second_terms[0]) == "a + b == 3"
