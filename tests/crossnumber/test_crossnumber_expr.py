"""The clue expression language: every operator and feature, evaluation with range
limits, and parse errors that name the position and the expected token."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzleforge.crossnumber import expr as ex


def values(text, env=None, lo=None, hi=None, *, clues=(), variables="", nontrivial=False):
    node = ex.parse(text, clues=clues, variables=variables)
    comp = ex.compile_expr(node, nontrivial=nontrivial)
    return sorted(set(comp.values(dict(env or {}), lo, hi, ex.Budget(10**6))))


@pytest.mark.parametrize(
    "text,expected",
    [
        ("1+2*3", 7),
        ("(1+2)*3", 9),
        ("2^3^2", 512),
        ("-3+5", 2),
        ("10-4-3", 3),
        ("12/4", 3),
        ("17%5", 2),
        ("4!", 24),
        ("√49", 7),
        ("sqrt(81)", 9),
        ("$sqrt(64)", 8),
        ("123'", 321),
        ("$rev(120+3)", 321),
        ("$reverse(45)", 54),
        ("$ds(1234)", 10),
        ("$dp(234)", 24),
        ("$square(12)", 144),
        ("$cube 3", 27),
        ("$abs(-4)", 4),
        ("$mp(39)", 3),
        ("2(3+4)", 14),
        ("3√16", 12),
        ("(2)(5)", 10),
        ("2*-3", -6),
    ],
)
def test_arithmetic(text: str, expected: int) -> None:
    assert values(text) == [expected]


def test_non_exact_operations_give_no_value() -> None:
    assert values("7/2") == []
    assert values("√50") == []
    assert values("5%(A-B)", {"A": 3, "B": 3}, variables="AB") == []  # zero only here


@pytest.mark.parametrize(
    "text,shown",
    [
        ("5%0", "division by zero at position 2"),
        ("A/(3-3)", "division by zero ((3 - 3) is always 0)"),
        ("A/-(2*0)", "division by zero"),
    ],
)
def test_a_divisor_that_is_always_zero_is_flagged(text: str, shown: str) -> None:
    with pytest.raises(ex.ExprSyntaxError, match=shown.replace("(", r"\(").replace(")", r"\)")):
        ex.parse(text, variables="A")


@pytest.mark.parametrize(
    "text,shown",
    [
        ("Cubee", "undefined name 'Cubee' (did you mean 'cube'?) at position 1"),
        ("Asqaure", "undefined name 'Asqaure' (did you mean 'square'?) at position 1"),
        ("ds(A)", "undefined name 'ds' (functions are written with a dollar sign: $ds(...))"),
        ("AX", "undefined variable 'X' at position 2"),
    ],
)
def test_a_misspelt_word_is_blamed_as_a_whole(text: str, shown: str) -> None:
    with pytest.raises(ex.ExprSyntaxError) as err:
        ex.parse(text, variables="ABCD")
    assert shown in str(err.value)


def test_deep_nesting_is_a_clear_error_not_a_recursion_error() -> None:
    with pytest.raises(ex.ExprSyntaxError, match="nested more than 100 levels deep"):
        ex.parse("(" * 3000 + "A" + ")" * 3000, variables="A")
    with pytest.raises(ex.ExprSyntaxError, match="nested more than 100 levels deep"):
        ex.parse("-" * 5000 + "A", variables="A")
    assert ex.parse("(" * 90 + "A" + ")" * 90, variables="A").op == "var"


def test_variables_and_implicit_multiplication() -> None:
    env = {"A": 17, "B": 19, "C": 23, "D": 181}
    assert values("AC+CD", env, variables="ABCD") == [17 * 23 + 23 * 181]
    assert values("AB-D", env, variables="ABCD") == [17 * 19 - 181]
    # ^ binds tighter than juxtaposition: NR^N = N * R^N
    assert values("NR^N", {"N": 2, "R": 7}, variables="NR") == [98]
    assert values("E^FJR", {"E": 3, "F": 4, "J": 12, "R": 7}, variables="EFJR") == [6804]
    assert values("A!-(IR)'", {"A": 5, "I": 13, "R": 7}, variables="AIR") == [101]


def test_clue_references() -> None:
    env = {"D21": 841, "D17": 7056}
    text = "353√D21 + 239√D17"
    assert values(text, env, clues=["D21", "D17"]) == [353 * 29 + 239 * 84]


def test_equality_chain_parses_as_comparison() -> None:
    node = ex.parse("X = 2+3 = 5", variables="X")
    assert node.op == "cmp" and node.ops == ("=", "=") and len(node.args) == 3


@pytest.mark.parametrize(
    "gen,lo,hi,expected",
    [
        ("#primes", 10, 30, [11, 13, 17, 19, 23, 29]),
        ("#squares", 10, 50, [16, 25, 36, 49]),
        ("#cubes", 1, 100, [1, 8, 27, 64]),
        ("#triangular", 10, 30, [10, 15, 21, 28]),
        ("#fibonacci", 10, 100, [13, 21, 34, 55, 89]),
        ("#lucas", 10, 50, [11, 18, 29, 47]),
        ("square", 100, 130, [100, 121]),
        ("Triangular", 40, 50, [45]),
    ],
)
def test_generators_respect_range(gen, lo, hi, expected) -> None:
    assert values(gen, lo=lo, hi=hi) == expected


def test_limits_are_pushed_through_operators() -> None:
    # squares s with s - 20 in [10, 99]
    assert values("#square - A", {"A": 20}, 10, 99, clues=["A"]) == [
        s - 20 for s in (36, 49, 64, 81, 100)
    ]
    assert values("2 * #square", lo=100, hi=200) == [128, 162, 200]
    assert values("#triangular / 2", lo=10, hi=20) == [14, 18]
    assert values("√#square", lo=5, hi=7) == [5, 6, 7]
    assert values("#primes'", lo=70, hi=79) == [71, 73, 74, 76, 79]
    assert values("A ^ #multiplier", {"A": 6}, 10000, 99999, clues=["A"]) == [46656]
    assert values("A * #multiplier", {"A": 30}, 100, 200, clues=["A"]) == [120, 150, 180]
    assert values("$jumble(123)", lo=200, hi=400) == [213, 231, 312, 321]


def test_single_target_product_of_generators_uses_divisors() -> None:
    assert values("(square*prime)'", lo=73991683, hi=73991683, nontrivial=True) == [73991683]
    assert values("(square*prime)'", lo=73991684, hi=73991684, nontrivial=True) == []


def test_unbounded_generator_is_reported_not_hung() -> None:
    node = ex.compile_expr(ex.parse("#primes"))
    with pytest.raises(ex.Unbounded):
        list(node.values({}, None, None, ex.Budget(100)))


def test_budget_stops_large_enumerations() -> None:
    node = ex.compile_expr(ex.parse("#integers"))
    with pytest.raises(ex.BudgetExceeded):
        list(node.values({}, 0, 10**9, ex.Budget(1000)))


def test_nontrivial_rejects_trivial_operations() -> None:
    assert values("A*B", {"A": 1, "B": 7}, variables="AB", nontrivial=True) == []
    assert values("A+B", {"A": 0, "B": 7}, variables="AB", nontrivial=True) == []
    assert values("A'", {"A": 121}, variables="A", nontrivial=True) == []  # palindrome
    assert values("A'", {"A": 120}, variables="A", nontrivial=True) == []  # ends in 0
    assert values("A'", {"A": 7}, variables="A", nontrivial=True) == []  # one digit
    assert values("A!", {"A": 2}, variables="A", nontrivial=True) == []
    assert values("A*B", {"A": 2, "B": 7}, variables="AB", nontrivial=True) == [14]


@pytest.mark.parametrize(
    "text,pos,fragment",
    [
        ("1 +", 4, "end of expression"),
        ("(1+2", 5, "')' closing"),
        ("A+Q", 3, "undefined variable 'Q'"),
        ("#bogus", 1, "unknown generator #bogus"),
        ("$nope(3)", 1, "unknown function $nope"),
        ("2 @ 3", 3, "unexpected character '@'"),
        ("1 2", 3, "unexpected '2'"),
    ],
)
def test_parse_errors_name_position_and_expectation(text, pos, fragment) -> None:
    with pytest.raises(ex.ExprSyntaxError) as info:
        ex.parse(text, variables="A", field="clues.A1", file="p.yaml", line=7)
    msg = str(info.value)
    assert fragment in msg and f"position {pos}" in msg
    assert "p.yaml:7" in msg and "clues.A1" in msg and "Expected" in msg


def test_to_text_round_trip_is_readable() -> None:
    assert ex.to_text(ex.parse("AC+CD", variables="ACD")) == "((A * C) + (C * D))"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ABCD0123456789+-*/^%!'()=<>√#$ sqrtprimesquare,", max_size=25))
def test_parser_never_crashes_on_junk(text: str) -> None:
    try:
        node = ex.parse(text, clues=["A1", "D2"], variables="ABC")
    except ex.ExprSyntaxError:
        return
    comp = ex.compile_expr(node)
    with contextlib.suppress(ex.Unbounded, ex.BudgetExceeded):
        list(comp.values({"A": 2, "B": 3, "C": 5, "A1": 12, "D2": 34}, 0, 10**6, ex.Budget(10**4)))
