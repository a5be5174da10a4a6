"""Every registered family still gives its pinned puzzles for the golden seeds
(tests/golden/golden.py says why; ``make golden`` re-records on purpose)."""

from __future__ import annotations

import pytest

import puzzleforge
from golden import SEEDS, golden_entry, load

PINNED = load()


def test_every_registered_family_is_pinned() -> None:
    assert sorted(PINNED) == sorted(puzzleforge.families())
    assert all([e["seed"] for e in entries] == list(SEEDS) for entries in PINNED.values())


@pytest.mark.parametrize("family", sorted(PINNED))
def test_family_gives_its_golden_records(family: str) -> None:
    for pinned in PINNED[family]:
        assert golden_entry(family, pinned["seed"]) == pinned, (
            f"{family} seed {pinned['seed']} drifted from tests/golden/families.json; if the "
            "change of puzzles is intended, run `make golden` and review the diff"
        )
