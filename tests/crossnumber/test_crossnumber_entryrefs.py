"""Clue language pieces for published puzzles that relate entries: ``other`` (the value of
another entry: "sum of two other entries", "factor of another entry"), functions of several
arguments (``$gcd``, ``$lcm``, ``$choose``, ``$countdigits``) and ``rules.every_clue``.
Expected values are worked out by hand or by brute force over the grid written here in
plain Python, independent of the solver."""

from __future__ import annotations

import math
from itertools import product

import pytest

from puzzleforge.core.errors import InvalidSpec
from puzzleforge.crossnumber import expr as ex
from puzzleforge.crossnumber.model import parse_model
from puzzleforge.crossnumber.solver import solve


def _value(text: str) -> int | None:
    comp = ex.compile_expr(ex.parse(text, clues=[], variables=[], field="f"))
    assert comp.single is not None
    return comp.single({})


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("$gcd(8172, 27)", 9),
        ("$hcf(8172, 88)", 4),
        ("$lcm(4, 6)", 12),
        ("$choose(10, 3)", 120),
        ("$choose(3, 5)", 0),
        ("$countdigits(2415, 3, 7)", 2),
        ("$countdigits(1000, 0, 0)", 3),
        ("$gcd(12, 18) + 1", 7),
        ("$nextprimesum(14, 4)", 88),
        ("$nextprimesum(128, 4)", 556),
        ("$nextprimeproduct(60, 2)", 4087),
        ("$nextprimesum(-5, 2)", 5),
        ("$nextprimesum(10, 0)", None),
    ],
)
def test_functions_of_several_arguments(text: str, want: int | None) -> None:
    assert _value(text) == want


def test_wrong_number_of_arguments_is_a_clear_error() -> None:
    with pytest.raises(ex.ExprSyntaxError, match=r"2 arguments in parentheses for \$gcd"):
        ex.parse("$gcd(12)", field="f")
    with pytest.raises(ex.ExprSyntaxError, match=r"3 arguments in parentheses for \$countdigits"):
        ex.parse("$countdigits(12, 3)", field="f")


# 3 x 3 ring: A1 (top row), A3 (bottom row), D1 (left column), D2 (right column)
RING = "grid: |\n  ...\n  .#.\n  ...\n"


def _ring_solutions(unary, test) -> set[tuple[str, ...]]:
    """Every grid of the ring whose entries pass ``unary(name, value)`` each and
    ``test(values)`` together, all distinct, none starting with 0 -- by brute force over
    the 3-digit numbers each entry may hold, joined on the shared corner cells."""
    cands = {k: [str(n) for n in range(100, 1000) if unary(k, n)] for k in ("A1", "A3", "D1", "D2")}
    by_first: dict[tuple[str, str], list[str]] = {}
    for k in ("D1", "D2"):
        for v in cands[k]:
            by_first.setdefault((k, v[0]), []).append(v)
    by_ends: dict[tuple[str, str], list[str]] = {}
    for v in cands["A3"]:
        by_ends.setdefault((v[0], v[2]), []).append(v)
    out = set()
    for a1 in cands["A1"]:
        for d1, d2 in product(by_first.get(("D1", a1[0]), []), by_first.get(("D2", a1[2]), [])):
            for a3 in by_ends.get((d1[2], d2[2]), []):
                nums = {"A1": int(a1), "A3": int(a3), "D1": int(d1), "D2": int(d2)}
                if len(set(nums.values())) == 4 and test(nums):
                    out.add((a1, d1[1] + "#" + d2[1], a3))
    return out


def _solved(text: str) -> set[tuple[str, ...]]:
    model = parse_model(text, file="ring.yaml")
    result = solve(model, limit=1000)
    assert result.complete
    return {tuple(s.rows(model)) for s in result.solutions}


def _square(n: int) -> bool:
    return math.isqrt(n) ** 2 == n


def _prime(n: int) -> bool:
    return n > 1 and all(n % p for p in range(2, math.isqrt(n) + 1))


def test_sum_of_two_other_entries_matches_brute_force() -> None:
    text = (
        RING + "clues:\n  A1: square\n  D1: square\n  D2: unclued\n  A3: sum of two other entries\n"
    )

    kinds = {"A1": _square, "D1": _square, "D2": lambda n: True, "A3": lambda n: True}

    def rule(v: dict[str, int]) -> bool:
        others = [v["A1"], v["D1"], v["D2"]]
        return any(v["A3"] == x + y for i, x in enumerate(others) for y in others[i + 1 :])

    want = _ring_solutions(lambda k, n: kinds[k](n), rule)
    assert want  # the test puzzle has solutions to compare
    assert _solved(text) == want


def test_factor_of_another_entry_and_every_clue_match_brute_force() -> None:
    text = (
        RING + "rules:\n  every_clue: ['$countdigits({clue}, 3, 7) = 2', odd]\n"
        "clues:\n  A1: prime\n  D1: square\n  D2: unclued\n  A3: factor of another entry\n"
    )

    kinds = {"A1": _prime, "D1": _square, "D2": lambda n: True, "A3": lambda n: True}

    def unary(k: str, n: int) -> bool:
        return kinds[k](n) and n % 2 == 1 and sum(ch in "34567" for ch in str(n)) == 2

    def rule(v: dict[str, int]) -> bool:
        return any(x != v["A3"] and x % v["A3"] == 0 for x in v.values())

    want = _ring_solutions(unary, rule)
    assert want
    assert _solved(text) == want


def test_gcd_clue_matches_brute_force() -> None:
    text = RING + "clues:\n  A1: $gcd(A1, D1) = 4; $hcf(A1, D2) = 9\n  D1: square\n  A3: square\n"

    def rule(v: dict[str, int]) -> bool:
        return math.gcd(v["A1"], v["D1"]) == 4 and math.gcd(v["A1"], v["D2"]) == 9

    want = _ring_solutions(lambda k, n: k not in ("A3", "D1") or _square(n), rule)
    assert len(want) == 11
    assert _solved(text) == want


def test_alternatives_match_brute_force() -> None:
    text = RING + "clues:\n  A1: square\n  D1: prime\n  D2: square\n  A3: 2 * D1 | D1 + A1\n"
    kinds = {"A1": _square, "D1": _prime, "D2": _square, "A3": lambda n: True}
    used = set()

    def rule(v: dict[str, int]) -> bool:
        hits = [v["A3"] == 2 * v["D1"], v["A3"] == v["D1"] + v["A1"]]
        used.update(i for i, h in enumerate(hits) if h)
        return any(hits)

    want = _ring_solutions(lambda k, n: kinds[k](n), rule)
    assert len(want) == 14 and used == {0, 1}  # both alternatives give solutions
    assert _solved(text) == want


def test_alternatives_must_be_expressions() -> None:
    with pytest.raises(InvalidSpec, match="alternative 'prime' .* is not an expression"):
        parse_model(RING + "clues:\n  A1: D1 + 1 | prime\n", file="r.yaml")
    with pytest.raises(InvalidSpec, match="empty alternative"):
        parse_model(RING + "clues:\n  A1: D1 + 1 |\n", file="r.yaml")


def test_other_is_refused_outside_clues_and_when_there_are_too_few_entries() -> None:
    with pytest.raises(InvalidSpec, match="only allowed in clues") as err:
        parse_model(RING + "rules:\n  grid: ['other > 3']\nclues: {}\n", file="r.yaml")
    assert "rules.grid[0]" in str(err.value)
    with pytest.raises(InvalidSpec, match="only 3 other clues") as err:
        parse_model(RING + "clues:\n  A1: other + other + other + other\n", file="r.yaml")
    assert "clues.A1" in str(err.value)


def test_every_clue_must_be_clue_parts() -> None:
    with pytest.raises(InvalidSpec, match="every_clue") as err:
        parse_model(RING + "rules:\n  every_clue: {a: 1}\nclues: {}\n", file="r.yaml")
    assert "a list of clue parts" in str(err.value)
    with pytest.raises(InvalidSpec, match=r"rules\.every_clue\[0\]"):
        parse_model(
            RING + "rules:\n  every_clue: ['$ds({clue}) % 7 = Q']\nclues: {}\n", file="r.yaml"
        )
