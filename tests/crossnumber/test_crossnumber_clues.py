"""Every clue type of the seed's list: the number-kind tests and generators, and each
clue phrase checked against grids that satisfy it and grids that do not."""

from __future__ import annotations

import pytest
import yaml

from puzzleforge.crossnumber import kinds as nb
from puzzleforge.crossnumber.model import parse_model
from puzzleforge.crossnumber.solver import check_grid, solve


def make(clues: dict, grid: list[str], rules: dict | None = None, variables: dict | None = None):
    data = {"title": "t", "grid": "\n".join(grid) + "\n", "clues": clues}
    if rules:
        data["rules"] = rules
    if variables:
        data["variables"] = variables
    return parse_model(yaml.safe_dump(data, sort_keys=False))


TWO = ["....", "####", "...."]  # two independent across entries A1 and A2


def ok(a1: str, a1_value: str, a2: str = "unclued", a2_value: str = "9998", **kw) -> bool:
    grid = kw.pop("grid", TWO)
    m = make({"A1": a1, "A2": a2}, grid, **kw)
    return check_grid(m, [a1_value, "####", a2_value]) is not None


@pytest.mark.parametrize(
    "kind,yes,no",
    [
        ("even", [10, 1234], [11]),
        ("odd", [11], [10]),
        ("prime", [2, 97, 7919], [1, 91, 7917]),
        ("square", [0, 1, 144], [2, 143]),
        ("cube", [27, 1331], [28]),
        ("power", [8, 16, 1331, 3125], [12, 1]),
        ("power3", [8, 16, 64, 1331, 3125], [36, 100]),
        ("triangular", [1, 3, 6, 5050], [4]),
        ("squarepyramidal", [1, 5, 14, 30, 55], [6, 29]),
        ("lucas", [2, 1, 3, 4, 7, 11, 18], [5, 6]),
        ("fibonacci", [0, 1, 2, 3, 5, 8, 13, 21], [4, 6]),
        ("palindrome", [7, 121, 4554], [12]),
        ("happy", [1, 7, 10, 13, 19, 23], [2, 4, 20]),
        ("lucky", [1, 3, 7, 9, 13, 15, 21, 25], [2, 5, 11]),
        ("ascending", [1234, 159], [1224, 321]),
        ("descending", [321, 951], [322, 123]),
        ("consecutive", [4253, 123], [124]),
        ("sumconsecutivesquares", [5, 13, 25, 265], [26]),
        ("product3primes", [30, 42, 36445], [60, 31]),
    ],
)
def test_kind_tests(kind: str, yes: list[int], no: list[int]) -> None:
    t = nb.kind_test(kind)
    assert all(t(v) for v in yes), [v for v in yes if not t(v)]
    assert not any(t(v) for v in no), [v for v in no if t(v)]


@pytest.mark.parametrize("kind", sorted(nb.KINDS))
def test_generators_agree_with_tests(kind: str) -> None:
    lo, hi = 10, 700
    if kind in ("integer", "natural", "multiplier", "even", "odd"):
        lo, hi = 10, 60
    gen = list(nb.generate(kind, lo, hi))
    assert gen == sorted(gen)
    assert gen == [v for v in range(lo, hi + 1) if nb.kind_test(kind)(v)]


def test_digit_helpers() -> None:
    assert nb.digits_sum(4554) == 18 and nb.digits_product(154) == 20
    assert nb.reverse_int(1230) == 321 and nb.jumbles(112) == [121, 211]
    assert nb.persistence(39) == 3 and nb.persistence(7) == 0
    assert nb.divisors(12) == [1, 2, 3, 4, 6, 12]


@pytest.mark.parametrize(
    "clue,good,bad",
    [
        ("prime", "1009", "1001"),
        ("even; square", "1024", "1089"),
        ("odd", "1001", "1000"),
        ("cube", "1331", "1332"),
        ("power", "1024", "1025"),
        ("power >= 3", "1331", "1156"),
        ("triangular", "1035", "1036"),
        ("square pyramidal", "1015", "1016"),
        ("Lucas", "1364", "1365"),
        ("Fibonacci", "1597", "1598"),
        ("palindrome", "1221", "1231"),
        ("happy", "1000", "1002"),
        ("lucky", "1009", "1010"),
        ("ascending digits", "1234", "1243"),
        ("descending", "9876", "9877"),
        ("consecutive digits", "3412", "3413"),
        ("product of 3 distinct primes", "1001", "1003"),
        ("sum of 2 consecutive squares", "1013", "1014"),
        ("half of a triangular", "1040", "1041"),
        ("twice a square", "1152", "1154"),
        ("digit sum 10", "1234", "1235"),
        ("digit product is 24", "1234", "1235"),
        ("multiplicative persistence 2", "1259", "1111"),
    ],
)
def test_unary_clue_phrases(clue: str, good: str, bad: str) -> None:
    assert ok(clue, good)
    assert not ok(clue, bad)


@pytest.mark.parametrize(
    "clue,good,bad",
    [
        ("multiple of A2", "2468", "2469"),  # A2 = 1234
        ("multiple of 7", "7007", "7008"),
        ("divisor of 4936", "2468", "2467"),
        ("A2 + 1111", "2345", "2346"),  # value +/- another clue
        ("A2 * 2 - 1", "2467", "2468"),
        ("reverse of A2", "4321", "4312"),
        ("jumble of A2", "3421", "3422"),
        ("digit sum of A2", "10", None),
        ("digit sum A2 - 1224", "5311", "5312"),  # digit sum equal to a clue expression
        ("A2 raised to a power", None, "1234"),
    ],
)
def test_relation_clue_phrases(clue: str, good: str | None, bad: str | None) -> None:
    grid = TWO
    if good is not None and len(good) != 4:
        grid = ["..##", "####", "...."]
    if good is not None:
        row = good if len(good) == 4 else good + "##"
        assert (
            check_grid(make({"A1": clue, "A2": "unclued"}, grid), [row, "####", "1234"]) is not None
        )
    if bad is not None:
        assert check_grid(make({"A1": clue, "A2": "unclued"}, grid), [bad, "####", "1234"]) is None


def test_power_of_another_clue() -> None:
    m = make({"A1": "A2 raised to a power", "A2": "unclued"}, ["....", "####", "..##"])
    assert check_grid(m, ["1296", "####", "36##"]) is not None
    assert check_grid(m, ["1297", "####", "36##"]) is None


def test_sum_of_all_digits_in_the_puzzle() -> None:
    m = make({"A1": "sum of all digits in the grid", "A3": "unclued"}, ["..#", "...", "#.."])
    assert check_grid(m, ["29#", "234", "#36"]) is not None  # 2+9+2+3+4+3+6 = 29
    assert check_grid(m, ["29#", "234", "#37"]) is None
    res = solve(m, limit=3)
    for s in res.solutions:
        total = sum(int(ch) for row in s.rows(m) for ch in row if ch != "#")
        assert s.values["A1"] == total
    assert res.count >= 1


def test_condition_mentioning_the_clue_itself() -> None:
    m = make({"A1": "A2 % A1 = 7", "A2": "unclued"}, TWO)
    assert check_grid(m, ["1000", "####", "2007"]) is not None
    assert check_grid(m, ["1000", "####", "2008"]) is None


def test_variables_domains_generators_and_order() -> None:
    var = {"names": "AB", "domain": "primes", "max": 100, "order": "A < B"}
    m = make({"A1": "AB", "A2": "A+B"}, ["...", "###", "..#"], variables=var)
    res = solve(m, limit=1000)
    assert res.complete and res.count > 1
    for s in res.solutions:
        a, b = s.variables["A"], s.variables["B"]
        assert nb.is_prime(a) and nb.is_prime(b) and a < b
        assert s.values["A1"] == a * b and s.values["A2"] == a + b


def test_variables_not_distinct() -> None:
    var = {"names": "AB", "domain": "1..9", "distinct": False}
    m = make(
        {"A1": "A*11", "A2": "B*11"}, ["..", "##", ".."], variables=var, rules={"distinct": False}
    )
    res = solve(m, limit=200)
    assert res.count == 81


def test_clue_values_with_equality_chain() -> None:
    m = make({"A1": "= 3*A2 = A2 + 2*A2", "A2": "prime"}, ["...", "###", "..#"])
    res = solve(m, limit=100)
    assert res.complete and res.count > 0
    assert all(s.values["A1"] == 3 * s.values["A2"] for s in res.solutions)
