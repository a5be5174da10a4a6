"""The plain-function fast path of clue expressions (crossnumber/fastexpr.py) gives the
same value as the general evaluator, and refuses every expression that may have no value.

Expected values are Python's own arithmetic on the same letters, written out by hand."""

from __future__ import annotations

from itertools import product

import pytest

from puzzleforge.crossnumber.expreval import compile_expr
from puzzleforge.crossnumber.exprparse import parse
from puzzleforge.crossnumber.fastexpr import positional

CASES = [
    ("(BR+A)(N-DN+EW)", lambda A, B, D, E, N, R, W: (B * R + A) * (N - D * N + E * W)),
    ("-A + 3B^2 - A^3", lambda A, B: -A + 3 * B**2 - A**3),
    ("A1 + 2*D3 - A", lambda A, A1, D3: A1 + 2 * D3 - A),
    ("7", lambda: 7),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_fast_function_equals_arithmetic_and_the_general_evaluator(text, expected) -> None:
    names = list(expected.__code__.co_varnames)
    letters = [n for n in names if len(n) == 1]
    node = parse(text, clues=[n for n in names if len(n) > 1], variables=letters)
    general = compile_expr(node)
    fn = positional(node, names)
    assert fn is not None and general.single is not None
    for combo in product(range(-2, 4), repeat=len(names)):
        env = dict(zip(names, combo, strict=True))
        assert fn(*combo) == expected(**env) == general.single(env)


@pytest.mark.parametrize(
    "text", ["A/B", "A%B", "√A", "A!", "A'", "$ds(A)", "A^B", "A^4", "#primes + A", "A^(1/2)"]
)
def test_expressions_that_may_have_no_value_keep_the_general_evaluator(text) -> None:
    node = parse(text, variables="AB")
    assert positional(node, ["A", "B"]) is None


def test_nontrivial_rule_keeps_the_general_evaluator() -> None:
    assert positional(parse("A+B", variables="AB"), ["A", "B"], nontrivial=True) is None


def test_a_name_outside_the_argument_list_is_refused() -> None:
    assert positional(parse("A+B", variables="AB"), ["A"]) is None
