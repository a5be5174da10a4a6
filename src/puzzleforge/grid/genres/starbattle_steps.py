"""Star Battle solving techniques, used to grade Star Battle by technique profile.

Why: with the counting steps (``starbattle.star_counting``) in the grading closure,
failed-literal probing over them (the generic medium) solved every 1- and 2-star layout
made, so none graded hard (10x10: 0 in 120 layouts). Graded by what a person needs:

  level 1 (easy):   the basic rules (a star's eight neighbours are empty; a row, column
                    or region with its k stars has no more) + unit placements: the ways
                    to put a unit's missing stars on its open cells, none touching: a
                    cell in every way is a star, in none empty, and a cell outside the
                    unit touching a star of every way is empty;
  level 2 (medium): + band counting: j consecutive rows (or columns) and the regions
                    lying inside them or covering them (see ``star_counting``);
  level 3 (hard):   these stall: trials (case splits) or search are needed.

Uniqueness is never judged here (the generator proves it with the SAT solver). The grade
is ``level + share of cells the previous level left open * 0.99`` as in grading.py.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

__all__ = ["StarBattleSteps", "star_counting"]


class StarBattleSteps:
    """The technique solver for one region layout (``region``: {(r, c): region id})."""

    def __init__(self, n: int, k: int, region: dict) -> None:
        self.n = n
        self.k = k
        self.lits = [[r * n + c + 1 for c in range(n)] for r in range(n)]
        self.placements = star_counting(n, k, self.lits, region, max_band=0)
        self.counting = star_counting(n, k, self.lits, region)
        rows = [[(r, c) for c in range(n)] for r in range(n)]
        cols = [[(r, c) for r in range(n)] for c in range(n)]
        by_region: dict = {}
        for rc, v in sorted(region.items()):
            by_region.setdefault(v, []).append(rc)
        self.units = rows + cols + list(by_region.values())

    def grade(self, cap: int = 3) -> float:
        """The grade of the module doc; ``cap`` as in techniques.py."""
        known: set[int] = set()
        if not self._run(known, self.placements):
            return 0.0
        if self._solved(known):
            return 1.0
        if cap < 2:
            return 2.0
        frac = self._decided(known)
        if not self._run(known, self.counting):
            return 0.0
        if self._solved(known):
            return round(2.0 + (1.0 - frac) * 0.99, 3)
        if cap < 3:
            return 3.0
        return round(3.0 + (1.0 - self._decided(known)) * 0.99, 3)

    def _decided(self, known: set) -> float:
        return len(known) / (self.n * self.n)

    def _solved(self, known: set) -> bool:
        return len(known) == self.n * self.n

    def _basic(self, known: set) -> bool | None:
        """The basic rules once over the board; None = contradiction, True = progress."""
        n, lits = self.n, self.lits
        new: set[int] = set()
        for r in range(n):
            for c in range(n):
                if lits[r][c] in known:
                    for dr in (-1, 0, 1):
                        for dc in (-1, 0, 1):
                            rr, cc = r + dr, c + dc
                            if (dr or dc) and 0 <= rr < n and 0 <= cc < n:
                                new.add(-lits[rr][cc])
        for unit in self.units:
            unit_lits = [lits[r][c] for r, c in unit]
            have = sum(1 for x in unit_lits if x in known)
            if have > self.k:
                return None
            if have == self.k:
                new |= {-x for x in unit_lits if x not in known}
        return self._add(known, new)

    def _add(self, known: set, new: Any) -> bool | None:
        fresh = {x for x in new if x not in known}
        if any(-x in known or -x in fresh for x in fresh):
            return None
        known |= fresh
        return bool(fresh)

    def _run(self, known: set, step: Any) -> bool:
        """Basic rules, then ``step`` (cheapest first, back to the basics after every
        step) until nothing changes; False on a contradiction."""
        while True:
            got = self._basic(known)
            if got is None:
                return False
            if got:
                continue
            more = step(known)
            if more is None:
                return False
            got = self._add(known, more)
            if got is None:
                return False
            if not got:
                return True


#: Largest number of placements enumerated for one row, column or region (a work bound:
#: a unit with more is skipped by that step until it has fewer open cells).
MAX_PLACEMENTS = 2000


def star_counting(
    n: int, k: int, lits: list[list[int]], region: dict, max_band: int | None = None
) -> Any:
    """``f(known literals) -> new literals | None`` (the grading closure's genre step).

    Sound counting deductions of Star Battle (None = contradiction):

    * *unit placements*: for each row, column and region, the ways to put its missing
      stars on its open cells, no two touching: a cell in every way is a star, in none
      empty, and a cell outside the unit touching a star of every way is empty;
    * *band counting*: for a band of j consecutive rows (or columns), the regions whose
      open cells and stars all lie inside it put all their stars there: j such regions
      fill the band (its other cells are empty), more than j contradict; and when the
      band's open cells and stars lie within j regions, those regions' cells outside
      the band are empty (fewer than j regions contradict).

    ``max_band`` bounds j (0: no band counting, the easy level of ``StarBattleSteps``;
    counting single rows too made no 10x10 layout of 20 easy that was not already).
    """
    units = [[(r, c) for c in range(n)] for r in range(n)]
    units += [[(r, c) for r in range(n)] for c in range(n)]
    by_region: dict = {}
    for rc, v in sorted(region.items()):
        by_region.setdefault(v, []).append(rc)
    regions = list(by_region.values())
    units += regions
    lit_of = {(r, c): lits[r][c] for r in range(n) for c in range(n)}

    def touching(a: tuple, b: tuple) -> bool:
        return abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1

    def deduce(known: set) -> list[int] | None:
        state = {
            rc: True if lit in known else False if -lit in known else None
            for rc, lit in lit_of.items()
        }
        on: set = set()
        off: set = set()
        for unit in units:
            have = sum(1 for rc in unit if state[rc] is True)
            need = k - have
            open_ = [rc for rc in unit if state[rc] is None]
            if need < 0 or need > len(open_):
                return None
            if need == 0 or comb(len(open_), need) > MAX_PLACEMENTS:
                continue
            ways = [
                w
                for w in combinations(open_, need)
                if all(not touching(a, b) for a, b in combinations(w, 2))
            ]
            if not ways:
                return None
            every = set(ways[0]).intersection(*ways[1:])
            some = set().union(*ways)
            on |= every
            off |= set(open_) - some
            inside = set(unit)
            near = None
            for w in ways:
                ring = {
                    (r + dr, c + dc)
                    for r, c in w
                    for dr in (-1, 0, 1)
                    for dc in (-1, 0, 1)
                    if (r + dr, c + dc) in state and (r + dr, c + dc) not in inside
                }
                near = ring if near is None else near & ring
                if not near:
                    break
            off |= {rc for rc in near or () if state[rc] is None}
        for axis in (0, 1):
            for a in range(n):
                for b in range(a, min(n, a + (n if max_band is None else max_band))):
                    j = b - a + 1
                    live_in = [
                        cells
                        for cells in regions
                        if all(a <= rc[axis] <= b for rc in cells if state[rc] is not False)
                    ]
                    if len(live_in) > j:
                        return None
                    band = [rc for rc in lit_of if a <= rc[axis] <= b and state[rc] is not False]
                    if len(live_in) == j:
                        mine = {rc for cells in live_in for rc in cells}
                        off |= {rc for rc in band if rc not in mine and state[rc] is None}
                    touched = {region[rc] for rc in band}
                    if len(touched) < j:
                        return None
                    if len(touched) == j:
                        off |= {
                            rc
                            for t in touched
                            for rc in by_region[t]
                            if not a <= rc[axis] <= b and state[rc] is None
                        }
        if on & off:
            return None
        return [lit_of[rc] for rc in sorted(on)] + [-lit_of[rc] for rc in sorted(off)]

    return deduce
