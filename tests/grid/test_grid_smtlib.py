"""SAT (CNF via PySAT) and SMT-LIB (solved by Z3) agree on every genre."""

from __future__ import annotations

import pytest

from puzzleforge.grid import api
from puzzleforge.grid.genres import GENRES, get_genre
from puzzleforge.grid.smtlib import solve_smtlib_z3, to_smtlib

SIZES = {"futoshiki": "5x5", "skyscrapers": "5x5", "sudoku": "6x6", "slitherlink": "5x5"}


@pytest.mark.parametrize("genre", list(GENRES))
def test_sat_and_smtlib_agree(genre: str) -> None:
    g = get_genre(genre)
    inst, sol, _ = api.generate(genre, SIZES.get(genre, "6x6"), 21)
    comp = g.compile(inst)
    text = to_smtlib(comp, inst.clues)
    assert (
        text.startswith("; puzzleforge") and "(check-sat)" in text and "(set-logic QF_LIA)" in text
    )
    z = solve_smtlib_z3(text, comp)
    assert z is not None
    assert g.answer_text(inst, z) == g.answer_text(inst, sol)


def test_smtlib_detects_unsat_like_sat() -> None:
    g = get_genre("sudoku")
    inst = g.parse("sudoku 4x4\n11..\n....\n....\n....\n")
    comp = g.compile(inst)
    assert comp.solve(inst.clues) is None
    assert solve_smtlib_z3(to_smtlib(comp, inst.clues), comp) is None
