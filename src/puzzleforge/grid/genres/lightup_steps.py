"""Light Up solving techniques, used to grade Light Up by technique profile.

Why: failed-literal probing (the generic medium level) solved every minimal Light Up
the generator made, so none graded hard and the tier was refused. Graded by what a
person needs instead:

  level 1 (easy):   a bulb's sight holds no other bulb; a numbered wall with its count
                    of bulbs gets no more, one with exactly as many open neighbours as
                    bulbs missing gets them all; an unlit cell that only one open cell
                    can light (itself or one in its sight) gets a bulb there;
  level 2 (medium): + number placements: the ways to put a wall's missing bulbs on its
                    open neighbours: a neighbour in every way is a bulb, and a cell that
                    a bulb of every way would see is not one; + one-step trials: a cell
                    whose bulb would, by its sight alone, leave a wall short of open
                    neighbours or an unlit cell with nothing to light it, is not a bulb;
  level 3 (hard):   these stall: longer trials or search are needed.

Uniqueness is never judged here (the generator proves it with the SAT solver). The grade
is ``level + share of cells the previous level left open * 0.99`` as in grading.py.
"""

from __future__ import annotations

from itertools import combinations

__all__ = ["LightUpSteps"]


class _Contradiction(Exception):
    pass


class LightUpSteps:
    """The technique solver for one wall layout (``walls``: set of (r, c))."""

    def __init__(self, rows: int, cols: int, walls: set) -> None:
        self.white = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in walls]
        index = {rc: i for i, rc in enumerate(self.white)}
        self.index = index
        self.sight: list[list[int]] = []  # other white cells a bulb here would light
        for r, c in self.white:
            seen = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                while 0 <= rr < rows and 0 <= cc < cols and (rr, cc) not in walls:
                    seen.append(index[(rr, cc)])
                    rr, cc = rr + dr, cc + dc
            self.sight.append(seen)
        self.around = {
            w: [
                index[(w[0] + dr, w[1] + dc)]
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if (w[0] + dr, w[1] + dc) in index
            ]
            for w in walls
        }

    def grade(self, numbers: dict, cap: int = 3) -> float:
        """``numbers``: {(r, c) of a wall: bulbs around it}. ``cap`` as in techniques.py."""
        walls = [(self.around[w], v) for w, v in sorted(numbers.items())]
        state: list[bool | None] = [None] * len(self.white)
        try:
            if self._run(state, walls, 1):
                return 1.0
            if cap < 2:
                return 2.0
            frac = self._decided(state)
            if self._run(state, walls, 2):
                return round(2.0 + (1.0 - frac) * 0.99, 3)
            if cap < 3:
                return 3.0
            return round(3.0 + (1.0 - self._decided(state)) * 0.99, 3)
        except _Contradiction:
            return 0.0

    def _decided(self, state: list) -> float:
        return sum(1 for s in state if s is not None) / max(1, len(state))

    def _set(self, state: list, i: int, value: bool) -> bool:
        if state[i] is None:
            state[i] = value
            return True
        if state[i] != value:
            raise _Contradiction
        return False

    def _run(self, state: list, walls: list, level: int) -> bool:
        while True:
            self._basic(state, walls)
            if all(s is not None for s in state):
                return True
            if level < 2 or not (self._placements(state, walls) or self._trials(state, walls)):
                return False

    def _lit(self, state: list) -> list[bool]:
        lit = [s is True for s in state]
        for i, s in enumerate(state):
            if s is True:
                for j in self.sight[i]:
                    lit[j] = True
        return lit

    def _basic(self, state: list, walls: list) -> None:
        sight = self.sight
        while True:
            progress = False
            for i, s in enumerate(state):
                if s is True:
                    for j in sight[i]:
                        progress = self._set(state, j, False) or progress
            for cells, v in walls:
                have = sum(1 for j in cells if state[j] is True)
                open_ = [j for j in cells if state[j] is None]
                if have > v or have + len(open_) < v:
                    raise _Contradiction
                if open_ and have == v:
                    for j in open_:
                        progress = self._set(state, j, False) or progress
                elif open_ and have + len(open_) == v:
                    for j in open_:
                        progress = self._set(state, j, True) or progress
            lit = self._lit(state)
            for i in range(len(state)):
                if lit[i]:
                    continue
                near = [i, *sight[i]]
                if any(state[j] is True for j in near):
                    continue  # lit by a bulb placed in this sweep
                who = [j for j in near if state[j] is None]
                if not who:
                    raise _Contradiction
                if len(who) == 1:
                    progress = self._set(state, who[0], True) or progress
            if not progress:
                return

    def _placements(self, state: list, walls: list) -> bool:
        """Number placements (see the module doc); True when something was decided."""
        for cells, v in walls:
            have = sum(1 for j in cells if state[j] is True)
            open_ = [j for j in cells if state[j] is None]
            need = v - have
            if need <= 0 or need >= len(open_):
                continue
            ways = list(combinations(open_, need))
            every = set(ways[0]).intersection(*ways[1:])
            seen = None
            for w in ways:
                mine = {j for b in w for j in self.sight[b]} - set(w)
                seen = mine if seen is None else seen & mine
            hit = False
            for j in sorted(every):
                hit = self._set(state, j, True) or hit
            for j in sorted(seen or ()):
                if state[j] is None:
                    hit = self._set(state, j, False) or hit
            if hit:
                return True
        return False

    def _trials(self, state: list, walls: list) -> bool:
        """One-step trials (see the module doc); True when something was decided."""
        lit = self._lit(state)
        for i, s in enumerate(state):
            if s is not None:
                continue
            dark = set(self.sight[i])
            bad = False
            for cells, v in walls:
                have = sum(1 for j in cells if state[j] is True) + (i in cells)
                room = sum(1 for j in cells if state[j] is None and j != i and j not in dark)
                if have > v or have + room < v:
                    bad = True
                    break
            if not bad:
                near = set(self.sight[i]) | {i}
                for x in range(len(state)):
                    if lit[x] or x in near:
                        continue
                    if not any(state[j] is None and j not in dark for j in [x, *self.sight[x]]):
                        bad = True
                        break
            if bad:
                self._set(state, i, False)
                return True
        return False
