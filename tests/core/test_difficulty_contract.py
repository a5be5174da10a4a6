"""One difficulty contract across families: difficulty in [0, 1], a tier of four names that
agrees with the family's own tier function, the native rating kept in meta.rating."""

from __future__ import annotations

import pytest

import puzzleforge
from puzzleforge.core.difficulty import TIERS, DifficultyScale, tier_of_difficulty
from puzzleforge.core.registry import family_names
from puzzleforge.grid.generator import tier_name
from puzzleforge.zebra.generator import tier_of


@pytest.mark.parametrize("name", family_names())
def test_every_record_has_a_normalised_difficulty_and_its_tier(name: str) -> None:
    for seed in (0, 1):
        p = puzzleforge.generate(name, seed=seed)
        assert 0.0 <= p.difficulty <= 1.0
        assert p.meta["tier"] in TIERS
        assert tier_of_difficulty(p.difficulty) == p.meta["tier"]
        native = p.meta["rating"]
        if name == "zebra":  # the engine's own tier function on its own score
            assert p.meta["tier"] == tier_of(native)
        elif name not in ("latin", "crossnumber"):
            assert p.meta["tier"] == tier_name(native)


def test_the_scale_keeps_the_native_order_and_quarters() -> None:
    scale = DifficultyScale((0.0, 10.0, 20.0, 40.0, 80.0), "demo")
    natives = [0, 5, 9.99, 10, 15, 20, 39, 40, 60, 80, 500]
    values = [scale.normalise(x) for x in natives]
    assert values == sorted(values)
    assert values == [0.0, 0.125, 0.249750, 0.25, 0.375, 0.5, 0.7375, 0.75, 0.875, 1.0, 1.0]
    assert [scale.tier(x) for x in (0, 10, 20, 40)] == list(TIERS)
    with pytest.raises(ValueError):
        DifficultyScale((3.0, 2.0, 1.0, 0.0, 0.0), "decreasing")
