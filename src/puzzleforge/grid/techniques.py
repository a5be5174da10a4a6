"""Human solving techniques for the number genres (Sudoku, Futoshiki), used for grading.

Why not the generic grade (grading.py): failed-literal probing on the Sudoku CNF is a
very strong reasoner (it finishes almost every uniquely solvable Sudoku), so under it no
Sudoku ever graded "hard" and the tier was refused. People grade number puzzles by the
techniques they need, so these genres grade by technique profile instead:

  level 1 (easy):   naked singles, hidden singles (and, for Futoshiki, inequality bounds:
                    ``a < b`` removes from ``a`` every value >= the largest left in ``b``
                    and from ``b`` every value <= the smallest left in ``a``; repeated,
                    this is the chain rule ``a < b < c`` => ``a <= n - 2``);
  level 2 (medium): + locked candidates (pointing and claiming, where there are boxes),
                    naked pairs/triples and hidden pairs/triples;
  level 3 (hard):   the level-2 techniques stall: stronger techniques (fish, wings,
                    chains) or search are needed. Uniqueness is never judged here: the
                    generator proves it with the SAT solver.

The grade is ``level + share of cells the previous level left open * 0.99`` (the same
scale as grading.py: 2.10 = "medium, singles did 90%"). Cells are numbered ``r * n + c``;
a cell's candidates are a bit mask (bit v = value v).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

__all__ = ["LatinTechniques", "TECHNIQUES"]

#: Technique names by level (what docs/grid.md lists as each tier's profile).
TECHNIQUES = {
    1: ("naked single", "hidden single", "inequality bounds"),
    2: ("locked candidates", "naked pair/triple", "hidden pair/triple"),
}


class _Contradiction(Exception):
    """The clues contradict each other (grade 0.0, as grading.py does)."""


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


class LatinTechniques:
    """A technique solver over an n x n board whose ``units`` (rows, columns, boxes)
    each hold every value 1..n once, plus strict inequalities between cells."""

    def __init__(self, n: int, boxes: list[list[int]] | None = None) -> None:
        self.n = n
        self.full = sum(1 << v for v in range(1, n + 1))
        rows = [[r * n + c for c in range(n)] for r in range(n)]
        cols = [[r * n + c for r in range(n)] for c in range(n)]
        self.boxes = boxes or []
        self.lines = rows + cols
        self.units = rows + cols + self.boxes
        peers: list[set[int]] = [set() for _ in range(n * n)]
        for unit in self.units:
            for i in unit:
                peers[i].update(unit)
        for i in range(n * n):
            peers[i].discard(i)
        self.peers = [sorted(p) for p in peers]
        self.box_of = {i: b for b, box in enumerate(self.boxes) for i in box}

    # -- grading ----------------------------------------------------------------------
    def grade(
        self, givens: dict[int, int], less: Sequence[tuple[int, int]] = (), cap: int = 3
    ) -> float:
        """The technique grade of the module doc; with ``cap`` < 3 the answer is only
        exact up to ``cap`` (anything harder returns ``cap + 1.0``: generators ask
        "is it at most easy?" after every removal, and that needs no level-2 work)."""
        try:
            state = _State(self, givens, list(less))
            if state.run(1):
                return 1.0
            if cap < 2:
                return 2.0
            frac1 = state.decided()
            if state.run(2):
                return round(2.0 + (1.0 - frac1) * 0.99, 3)
            if cap < 3:
                return 3.0
            return round(3.0 + (1.0 - state.decided()) * 0.99, 3)
        except _Contradiction:
            return 0.0

    def profile(self, givens: dict[int, int], less: Sequence[tuple[int, int]] = ()) -> dict:
        """How often each technique fired on the way (for docs, tests and the bench)."""
        state = _State(self, givens, list(less))
        try:
            state.run(2)
        except _Contradiction:
            return {"contradiction": 1}
        return dict(state.used)


class _State:
    """Candidates of one solve in progress."""

    def __init__(self, t: LatinTechniques, givens: dict[int, int], less: list) -> None:
        self.t = t
        self.cand = [t.full] * (t.n * t.n)
        self.placed = [False] * (t.n * t.n)
        self.less = less
        self.used: dict[str, int] = {}
        for i, v in givens.items():
            if not self.cand[i] & (1 << v):
                raise _Contradiction
            self.cand[i] = 1 << v

    def decided(self) -> float:
        return sum(1 for m in self.cand if m & (m - 1) == 0) / len(self.cand)

    def solved(self) -> bool:
        return all(m & (m - 1) == 0 for m in self.cand)

    def _note(self, name: str) -> None:
        self.used[name] = self.used.get(name, 0) + 1

    def _remove(self, i: int, mask: int) -> bool:
        c = self.cand[i]
        if not c & mask:
            return False
        c &= ~mask
        if not c:
            raise _Contradiction
        self.cand[i] = c
        return True

    def run(self, level: int) -> bool:
        """Apply the techniques up to ``level`` (cheapest first, back to singles after
        every step) until nothing changes; True when every cell is decided."""
        while True:
            self._singles()
            if self.solved():
                return True
            if level < 2 or not self._level2():
                return False

    # -- level 1 ------------------------------------------------------------------------
    def _singles(self) -> None:
        cand, placed, peers = self.cand, self.placed, self.t.peers
        full = self.t.full
        while True:
            progress = False
            for i, m in enumerate(cand):
                if placed[i] or m & (m - 1):
                    continue
                placed[i] = True
                progress = True
                for p in peers[i]:
                    if cand[p] & m:
                        self._remove(p, m)
            for unit in self.t.units:
                once = twice = 0
                fixed = 0
                for i in unit:
                    m = cand[i]
                    twice |= once & m
                    once |= m
                    if placed[i]:
                        fixed |= m
                if once != full:
                    raise _Contradiction  # a value with no place left in the unit
                hidden = once & ~twice & ~fixed
                for b in _bits(hidden):
                    for i in unit:
                        if cand[i] & b:
                            if cand[i] != b:
                                cand[i] = b
                                self._note("hidden single")
                                progress = True
                            break
            for a, b in self.less:
                hi_b = cand[b].bit_length() - 1  # largest value left in b
                lo_a = (cand[a] & -cand[a]).bit_length() - 1  # smallest left in a
                if self._remove(a, ~((1 << hi_b) - 1) & self.t.full):
                    progress = True
                    self._note("inequality bounds")
                if self._remove(b, ((1 << (lo_a + 1)) - 1) & self.t.full):
                    progress = True
                    self._note("inequality bounds")
            if not progress:
                return

    # -- level 2 ------------------------------------------------------------------------
    def _level2(self) -> bool:
        """One level-2 step (the first technique that removes a candidate)."""
        return (
            self._locked() or self._naked(2) or self._hidden(2) or self._naked(3) or self._hidden(3)
        )

    def _locked(self) -> bool:
        """Pointing (a value's places in a box lie in one line: not elsewhere in that
        line) and claiming (its places in a line lie in one box: not elsewhere in it)."""
        t, cand = self.t, self.cand
        if not t.boxes:
            return False
        n = t.n
        for box in t.boxes:
            for b in _bits(t.full):
                where = [i for i in box if cand[i] & b]
                if len(where) < 2 or any(cand[i] == b for i in where):
                    continue
                for line_of, lines in ((lambda i: i // n, 0), (lambda i: i % n, n)):
                    keys = {line_of(i) for i in where}
                    if len(keys) == 1:
                        line = t.lines[lines + keys.pop()]
                        hit = False
                        for j in line:
                            if j not in box and cand[j] & b:
                                hit = self._remove(j, b) or hit
                        if hit:
                            self._note("locked candidates")
                            return True
        for line in t.lines:
            for b in _bits(t.full):
                where = [i for i in line if cand[i] & b]
                if len(where) < 2 or any(cand[i] == b for i in where):
                    continue
                boxes = {t.box_of[i] for i in where}
                if len(boxes) == 1:
                    hit = False
                    for j in t.boxes[boxes.pop()]:
                        if j not in line and cand[j] & b:
                            hit = self._remove(j, b) or hit
                    if hit:
                        self._note("locked candidates")
                        return True
        return False

    def _naked(self, k: int) -> bool:
        """k open cells of a unit holding only k values between them: those values
        leave the unit's other cells."""
        cand = self.cand
        for unit in self.t.units:
            open_ = [i for i in unit if cand[i] & (cand[i] - 1)]
            if len(open_) <= k:
                continue
            small = [i for i in open_ if cand[i].bit_count() <= k]
            for group in combinations(small, k):
                mask = 0
                for i in group:
                    mask |= cand[i]
                if mask.bit_count() != k:
                    continue
                hit = False
                for j in open_:
                    if j not in group and cand[j] & mask:
                        hit = self._remove(j, mask) or hit
                if hit:
                    self._note(f"naked {'pair' if k == 2 else 'triple'}")
                    return True
        return False

    def _hidden(self, k: int) -> bool:
        """k values of a unit whose places are only k cells: those cells hold only
        those values."""
        cand = self.cand
        for unit in self.t.units:
            open_ = [i for i in unit if cand[i] & (cand[i] - 1)]
            if len(open_) <= k:
                continue
            places: dict[int, int] = {}
            for b in _bits(self.t.full):
                where = 0
                for pos, i in enumerate(open_):
                    if cand[i] & b:
                        where |= 1 << pos
                if 0 < where.bit_count() <= k and not any(cand[i] == b for i in unit):
                    places[b] = where
            for group in combinations(sorted(places), k):
                where = 0
                values = 0
                for b in group:
                    where |= places[b]
                    values |= b
                if where.bit_count() != k:
                    continue
                hit = False
                for pos, i in enumerate(open_):
                    if where >> pos & 1 and cand[i] & ~values:
                        hit = self._remove(i, ~values & self.t.full) or hit
                if hit:
                    self._note(f"hidden {'pair' if k == 2 else 'triple'}")
                    return True
        return False
