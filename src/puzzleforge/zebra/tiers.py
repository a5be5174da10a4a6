"""Difficulty tiers on the guessing score g (the mean number of depth-1 refutations over
5 randomised solves, seeds/003): their bands, and which tiers a grid size can reach.

Why a rule of reachable tiers: a 3x3 grid has 27 cells, and almost no minimal clue set
of it makes the engine refute five of them, so asking for "expert" there cannot succeed;
an 8x8 grid has 1,792, and the construction cannot bring a minimal set down into the
middle bands. The generator and the CLI/web refuse such a request up front, with the
reason, instead of spending the attempt budget (issue 22 item 1); the rule is the grid's
size in cells, with thresholds from bench/zebra_tiers.py's sweep.
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

__all__ = [
    "EXPERT_MIN_CELLS",
    "MIDDLE_MAX_CELLS",
    "TIERS",
    "TIER_BAND",
    "TIER_ORDER",
    "below",
    "grid_cells",
    "rate",
    "tier_of",
    "unreachable",
]

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


def grid_cells(K: int, k: int) -> int:
    """Cells of the staircase grid: one k x k box per pair of categories."""
    return K * (K - 1) // 2 * k * k


#: Below this many grid cells "expert" is refused: 3x3 (27 cells), 3x4 (48) and 4x3 (54)
#: rarely have a minimal clue set needing 5 refutations (bench/zebra_tiers.py: 3x3 met
#: it for 1 of 15 seeds in 40 attempts, 4x3 for 10 of 15, 3x4 needed up to 32 of the 40
#: attempts); the next sizes, 3x5 (75) and 5x3 (90), generate expert for every seed.
EXPERT_MIN_CELLS = 60

#: Above this many grid cells a middle tier is refused. Hard: 7x8 (1,344 cells), 8x7
#: (1,372) and 8x8 (1,792) are refused; 6x8 (960), 8x6 (1,008) and 7x7 (1,029) generate,
#: and no size lies between 1,029 and 1,344 cells. Medium, the narrower band, from 7x7
#: (1,029) up: 7x7 medium took 36.7 s (English) and ran past 120 CPU s (Polish), while
#: 8x6 (1,008) generated in 18-20 s.
MIDDLE_MAX_CELLS = {"medium": 1010, "hard": 1100}

_SMALL = (
    "the {K}x{k} grid has {cells} cells (fewer than {limit}), and a grid that small "
    "rarely has a minimal clue set that needs 5 refutations on average (measured with "
    "bench/zebra_tiers.py, docs/zebra.md 'Reachable tiers'); easy, medium and hard generate"
)
_LARGE = (
    "the {K}x{k} grid has {cells:,} cells (more than {limit:,}): a minimal clue set of it "
    "leaves most cells open after plain deduction and needs 10 or more refutations, and "
    "a construction move closes only a few dozen of them at seconds of CPU each, so the "
    "search does not reach the {band} (measured with bench/zebra_tiers.py, "
    "docs/zebra.md 'Reachable tiers'); easy and expert generate"
)
_BANDS = {"medium": "medium band (0 < g < 2)", "hard": "hard band (2 <= g < 5)"}


def unreachable(K: int, k: int, tier: str | None, style: str = "native") -> str | None:
    """The reason ``tier`` is refused at K x k, or None when it is generated.

    The rule is the grid's size in cells (``grid_cells``), the quantity both limits
    depend on: how many refutations a minimal clue set can need (too few below
    ``EXPERT_MIN_CELLS`` for expert) and how many cells plain deduction leaves open for
    the construction to close (too many above ``MIDDLE_MAX_CELLS`` for the middle
    bands). The thresholds sit in the gaps the sweep measured (docs/zebra.md)."""
    if tier is None:
        return None
    cells = grid_cells(K, k)
    if tier == "expert" and cells < EXPERT_MIN_CELLS:
        return _SMALL.format(K=K, k=k, cells=cells, limit=EXPERT_MIN_CELLS)
    if tier in _BANDS and cells > MIDDLE_MAX_CELLS[tier]:
        limit = MIDDLE_MAX_CELLS[tier]
        return _LARGE.format(K=K, k=k, cells=cells, limit=limit, band=_BANDS[tier])
    return None


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
    cells plain deduction leaves open (the construction's finer signal), and, when the
    engine cannot solve the set, ``engine``: the engine where it got stuck."""
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
            if probe is not None:
                # the engine stuck at its fixpoint: the construction's repair continues
                # it instead of solving the same set again (construct.py)
                probe["engine"] = eng
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
