"""The C-API translation of math formulas (spec/mathz3.py) builds the same Z3 terms as Z3's
Python operators (mathexpr._to_z3), so specs' constraints and outputs do not change.

Z3 shares structurally equal terms in a context, so ``eq`` (same AST) is the check.
"""

from __future__ import annotations

import random

import pytest
import z3

from puzzleforge.spec import formulagen, mathexpr
from puzzleforge.spec.mathz3 import translate_real


def _python_ops(nodes, zs):
    side: list = []
    return [mathexpr._to_z3(n, zs, side) for n in nodes], side


def _same(a, b) -> bool:
    if isinstance(a, z3.ExprRef) or isinstance(b, z3.ExprRef):
        return (
            isinstance(a, z3.ExprRef)
            and isinstance(b, z3.ExprRef)
            and a.eq(b)
            and a.sort().eq(b.sort())
        )
    return type(a) is type(b) and a == b


@pytest.mark.parametrize(
    "is_cond, allow_power", [(True, False), (False, False), (True, True), (False, True)]
)
def test_random_formulas_translate_to_the_same_terms(is_cond, allow_power):
    rng = random.Random(11)
    for n in (1, 2, 4, 6):
        zs = [z3.Real(f"v{i}") for i in range(n)]
        for _ in range(60):
            texts = formulagen.generate_formulas(
                rng, 4, n, is_cond=is_cond, allow_power=allow_power
            )
            nodes = [mathexpr.parse_formula(t, n) for t in texts]
            fast = translate_real(nodes, zs)
            assert fast is not None
            slow = _python_ops(nodes, zs)
            assert len(fast[0]) == len(slow[0]) and all(map(_same, fast[0], slow[0]))
            assert len(fast[1]) == len(slow[1]) and all(map(_same, fast[1], slow[1]))


@pytest.mark.parametrize(
    "text",
    [
        "(Div (Var 0) (Add (Var 1) (Const 2)))",
        "(Div (Const 3) (Const 4))",
        "(Cmp == (Div (Var 1) (Sub (Const 1) (Var 0))) (Const -2))",
        "(Add (Sub (Const 3) (Const 5)) (Mul (Const 2) (Const 7)))",
        "(Mul (Add (Const 3) (Const 5)) (Var 1))",
        "(Cmp > (Power (Var 0) 3) (Mul (Var 1) (Const 4)))",
        "(Const 7)",
    ],
)
def test_hand_written_formulas_translate_to_the_same_terms(text):
    zs = [z3.Real("a"), z3.Real("b")]
    nodes = [mathexpr.parse_formula(text, 2)]
    fast = translate_real(nodes, zs)
    assert fast is not None
    slow = _python_ops(nodes, zs)
    assert all(map(_same, fast[0], slow[0])) and all(map(_same, fast[1], slow[1]))
    assert len(fast[1]) == len(slow[1])


@pytest.mark.parametrize(
    "text, zs",
    [
        ("(Add (Var 0) (Const 2.5))", [z3.Real("a")]),  # float constant
        ("(Cmp <= (Const 1) (Var 0))", [z3.Real("a")]),  # number on the left
        ("(Add (Var 0) (Const 2))", [z3.Int("i")]),  # Int variable
    ],
)
def test_other_formulas_are_left_to_the_python_operators(text, zs):
    nodes = [mathexpr.parse_formula(text, 1)]
    assert translate_real(nodes, zs) is None
    exprs = mathexpr.build_system([text], zs)["z3_expr"]
    assert _same(exprs[0], _python_ops(nodes, zs)[0][0])


class _Subclassed(random.Random):
    """Draws exactly like random.Random, but takes generate_formulas' public-method path."""


@pytest.mark.parametrize(
    "is_cond, allow_power", [(True, False), (False, False), (True, True), (False, True)]
)
def test_formula_generation_makes_the_same_draws_on_both_paths(is_cond, allow_power):
    for seed in range(150):
        for n, num, depth in ((1, 1, 5), (3, 4, 5), (6, 6, 3), (2, 3, 0), (4, 3, 1), (5, 2, 2)):
            plain, sub = random.Random(seed), _Subclassed(seed)
            a = formulagen.generate_formulas(
                plain, num, n, is_cond=is_cond, allow_power=allow_power, max_depth=depth
            )
            b = formulagen.generate_formulas(
                sub, num, n, is_cond=is_cond, allow_power=allow_power, max_depth=depth
            )
            assert a == b
            assert plain.getstate() == sub.getstate()


def test_generated_forms_are_their_texts_linear_forms():
    # generate_formulas records the packed linear form of each text it makes (spec/linsystem.py
    # uses it instead of parsing and linearising): the same as linearising the parse
    from puzzleforge.spec import linsystem

    rng = random.Random(5)
    recorded = 0
    for n in (1, 3, 6):
        for flags in ((True, True), (False, True), (True, False), (False, False)):
            for _ in range(40):
                mathexpr.GENERATED_FORMS.clear()
                for t in formulagen.generate_formulas(
                    rng, 4, n, is_cond=flags[0], allow_power=flags[1]
                ):
                    got = mathexpr.GENERATED_FORMS.get((t, n))
                    if got is None:
                        assert "Power" in t  # only a power has no linear form
                        continue
                    recorded += 1
                    want = linsystem._form(mathexpr.parse_formula(t, n))
                    assert got == want[:-1]  # (kind[, op], packed) without the bound
    assert recorded > 500


def test_generated_texts_are_the_serialized_trees():
    # generate_formulas writes a plain Random's trees through repr (faster): same text
    rng = random.Random(11)
    for n in (1, 2, 6):
        for flags in ((True, True), (False, True), (True, False), (False, False)):
            for _ in range(60):
                for t in formulagen.generate_formulas(
                    rng, 5, n, is_cond=flags[0], allow_power=flags[1]
                ):
                    assert t == mathexpr._serialize(mathexpr.parse_formula(t, n))


def test_generated_latex_templates_render_the_parse():
    # the description's LaTeX of generated formulas comes from templates recorded at
    # generation: the same text as rendering their parse
    rng = random.Random(8)
    for n in (1, 2, 5):
        names = [f"x_{i}" for i in range(n)]
        for flags in ((True, True), (False, True), (True, False), (False, False)):
            for _ in range(40):
                mathexpr.GENERATED_LATEX.clear()  # (a full record is cleared, then parsed)
                texts = formulagen.generate_formulas(
                    rng, 4, n, is_cond=flags[0], allow_power=flags[1]
                )
                for t in texts:
                    want = mathexpr._latex(mathexpr.parse_formula(t, n), names)
                    assert mathexpr.GENERATED_LATEX[(t, n)].format(*names) == want
