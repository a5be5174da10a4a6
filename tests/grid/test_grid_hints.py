"""Hints a person can use, on every genre: sound, never a given, easiest deduction first,
1-based places and named values, evidence that really forces the step.

Checks that do not trust the hint engine: each hinted value equals the solution the
generator proved unique; the cited evidence alone (only those clues and filled entries)
forces the value under the grading closure; places named in the text lie on the board
(1-based); binary genres never say "must be 0/1"; a "search" step only comes when the
whole board's closure and every one-place case split decide nothing (checked by brute
force over the open entries here).
"""

from __future__ import annotations

import re

import pytest

from puzzleforge.grid import api
from puzzleforge.grid.genres import GENRES, get_genre
from puzzleforge.grid.grading import closure
from puzzleforge.grid.hints import explain, givens, next_hint

SIZES = {
    "sudoku": "4x4",
    "skyscrapers": "4x4",
    "futoshiki": "4x4",
    "nurikabe": "5x5",
    "nonogram": "5x5",
    "lightup": "5x5",
    "kakurasu": "5x5",
    "starbattle": "5x5",
    "slitherlink": "4x4",
    "masyu": "5x5",
    "unruly": "6x6",
    "binairo": "6x6",
}


def _assumptions(comp, items, cells):
    clues: dict = {}
    for n, p, v in items:
        clues.setdefault(n, {})[p] = v
    reps = {(name, e): rep for name, e, rep, _ in comp.answer}
    lits = []
    for key, value in cells:
        rep = reps[key]
        lits.append((rep if value else -rep) if isinstance(rep, int) else rep.eq[value])
    return comp.assumptions(clues) + lits, reps


@pytest.mark.parametrize("genre_id", sorted(GENRES))
def test_explanations_are_sound_and_readable(genre_id: str) -> None:
    genre = get_genre(genre_id)
    for seed in (1, 2):
        inst, sol, _ = api.generate(genre_id, SIZES.get(genre_id, ""), seed)
        comp = genre.compile(inst)
        given = givens(genre, inst, comp)
        given_places = set(inst.clues.get("given", {}))
        steps = explain(genre, inst)
        filled = dict(given)
        for step in steps:
            key = (step.var, step.entity)
            assert step.value == sol[step.var][step.entity], step.reason
            assert key not in given and step.entity not in given_places, step.reason
            for r, c in re.findall(r"row (\d+), column (\d+)", step.reason):
                assert 1 <= int(r) <= inst.rows and 1 <= int(c) <= inst.cols, step.reason
            assert not re.search(r"must be [01]\b", step.reason) or not genre.binary_answer
            if step.level == "propagation":
                lits, reps = _assumptions(comp, step.clues, step.cells)
                ok, implied = closure(comp, lits)
                rep = reps[key]
                target = (
                    (rep if step.value else -rep) if isinstance(rep, int) else rep.eq[step.value]
                )
                assert ok and target in implied, step.reason
            if step.level == "search":
                lits, reps = _assumptions(
                    comp,
                    [(n, p, v) for n, d in inst.clues.items() for p, v in d.items()],
                    list(filled.items()),
                )
                ok, implied = closure(comp, lits)
                for k, rep in reps.items():
                    if k in filled:
                        continue
                    values = [True, False] if isinstance(rep, int) else list(rep.eq)
                    alive = [
                        v
                        for v in values
                        if closure(
                            comp,
                            lits + [(rep if v else -rep) if isinstance(rep, int) else rep.eq[v]],
                        )[0]
                    ]
                    assert len(alive) > 1, f"{k} was decidable by one case split: {step.reason}"
            filled[key] = step.value
        assert len(filled) == len(comp.answer), f"{genre_id} seed {seed}: explanation stopped early"


def test_a_hint_on_sudoku_never_names_a_given_and_counts_from_one() -> None:
    inst = api.parse_puzzle("sudoku 4x4 box=2x2\n....\n..13\n...4\n3...\n")[1]
    hint = next_hint(get_genre("sudoku"), inst)
    assert hint.reason.startswith("Row 1, column 3 must be 4:")
    assert hint.level == "propagation"
    assert {(k[1].r, k[1].c) for k, _ in hint.cells} == {(1, 2), (2, 3)}
