"""The clue pool of one generation attempt: ceil(k*K/2.3) non-type-1 clues, none
"forbidden" by another's critical squares (seeds/003 2.1.13-2.1.14), then type-1 clues
until plain deduction solves the grid.

Why a pool bigger than the puzzle: restriction (restrict.py) and the tier construction
(construct.py) choose the puzzle's clues from it; a pool the engine solves guarantees a
unique solution to start from.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from .clues import Clue, NotClue, OrderClue
from .drawer import ClueDrawer
from .engine import Engine
from .grid import Grid

__all__ = ["draw_clues"]


def _critical(clue: Clue, K: int, k: int, cache: dict[int, set]) -> set:
    """Critical squares, memoised on the clue itself (an id()-keyed cache would hand a
    freed candidate's squares to a new object that reuses its id)."""
    crit = getattr(clue, "_critical", None)
    if crit is None:
        crit = clue.critical_squares(K, k)
        clue._critical = crit  # type: ignore[attr-defined]
    return crit


def _forbidden(
    cand: Clue, clues: Sequence[Clue], grid: Grid, K: int, k: int, cache: dict[int, set]
) -> bool:
    """seeds/003 2.1.14: a candidate whose critical squares are already marked, or
    meet another clue's critical squares, would resolve or be resolved too directly."""
    crit = _critical(cand, K, k, cache)
    if any(grid.state(*cell) != 0 for cell in crit):
        return True
    for other in clues:
        ocrit = _critical(other, K, k, cache)
        if crit & ocrit:
            return True
        if (
            isinstance(cand, OrderClue)
            and isinstance(other, OrderClue)
            and _solves_a_line(crit | ocrit, k)
        ):
            return True
    return False


def _solves_a_line(cells: set, k: int) -> bool:
    """Two order clues that together cross out k-1 cells of one line would solve an
    object directly on an empty grid (seeds/003 2.1.14)."""
    lines: dict[tuple[int, int, int], int] = {}
    for c1, i1, c2, i2 in cells:
        for key in ((c1, i1, c2), (c2, i2, c1)):
            lines[key] = lines.get(key, 0) + 1
            if lines[key] >= k - 1:
                return True
    return False


def draw_clues(
    rng: random.Random, drawer: ClueDrawer, K: int, k: int, kinds: Sequence[str]
) -> tuple[list[Clue], bool]:
    """Non-type-1 clues then type-1 clues until the engine (propagation only) solves."""
    engine = Engine(K, k, [])
    clues: list[Clue] = []
    cache: dict[int, set] = {}
    n_non1 = math.ceil(k * K / 2.3)
    usable = [
        kd
        for kd in kinds
        if not (kd == "arith" and not drawer.arith) and not (kd == "group" and not drawer.grouped)
    ]
    for _ in range(n_non1):
        if not usable:
            break
        kind = rng.choice(usable)
        for _try in range(30):
            cand = drawer.draw(kind)
            if cand is not None and not _forbidden(cand, clues, engine.g, K, k, cache):
                break
        else:
            continue
        clues.append(cand)
        engine.add_clue(cand)
        engine.propagate()
        if engine.g.is_complete():
            return clues, True
    # the reference stops at 100 type-1 clues; an 8x8 grid has 1792 cells, so the cap
    # grows with the grid (it is only a bound, restriction removes the surplus)
    for _ in range(max(100, K * (K - 1) * k)):
        if engine.g.is_complete():
            return clues, True
        for _try in range(60):
            cand = drawer.draw("not")
            if isinstance(cand, NotClue) and all(
                engine.g.state(*((cand.obj[0], cand.obj[1]) + o)) == 0 for o in cand.others
            ):
                break
        else:
            cand = None
        if cand is None:
            # every open cell of the wrong kind: exclude one open non-solution cell directly
            cells = [
                c
                for c in engine.g.unknown_cells()
                if drawer.sol[c[2]][drawer.sol[c[0]].index(c[1])] != c[3]
            ]
            if not cells:
                return clues, engine.g.is_complete()
            c1, i1, c2, i2 = rng.choice(cells)
            cand = NotClue(obj=(c1, i1), others=((c2, i2),))
        clues.append(cand)
        engine.add_clue(cand)
        engine.propagate()
    return clues, engine.g.is_complete()
