"""Difficulty tiers on the guessing score g (the mean number of depth-1 refutations over
5 randomised solves, seeds/003): their bands, and which tiers a grid size can reach.

Why a table of reachable tiers: a 3x3 grid has 27 cells, and no minimal clue set of it
makes the engine refute five of them, so asking for "expert" there cannot succeed;
the generator and the CLI/web refuse such a request up front, with the reason, instead
of spending the attempt budget (issue 22 item 1).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from .clues import Clue
from .engine import Engine
from .grid import Contradiction
from .model import stars_for

__all__ = ["TIERS", "TIER_BAND", "TIER_ORDER", "below", "rate", "tier_of", "unreachable"]

#: Difficulty tiers on the mean guessing score g.
TIERS = {
    "easy": "g = 0: solved by conciliation and clues alone, no guessing",
    "medium": "0 < g < 2: a little guessing (one star)",
    "hard": "2 <= g < 5: two stars",
    "expert": "g >= 5: three or four stars",
}
TIER_ORDER = ["easy", "medium", "hard", "expert"]

#: (low, high) of g per tier: easy g = 0, medium 0 < g < 2, hard 2 <= g < 5, expert >= 5.
TIER_BAND = {
    "easy": (0.0, 0.0),
    "medium": (0.0, 2.0),
    "hard": (2.0, 5.0),
    "expert": (5.0, math.inf),
}


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
_SMALL = (
    "a {K}x{k} grid ({cells} cells) rarely has a minimal clue set that needs 5 "
    "refutations on average; measured with bench/zebra_tiers.py: {seen}"
)
_EIGHT = (
    "at 8x8 the construction does not reach the {band}: plain deduction leaves "
    "1,400-1,600 of the 1,792 cells of a minimal clue set open and a construction move "
    "closes only 2-40 of them (about 3 s CPU a move), so an attempt gives up far from "
    "the band (measured with bench/zebra_generate.py and traces, docs/zebra.md); "
    "easy and expert generate"
)
_UNREACHABLE: dict[tuple[int, int, str], str] = {
    (3, 3, "expert"): _SMALL.format(K=3, k=3, cells=27, seen="1 of 15 seeds in 40 attempts"),
    (4, 3, "expert"): _SMALL.format(K=4, k=3, cells=54, seen="10 of 15 seeds in 40 attempts"),
    (3, 4, "expert"): _SMALL.format(
        K=3, k=4, cells=48, seen="up to 32 of the 40 attempts, too close to promise every seed"
    ),
    # At 8x8 the construction's moves lower the guess count far too slowly to land in
    # the middle bands (traced per move on the bench seed 0, session 9):
    # a minimal clue set leaves 1,400-1,600 of the 1,792 cells open after plain
    # deduction (10-25 refutations a solve, or more than depth-1 refutation finds), a
    # strengthening move closes 2-40 of them, and an attempt ends after 4 moves and
    # 11-14 s CPU when no candidate improves; easy and expert generate.
    (8, 8, "medium"): _EIGHT.format(band="medium band (0 < g < 2)"),
    (8, 8, "hard"): _EIGHT.format(band="hard band (2 <= g < 5)"),
}


def unreachable(K: int, k: int, tier: str | None, style: str = "native") -> str | None:
    """The reason ``tier`` is refused at K x k, or None when it is generated."""
    if tier is None:
        return None
    return _UNREACHABLE.get((K, k, tier))


def rate(
    K: int,
    k: int,
    clues: Sequence[Clue],
    rng: random.Random,
    runs: int = 5,
    above: float | None = None,
    probe: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Mean guessing count over ``runs`` solves with randomised box order (seeds/003).

    ``above``: stop once the mean is sure to reach it (the tier search only needs to
    know a candidate is too hard); such a rating is ``partial``, its score the mean of the
    runs done, a lower bound. The runs done are the same as in a full rating.

    The runs share one engine: plain deduction (no refutation, the same in every run)
    is propagated once and each run restarts from that fixpoint, which gives the same
    counts as five solves from an empty grid. ``probe`` (a dict) receives ``open``, the
    cells plain deduction leaves open (the construction's finer signal)."""
    guesses: list[int] = []
    steps: list[int] = []
    eng = Engine(K, k, clues)
    try:
        eng.propagate()
        start: tuple[int, int] | None = (eng.g.mark(), eng.step_count)
    except Contradiction:
        start = None
    if probe is not None:
        probe["open"] = -1 if start is None else sum(1 for _ in eng.g.unknown_cells())
    for _ in range(runs):
        sub = random.Random(rng.getrandbits(32))
        if start is None:
            return {"solved": False}
        eng.restart(*start)
        cap = None
        if above is not None:
            # the most guesses this run may take with the mean still below ``above``
            cap = 0 if above == 0 else math.ceil(above * runs - sum(guesses) - 1e-9) - 1
        out = eng.run(guessing=True, rng=sub, max_guesses=None if cap is None else cap + 1)
        if cap is not None and out.guesses > cap:
            guesses.append(out.guesses)
            score = round(sum(guesses) / len(guesses), 1)
            return {"solved": True, "partial": True, "score": score, "tier": tier_of(score)}
        if not out.solved:
            return {"solved": False}
        guesses.append(out.guesses)
        steps.append(out.step_count)
    score = round(sum(guesses) / runs, 1)
    return {
        "solved": True,
        "score": score,
        "guesses": guesses,
        "steps": round(sum(steps) / runs, 1),
        "stars": stars_for(score),
        "tier": tier_of(score),
    }
