"""Generated puzzles: unique, deterministic, graded, thinned; forced cells and hints."""

from __future__ import annotations

import random

import pytest

from puzzleforge.grid import api
from puzzleforge.grid.generator import generate_instance, grade
from puzzleforge.grid.genres import GENRES, get_genre

SIZES = {"futoshiki": "5x5", "skyscrapers": "5x5", "sudoku": "6x6"}


@pytest.mark.parametrize("genre", list(GENRES))
def test_generated_puzzles_are_unique_and_reparse(genre: str) -> None:
    g = get_genre(genre)
    for seed in (11, 12):
        inst, sol, diff = api.generate(genre, SIZES.get(genre, "6x6"), seed)
        again = g.parse(g.format(inst))  # fresh parse, fresh session: an independent check
        status, sols = g.compile(again).is_unique(again.clues)
        assert status == "unique"
        assert g.answer_text(again, sols[0]) == g.answer_text(inst, sol)
        assert 1.0 <= diff < 4.0


def test_same_seed_same_puzzle_other_seed_other_puzzle() -> None:
    a = api.generate("unruly", "8x8", 5)
    b = api.generate("unruly", "8x8", 5)
    c = api.generate("unruly", "8x8", 6)
    fmt = get_genre("unruly").format
    assert fmt(a[0]) == fmt(b[0]) and fmt(a[0]) != fmt(c[0])


def test_removal_is_minimal() -> None:
    g = get_genre("sudoku")
    inst, sol, _ = api.generate("sudoku", "6x6", 3)
    comp = g.compile(inst)
    for place in sorted(inst.clues["given"], key=repr)[:6]:
        fewer = {"given": {p: v for p, v in inst.clues["given"].items() if p != place}}
        assert comp.is_unique(fewer)[0] == "multiple"


def test_density_target_keeps_more_clues() -> None:
    sparse, _, _ = api.generate("unruly", "8x8", 2)
    dense, _, _ = api.generate("unruly", "8x8", 2, density=0.6)
    assert dense.clue_count() > sparse.clue_count()
    assert dense.clue_count() >= int(0.6 * 64) - 1


def test_difficulty_tiers() -> None:
    g = get_genre("unruly")
    easy, _, d_easy = api.generate("unruly", "8x8", 4, difficulty="easy")
    assert 1.0 <= d_easy < 2.0
    assert grade(g.compile(easy), g.compile(easy).assumptions(easy.clues)) == d_easy
    hard, _, d_hard = api.generate("sudoku", "9x9", 1, difficulty="any")
    assert d_hard >= 1.0
    assert hard.clue_count() < easy.clue_count() + 81


def test_forced_cells_and_hint_with_reason() -> None:
    g = get_genre("unruly")
    inst, sol, _ = api.generate("unruly", "6x6", 7)
    forced = api.forced_cells(inst)
    assert len(forced) == 36 and all(sol["color"][e] == v for (_, e), v in forced.items())
    inst.clues["given"].pop(sorted(inst.clues["given"], key=repr)[0])
    forced = api.forced_cells(inst)  # a minimal puzzle minus a clue is ambiguous somewhere
    assert len(forced) < 36 and all(sol["color"][e] == v for (_, e), v in forced.items())
    h = api.hint(get_genre("unruly").parse(g.format(api.generate("unruly", "6x6", 7)[0])))
    assert h is not None and h.reason.startswith(
        f"Row {h.entity.r + 1}, column {h.entity.c + 1} must be"
    )
    # the no-three rule alone: white above and below force black between them
    assert h.level == "propagation" and h.value is True and h.clues == []
    assert sorted((k[1].r - h.entity.r, k[1].c - h.entity.c, v) for k, v in h.cells) == [
        (-1, 0, False),
        (1, 0, False),
    ]
    # the hinted value is right
    assert sol["color"][h.entity] == h.value


def test_hint_on_a_filled_board_continues() -> None:
    inst, sol, _ = api.generate("sudoku", "4x4", 1)
    known = {("digit", c): v for c, v in list(sol["digit"].items())[:5]}
    h = api.hint(inst, known)
    assert h is not None and ("digit", h.entity) not in known and sol["digit"][h.entity] == h.value


def test_generation_failure_is_reported_with_reasons() -> None:
    from puzzleforge.core.errors import GenerationFailed

    with pytest.raises(GenerationFailed) as err:
        generate_instance(get_genre("binairo"), 8, 8, {}, random.Random(1), tier="hard", attempts=2)
    assert err.value.reasons == {"came out medium, not hard": 2}


def test_a_tier_not_offered_at_a_size_is_refused_with_its_reason() -> None:
    from puzzleforge.core.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        generate_instance(get_genre("unruly"), 6, 6, {}, random.Random(1), tier="hard")
    assert err.value.problem == (
        "unruly is not offered as hard below 10x10 (6x6 asked): failed-literal probing solved "
        "every minimal puzzle the generator made at these sizes, so none grades 3.x (search)"
    )
