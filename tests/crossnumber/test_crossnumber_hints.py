"""Cross-number hints (``crossnumber.hints``): the easiest deduction for an empty cell now.

A hint never names a given cell or a cell already filled, its value is the solution's, and
its reason starts "Row R, column C is V" with 1-based coordinates. Played hint by hint to
the end on bundled puzzles (one with given digits added), generated ones and a small
puzzle whose first hint is worked out by hand below.
"""

from __future__ import annotations

import re

import pytest

from puzzleforge.core.seeding import make_rng
from puzzleforge.crossnumber import api
from puzzleforge.crossnumber.generate import generate_puzzle
from puzzleforge.crossnumber.hints import Hint, next_hint

SQUARES = """
grid: |
  ..
  ..
clues:
  A1: square
  A3: square
  D1: prime
  D2: square
"""
POWERPLAY_ROWS = ["11449", "49364", "46656"]
# powerplay with three of its answer digits given: row 3, column 1 (the cell its first hint
# fixes without givens), row 1, column 3 and row 2, column 5
POWERPLAY_GIVENS = "givens: |\n  ..4..\n  ....4\n  4....\n"


def _play(model, solution) -> list[Hint]:
    """Ask for hints and fill each one in, until the grid is full."""
    filled: dict[tuple[int, int], str] = {}
    hints = []
    while (hint := next_hint(model, filled, solution)) is not None:
        assert hint.cell not in model.grid.givens, hint
        assert hint.cell not in filled, hint
        assert hint.value == solution.cells[hint.cell]
        r, c = hint.cell
        assert hint.reason.startswith(f"Row {r + 1}, column {c + 1} is {hint.value}: "), hint
        assert hint.method in ("clue", "propagation", "case split", "search")
        assert hint.cell in hint.used
        filled[hint.cell] = hint.value
        hints.append(hint)
    assert filled == {rc: v for rc, v in solution.cells.items() if rc not in model.grid.givens}
    return hints


def test_first_hint_of_a_small_puzzle_worked_by_hand() -> None:
    # By hand: D1 is a 2-digit prime whose first digit starts a 2-digit square (1,2,3,4,6,8)
    # and whose second digit starts one too, so row 2, column 1 is 1 or 3; D2 is a square
    # whose digits both end or start squares: 16, 49 or 64, so row 2, column 2 is 4, 6 or 9;
    # A3 is a square starting with 1 or 3 and ending in 4, 6 or 9: 16 or 36, so it ends in 6.
    model = api.parse_puzzle(SQUARES)
    solution = api.solve_puzzle(model).solutions[0]
    assert solution.rows(model) == ["81", "36"]
    hint = next_hint(model, {}, solution)
    assert (hint.cell, hint.value, hint.method, hint.clue) == ((1, 1), "6", "propagation", "A3")
    assert hint.reason.startswith("Row 2, column 2 is 6: A3 is square with 2 digits")
    assert (
        "D1: 21 values (11..97) -> {11, 13, 23, 31, 41, 43, 61, 83}; so cells r2c1 {1, 3}"
        in hint.reason
    )
    assert "D2: {16, 25, 36, 49, 64, 81} -> {16, 49, 64}" in hint.reason
    assert hint.reason.endswith("A3: {16, 25, 36, 49, 64, 81} -> {16, 36}; so cells r2c2 6")
    assert set(hint.used) == {(1, 0), (1, 1), (0, 0), (0, 1)}  # A3's cells and D1's, D2's
    assert [h.cell for h in _play(model, solution)] == [(1, 1), (0, 1), (0, 0), (1, 0)]


def test_powerplay_hints_to_the_end() -> None:
    model = api.load_puzzle(api.bundled_dir() / "powerplay.yaml")
    solution = api.solve_puzzle(model).solutions[0]
    assert solution.rows(model) == POWERPLAY_ROWS
    hints = _play(model, solution)
    assert len(hints) == 15
    assert hints[0].cell == (2, 0) and hints[0].clue == "A8"
    assert all(h.clue in model.clues for h in hints)  # every reason starts from a clue


def test_given_digits_are_never_hinted() -> None:
    text = (api.bundled_dir() / "powerplay.yaml").read_text(encoding="utf-8")
    model = api.parse_puzzle(text.replace("clues:\n", POWERPLAY_GIVENS + "clues:\n", 1))
    assert model.grid.givens == {(0, 2): "4", (1, 4): "4", (2, 0): "4"}
    solution = api.solve_puzzle(model).solutions[0]
    assert solution.rows(model) == POWERPLAY_ROWS
    hints = _play(model, solution)
    assert len(hints) == 12
    assert not {h.cell for h in hints} & set(model.grid.givens)
    # a reason may read a given digit, but no hint is "the given is ..."
    assert not any(
        re.match(r"Row (3, column 1|1, column 3|2, column 5) is", h.reason) for h in hints
    )


@pytest.mark.parametrize("name", ["cubesandwich", "chessboard"])
def test_bundled_puzzles_hints_to_the_end(name: str) -> None:
    model = api.load_puzzle(api.bundled_dir() / f"{name}.yaml")
    result = api.solve_puzzle(model, limit=2)
    assert result.unique
    _play(model, result.solutions[0])


@pytest.mark.parametrize(("size", "seed"), [(3, 1), (3, 2), (3, 3), (4, 2)])
def test_generated_puzzles_hints_to_the_end(size: int, seed: int) -> None:
    _, model, result = generate_puzzle(make_rng(seed), size=size)
    hints = _play(model, result.solutions[0])
    # a case split is offered only when no clue or rule fixes a cell by itself
    for hint in hints:
        if hint.method == "case split":
            assert (
                "no clue or rule fixes a cell by itself now, so split the cases of" in hint.reason
            )


def test_a_split_is_said_as_such() -> None:
    # generated 4x4 seed 3 needs two case splits (found by playing seeds 0-15 hint by
    # hint: the only one whose solve needs a search since the generator draws single
    # digits in words; no 3x3 seed 0-11 needs one)
    _, model, result = generate_puzzle(make_rng(3), size=4)
    hints = _play(model, result.solutions[0])
    splits = [h for h in hints if h.method == "case split"]
    assert len(splits) == 2
    assert all(
        re.search(
            r"split the cases of .+ \(.+\): if .+ = .+, .+; so .+ = .+, which "
            r"fixes it$",
            h.reason,
        )
        for h in splits
    )
