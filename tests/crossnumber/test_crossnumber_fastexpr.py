"""The plain-function fast path of clue expressions (crossnumber/fastexpr.py) gives the
same value as the general evaluator, and refuses every expression that may have no value.

Expected values are Python's own arithmetic on the same letters, written out by hand."""

from __future__ import annotations

from itertools import product

import pytest

from puzzleforge.crossnumber.expreval import compile_expr
from puzzleforge.crossnumber.exprparse import parse
from puzzleforge.crossnumber.fastexpr import NoValue, positional

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


PARTIAL = [
    "A/B",
    "A%B",
    "√A",
    "A!",
    "A'",
    "$ds(A) + $dp(B)",
    "A^B",
    "(A + 2B)/3 + $abs(A - B)",
    "$dss(A) * √(A B)",
    "$gcd(A, B) + $lcm(A, 2)",
]


@pytest.mark.parametrize("text", PARTIAL)
@pytest.mark.parametrize("nontrivial", [False, True])
def test_partial_operations_match_the_general_evaluator_and_raise_where_it_has_no_value(
    text: str, nontrivial: bool
) -> None:
    node = parse(text, variables="AB")
    general = compile_expr(node, nontrivial=nontrivial)
    fn = positional(node, ["A", "B"], nontrivial=nontrivial)
    assert fn is not None and general.single is not None
    seen = {"value": 0, "none": 0}
    for a, b in product(range(-3, 13), repeat=2):
        want = general.single({"A": a, "B": b})
        if want is None:
            seen["none"] += 1
            with pytest.raises(NoValue):
                fn(a, b)
        else:
            seen["value"] += 1
            assert fn(a, b) == want
    assert seen["value"] > 0


def test_exact_division_and_remainder_by_hand() -> None:
    fn = positional(parse("A/B + A%B", variables="AB"), ["A", "B"])
    assert fn is not None
    assert fn(12, 4) == 3 + 0
    with pytest.raises(NoValue):
        fn(13, 4)
    with pytest.raises(NoValue):
        fn(12, 0)


@pytest.mark.parametrize("text", ["#primes + A", "A^(1/2)", "A < B"])
def test_generators_fractional_powers_and_relations_keep_the_general_evaluator(text) -> None:
    assert positional(parse(text, variables="AB"), ["A", "B"]) is None


def test_nontrivial_rule_is_checked_per_operation() -> None:
    fn = positional(parse("A*B + 1", variables="AB"), ["A", "B"], nontrivial=True)
    assert fn is not None
    assert fn(2, 3) == 7
    with pytest.raises(NoValue):
        fn(1, 3)  # 1 * 3 = 3 repeats an operand


def test_a_name_outside_the_argument_list_is_refused() -> None:
    assert positional(parse("A+B", variables="AB"), ["A"]) is None
