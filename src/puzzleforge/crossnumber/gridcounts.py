"""Rules over every cell of the grid: the digit sum of the whole grid, and cell values
that occur exactly once.

Why a module of its own: both are fixed puzzle-wide rules (``grid_digit_sum``,
``cell_values_once``) counted over all cells, with bounds from the partial grid;
the rules written in the clue language (``rules.grid``) are gridprop.py's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kinds as nb
from .conbase import Con, Contradiction, Key

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["GridDigitSum", "ValuesOnce"]


class GridDigitSum(Con):
    """The sum of all digits in the grid equals a clue (or a fixed number)."""

    def __init__(self, s: Solver, target: Key | int) -> None:
        self.target = target
        self.cells = [("x", rc) for rc in s.model.grid.cells()]
        self.scope = self.cells + ([target] if isinstance(target, tuple) else [])
        self.label = "sum of all digits in the grid"

    def propagate(self, s: Solver, dom: dict) -> None:
        t: frozenset[int] | set[int]
        if isinstance(self.target, tuple):
            got = s.get(dom, self.target)
            if got is None:
                return
            t = got
        else:
            t = {self.target}
        sums = [[nb.digits_sum(int(v)) for v in dom[c]] for c in self.cells]
        mins = [min(x) for x in sums]
        maxs = [max(x) for x in sums]
        smin, smax = sum(mins), sum(maxs)
        if isinstance(self.target, tuple):
            s.narrow(
                dom,
                self.target,
                {v for v in t if smin <= v <= smax},
                self,
                f"the grid's digits add up to between {smin} and {smax}",
            )
            t = dom[self.target]
        tmin, tmax = min(t), max(t)
        if smin > tmax or smax < tmin:
            raise Contradiction("digit sum out of range")
        for c, lo_c, hi_c in zip(self.cells, mins, maxs, strict=True):
            d = dom[c]
            keep = {
                v
                for v in d
                if smin - lo_c + nb.digits_sum(int(v)) <= tmax
                and smax - hi_c + nb.digits_sum(int(v)) >= tmin
            }
            if len(keep) < len(d):
                s.narrow(dom, c, keep, self, "the grid digit sum")

    def check(self, s: Solver, a: dict) -> bool:
        total = sum(nb.digits_sum(int(a[c])) for c in self.cells)
        t = a[self.target] if isinstance(self.target, tuple) else self.target
        return total == t


class ValuesOnce(Con):
    """Each listed cell value occurs exactly once in the grid (e.g. 10..16 in No 21)."""

    def __init__(self, s: Solver, values: list[int]) -> None:
        self.values = [str(v) for v in values]
        self.scope = [("x", rc) for rc in s.model.grid.cells()]
        self.label = "each of " + ", ".join(self.values) + " occurs exactly once"

    def propagate(self, s: Solver, dom: dict) -> None:
        for v in self.values:
            holders = [c for c in self.scope if v in dom[c]]
            if not holders:
                raise Contradiction(f"no cell can hold {v}")
            fixed = [c for c in holders if len(dom[c]) == 1]
            if len(fixed) > 1:
                raise Contradiction(f"{v} twice")
            if fixed:
                for c in holders:
                    if c != fixed[0]:
                        s.narrow(dom, c, dom[c] - {v}, self, f"{v} is already placed")
            elif len(holders) == 1:
                s.narrow(dom, holders[0], {v}, self, f"only this cell can hold {v}")

    def check(self, s: Solver, a: dict) -> bool:
        vals = [a[c] for c in self.scope]
        return all(vals.count(v) == 1 for v in self.values)
