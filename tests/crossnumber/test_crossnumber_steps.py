"""The cross-number step log reads as a person's solution: one step per clue firing with
candidates before and after, no bookkeeping lines, search as a case analysis, and a proof
of no solution that ends with its last contradiction."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import yaml

from puzzleforge.crossnumber import api
from puzzleforge.crossnumber.model import parse_model
from puzzleforge.crossnumber.solver import solve


@pytest.mark.parametrize("path", api.list_puzzles(), ids=lambda p: Path(p).stem)
def test_no_bookkeeping_lines(path) -> None:
    steps = api.solve_puzzle(api.load_puzzle(path), limit=2, time_limit=60).steps.steps
    texts = [s.text for s in steps]
    assert not any("read from the possible digits" in t for t in texts)
    narrow = [s for s in steps if s.kind == "narrow"]
    cells_only = [s for s in narrow if not s.data.get("changes")]
    assert len(cells_only) * 10 <= len(narrow)  # at most 10% tell cells on their own (was ~50%)
    for s in narrow:
        for change in s.data.get("changes", []):
            assert change["before"] != change["after"], s.text


def test_search_is_a_case_analysis() -> None:
    path = next(p for p in api.list_puzzles() if Path(p).stem == "prime_endgame")
    texts = [
        s.text for s in api.solve_puzzle(api.load_puzzle(path), limit=2, time_limit=60).steps.steps
    ]
    assert texts[-3:] == [
        "propagation reached a fixpoint: 4 sets still open, searching",
        "Case D2 = 3102: everything follows, but impossible: the filled grid breaks mod26_letters",
        "solution 1 in case D2 = 3107",
    ]


def test_a_proof_of_no_solution_ends_with_its_contradiction() -> None:
    # rows and columns of a 2x2 grid all two-digit squares, all four different: none exists
    squares = [str(k * k) for k in range(4, 10)]
    brute = [
        (a, b)
        for a, b in itertools.product(squares, repeat=2)
        if a[0] + b[0] in squares
        and a[1] + b[1] in squares
        and len({a, b, a[0] + b[0], a[1] + b[1]}) == 4
    ]
    assert brute == []
    model = parse_model(
        yaml.safe_dump(
            {
                "title": "t",
                "grid": "..\n..\n",
                "clues": {"A1": "square", "A3": "square", "D1": "square", "D2": "square"},
            },
            sort_keys=False,
        )
    )
    result = solve(model)
    assert result.solutions == [] and result.complete
    steps = result.steps.steps
    cases = [s for s in steps if s.kind == "case"]
    assert cases and all("impossible" in s.text for s in cases)
    assert steps[-1].kind == "contradiction"
    assert steps[-1].text.startswith(
        "every case is impossible, so there is no solution (the last: case "
    )
