"""Whole-grid rules in the clue language (``rules.grid``, issue 21): digit counts over the
grid, checked against a brute-force enumeration written independently here."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from puzzleforge.core.errors import InvalidSpec
from puzzleforge.crossnumber import api

PUZZLE = """\
title: counts
grid: |
  ..
  ..
rules:
  grid:
  - countE <= 1 for E in 0,2,4,6,8
clues:
  A1: square
  A3: prime
"""


def brute(no_even_repeat: bool) -> set[tuple[str, str]]:
    """Every 2x2 filling: A1 (top row) a 2-digit square, A3 (bottom row) a 2-digit prime,
    D1/D2 (columns) unclued, no entry starts with 0, the four answers all different."""
    out = set()
    for a, b, c, d in itertools.product("0123456789", repeat=4):
        a1, a3, d1, d2 = a + b, c + d, a + c, b + d
        if "0" in (a, b, c):
            continue
        n1, n3 = int(a1), int(a3)
        if round(n1**0.5) ** 2 != n1 or not all(n3 % k for k in range(2, n3)):
            continue
        if len({a1, a3, d1, d2}) < 4:
            continue
        grid = a + b + c + d
        if no_even_repeat and any(grid.count(e) > 1 for e in "02468"):
            continue
        out.add((a1, a3))
    return out


def solve_rows(path: Path) -> set[tuple[str, str]]:
    result = api.solve_puzzle(api.load_puzzle(path), limit=200, steps=False)
    assert result.complete
    return {tuple(s.rows(api.load_puzzle(path))) for s in result.solutions}


def test_digit_count_rule_cuts_exactly_the_repeats(tmp_path: Path) -> None:
    ruled = tmp_path / "ruled.yaml"
    ruled.write_text(PUZZLE, encoding="utf-8")
    free = tmp_path / "free.yaml"
    free.write_text(
        PUZZLE.replace("rules:\n  grid:\n  - countE <= 1 for E in 0,2,4,6,8\n", ""),
        encoding="utf-8",
    )
    assert solve_rows(free) == brute(False)
    assert solve_rows(ruled) == brute(True)
    assert brute(True) < brute(False)
    q = api.render_question(api.load_puzzle(ruled))
    assert "Grid rule: countE <= 1 for E in 0,2,4,6,8 (countD = how many times" in q


def test_rule_over_counts_and_entries(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(
        PUZZLE.replace("countE <= 1 for E in 0,2,4,6,8", "count1 = 2; A3 > 50").replace(
            "; A3 > 50", "\n  - A3 > 50"
        ),
        encoding="utf-8",
    )
    want = {(x, y) for x, y in brute(False) if (x + y).count("1") == 2 and int(y) > 50}
    assert want and solve_rows(path) == want


@pytest.mark.parametrize(
    "rule,shown,expected",
    [
        ("count1 + 2", "'count1 + 2' is not a relation", "Expected a comparison"),
        (
            "countX <= 1 for E in 0,2",
            "'for E in ...' but the rule never says countE",
            "Expected a rule that uses countE",
        ),
        ("countE <= 1 for E in 8..12", "10 is not a digit", "Expected digits 0..9"),
        (
            "count1 <= prime",
            "uses a number kind as a value",
            "Expected counts, cells (r2c3), entries",
        ),
        ("counts1 <= 1", "undefined name 'counts1'", "Expected a declared variable"),
    ],
)
def test_bad_grid_rules(tmp_path: Path, rule: str, shown: str, expected: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(PUZZLE.replace("countE <= 1 for E in 0,2,4,6,8", rule), encoding="utf-8")
    with pytest.raises(InvalidSpec) as info:
        api.load_puzzle(path)
    e = info.value
    assert e.field == "rules.grid[0]" and e.line == 7 and str(path) in str(e)
    assert shown in str(e) and expected in str(e)
