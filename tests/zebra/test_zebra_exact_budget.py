"""The exact checker's budget counts solver work (conflicts), never seconds (issue 22):
a call that runs out is undecided, is never read as "unique" or "necessary", and a
generation whose certificate is undecided is rejected with the reason named."""

from __future__ import annotations

import pytest

import puzzleforge.zebra.exact as exact
from puzzleforge.core.errors import GenerationFailed
from puzzleforge.core.seeding import make_rng
from puzzleforge.zebra.exact import ExactChecker
from puzzleforge.zebra.generator import generate_puzzle


def _puzzle():
    return generate_puzzle(make_rng(3), K=5, k=5)


def test_a_starved_check_is_undecided_and_never_certifies() -> None:
    zp = _puzzle()
    keys = list(range(len(zp.clues)))
    full = ExactChecker(5, 5)
    starved = ExactChecker(5, 5, conflicts=1)
    try:
        for n, clue in enumerate(zp.clues):
            full.add_clue(clue, n)
            starved.add_clue(clue, n)
        good = full.certify(keys, zp.solution)
        assert good["unique"] and good["all_clues_necessary"] and "undecided" not in good
        assert full.undecided == 0
        bad = starved.certify(keys, zp.solution)
        assert starved.undecided > 0
        assert bad["undecided"] is True
        # an undecided uniqueness call is None (not False), so it never reads as unique
        assert starved.other_solution_exists(keys[:1], zp.solution) in (True, None)
    finally:
        full.close()
        starved.close()


def test_generation_rejects_an_undecided_certificate_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(exact, "CONFLICT_BUDGET", 1)
    with pytest.raises(GenerationFailed, match="exact check undecided within 1 conflicts"):
        generate_puzzle(make_rng(3), K=5, k=5, max_attempts=2)
