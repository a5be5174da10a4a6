"""Difficulty tiers on the guessing score g (the mean number of depth-1 refutations over
5 randomised solves, seeds/003): their bands, and which tiers a grid size can reach.

Why a table of reachable tiers: a 3x3 grid has 27 cells, and no minimal clue set of it
makes the engine refute five of them, so asking for "expert" there cannot succeed;
the generator and the CLI/web refuse such a request up front, with the reason, instead
of spending the attempt budget (issue 22 item 1).
"""
from __future__ import annotations

import math

__all__ = ["TIERS", "TIER_BAND", "TIER_ORDER", "below", "tier_of", "unreachable"]

#: Difficulty tiers on the mean guessing score g.
TIERS = {
    "easy": "g = 0: solved by conciliation and clues alone, no guessing",
    "medium": "0 < g < 2: a little guessing (one star)",
    "hard": "2 <= g < 5: two stars",
    "expert": "g >= 5: three or four stars",
}
TIER_ORDER = ["easy", "medium", "hard", "expert"]

#: (low, high) of g per tier: easy g = 0, medium 0 < g < 2, hard 2 <= g < 5, expert >= 5.
TIER_BAND = {"easy": (0.0, 0.0), "medium": (0.0, 2.0), "hard": (2.0, 5.0),
             "expert": (5.0, math.inf)}


def tier_of(score: float) -> str:
    if score <= 0:
        return "easy"
    if score < 2:
        return "medium"
    if score < 5:
        return "hard"
    return "expert"


def below(score: float, tier: str) -> bool:
    """Is ``score`` easier than ``tier``'s band?"""
    return TIER_ORDER.index(tier_of(score)) < TIER_ORDER.index(tier)


#: (K, k, tier) -> why that tier cannot be generated at that size (measured with
#: bench/zebra_tiers.py; filled in from its sweep).
_UNREACHABLE: dict[tuple[int, int, str], str] = {}


def unreachable(K: int, k: int, tier: str | None, style: str = "native") -> str | None:
    """The reason ``tier`` is refused at K x k, or None when it is generated."""
    if tier is None:
        return None
    return _UNREACHABLE.get((K, k, tier))
