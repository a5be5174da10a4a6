"""What every cross-number constraint shares: the base class, the dead-end exception,
the work limits and a clue's widest value range.

Why a module of its own: the constraint modules (exprcon.py, altcon.py, linkcon.py,
groupcon.py, gridcounts.py, digitcon.py, gridprop.py) and the solver all need these few
names, and none of them should have to import another constraint to get them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Clue
    from .solver import Solver

__all__ = [
    "Con",
    "Contradiction",
    "FinalCheck",
    "Key",
    "range_for",
    "COMBO_LIMIT",
    "CHECK_LIMIT",
    "BUDGET",
]

COMBO_LIMIT = 40_000
CHECK_LIMIT = 2_000
BUDGET = 400_000

Key = tuple  # ("c", clue), ("v", variable), ("x", (row, col)) or ("m", clue)


class Contradiction(Exception):
    """A domain became empty (a dead end of the search, or an unsolvable puzzle)."""


class Con:
    """A constraint: the keys it watches (``scope``: the solver re-queues it when one of
    them narrows), a label for the step log, and the two things the solver asks of it."""

    scope: list[Key]
    label: str = ""

    def propagate(self, s: Solver, dom: dict) -> None:
        raise NotImplementedError

    def check(self, s: Solver, a: dict) -> bool:
        return True


def range_for(s: Solver, clue: Clue) -> tuple[int, int]:
    """The least and greatest value a clue's cells can spell (more digits when cells may
    hold several): the bounds of a clue before anything is known of it."""
    lo_d = clue.cells
    hi_d = clue.cells
    if s.multi:
        extra = min(clue.cells, s.max_multi_cells)
        hi_d = clue.cells + extra * (s.max_cell_len - 1)
    return (10 ** (lo_d - 1) if lo_d > 1 else 0), 10**hi_d - 1


class FinalCheck(Con):
    """Whole-solution rules checked only at the leaves (reversed pair, hooks)."""

    def __init__(self, fn: Callable[[Solver, dict], bool], label: str) -> None:
        self.fn, self.label, self.scope = fn, label, []

    def propagate(self, s: Solver, dom: dict) -> None:
        return

    def check(self, s: Solver, a: dict) -> bool:
        return self.fn(s, a)
