"""One difficulty contract for every family: ``difficulty`` in [0, 1], a tier, the native rating.

Why: each engine measures difficulty its own way (grid grades 1.00-3.99, logic-grid guess
scores 0-27, Latin and spec fractions 0-1, cross-number search decisions), and a dataset
mixing them could not be sorted, filtered or balanced by one number. Every family keeps its
native measure (``meta.rating``) and declares a :class:`DifficultyScale`: where its tiers
begin on that measure. The scale maps each tier onto a quarter of [0, 1] (easy [0, .25),
medium [.25, .5), hard [.5, .75), expert [.75, 1]), linearly inside the tier, so
``difficulty`` orders puzzles within a family exactly as the native measure does, and the
tier can be read back from ``difficulty`` alone in every family.

>>> scale = DifficultyScale((1.0, 2.0, 3.0, 4.0, 4.0), "grid grade")
>>> scale.tier(2.5), scale.normalise(2.5)
('medium', 0.375)
>>> scale.tier(0.2), scale.normalise(0.2)
('easy', 0.0)
>>> tier_of_difficulty(0.375)
'medium'
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

__all__ = ["TIERS", "DifficultyScale", "tier_of_difficulty", "apply_scale"]

#: The four tier names every family uses, easiest first.
TIERS = ("easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class DifficultyScale:
    """Where each tier begins on a family's native measure.

    ``bounds`` is (lowest, medium from, hard from, expert from, highest); a native value
    below "medium from" is easy, and so on. A family without an expert tier sets
    "expert from" equal to "highest" (nothing reaches it). ``method`` says in words what
    the native number measures (shown in docs and ``puzzleforge families``).
    """

    bounds: tuple[float, float, float, float, float]
    method: str

    def __post_init__(self) -> None:
        b = self.bounds
        if len(b) != 5 or any(x > y for x, y in pairwise(b)):
            raise ValueError(f"difficulty bounds must be 5 non-decreasing numbers, not {b}")

    def tier(self, native: float) -> str:
        """The tier a native rating falls in."""
        band = 0
        for k in (1, 2, 3):
            if native >= self.bounds[k] and self.bounds[k] < self.bounds[4]:
                band = k
        return TIERS[band]

    def normalise(self, native: float) -> float:
        """``native`` mapped to [0, 1]: the tier's quarter, linear inside it (6 decimals)."""
        band = TIERS.index(self.tier(native))
        lo = self.bounds[band]
        hi = self.bounds[band + 1] if band < 3 else self.bounds[4]
        frac = 0.0 if hi <= lo else min(1.0, max(0.0, (native - lo) / (hi - lo)))
        if band < 3:
            frac = min(frac, 0.999999)
        return round((band + frac) / 4, 6)


def tier_of_difficulty(difficulty: float) -> str:
    """The tier a normalised difficulty belongs to (the same quarters in every family)."""
    return TIERS[min(3, max(0, int(difficulty * 4)))]


def apply_scale(puzzle: Any, scale: DifficultyScale, native: float | None = None) -> Any:
    """Set ``difficulty`` (normalised), ``meta.rating`` (native) and ``meta.tier`` on a
    Puzzle; ``native`` defaults to the puzzle's current ``difficulty``."""
    value = float(puzzle.difficulty if native is None else native)
    puzzle.meta["rating"] = value
    puzzle.meta["tier"] = scale.tier(value)
    puzzle.difficulty = scale.normalise(value)
    return puzzle
