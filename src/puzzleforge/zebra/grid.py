"""The solving grid of a logic-grid puzzle: compact bitmasks with an undo trail.

Why bitmasks and a trail: the deduction engine tries thousands of hypotheses per puzzle
("guessing" = depth-1 refutation). Copying a dict of arrays for every hypothesis (as the
reference implementation does) dominates its 129 s; here a hypothesis costs a trail mark
and an ``undo``.

Layout: for every ordered pair of categories (c1, c2), c1 != c2, and every object i of
c1, ``cand[(c1*K + c2)*k + i]`` is the bitmask of objects of c2 still possible for i
(an "X" in the paper grid clears a bit) and ``yes[...]`` the confirmed partner or -1
(a "●"). Both orientations are kept in sync, so a column of a box is a row of the
mirrored box. A cell is written ``(c1, i1, c2, i2)`` with ``c1 < c2``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = ["Contradiction", "Grid", "norm_cell", "UNKNOWN", "YES", "NO"]

UNKNOWN, YES, NO = 0, 1, 2


class Contradiction(Exception):
    """Raised by a grid write (or a clue check) when the marks cannot all be true.

    ``cells`` names the marks that clash, as ("x"/"o", cell) pairs, when a grid write
    finds the clash (a line left without options, a ● meeting an X): an explanation
    traces a refutation back from them (``readable.refutation``). ``active`` is set by
    the engine in explain mode: the deduction that failed (rule, clues, marks used)."""

    def __init__(self, message: str = "", cells: list | None = None) -> None:
        super().__init__(message)
        self.cells = list(cells or [])
        self.active: dict[str, Any] | None = None


def norm_cell(c1: int, i1: int, c2: int, i2: int) -> tuple[int, int, int, int]:
    """The canonical spelling of a cell: the smaller category first."""
    return (c1, i1, c2, i2) if c1 < c2 else (c2, i2, c1, i1)


class Grid:
    """Marks of the solving grid; every write is recorded on ``trail`` for ``undo``.

    ``log`` is None while generating (fast path); when it is a list, every write appends
    ``(mark, cell)`` to ``log[-1]`` so the engine can group marks into explained steps.
    """

    __slots__ = ("K", "k", "full", "cand", "yes", "trail", "log", "pending", "single")

    def __init__(self, K: int, k: int) -> None:
        self.K, self.k = K, k
        self.full = (1 << k) - 1
        size = K * K * k
        self.cand = [self.full] * size
        self.yes = [-1] * size
        self.trail: list[tuple[int, int, int]] = []
        self.log: list[list[tuple[str, tuple[int, int, int, int]]]] | None = None
        self.pending: list[tuple[int, int, int, int]] = []
        #: rows that became a single open cell without a ● (work for rule 2)
        self.single: list[int] = []

    # -- reading -----------------------------------------------------------------------
    def row(self, c1: int, i: int, c2: int) -> int:
        """Bitmask of objects of ``c2`` still possible for object ``i`` of ``c1``."""
        if c1 == c2:
            return 1 << i
        return self.cand[(c1 * self.K + c2) * self.k + i]

    def partner(self, c1: int, i: int, c2: int) -> int:
        """Confirmed partner in ``c2`` of object ``i`` of ``c1``, or -1."""
        if c1 == c2:
            return i
        return self.yes[(c1 * self.K + c2) * self.k + i]

    def state(self, c1: int, i1: int, c2: int, i2: int) -> int:
        """UNKNOWN, YES or NO for the pairing of two objects."""
        if c1 == c2:
            return YES if i1 == i2 else NO
        idx = (c1 * self.K + c2) * self.k + i1
        if self.yes[idx] == i2:
            return YES
        if not (self.cand[idx] >> i2) & 1:
            return NO
        return UNKNOWN

    def is_complete(self) -> bool:
        """Every cell marked: each row of each box has its confirmed partner."""
        return all(
            y >= 0
            for c1 in range(self.K)
            for c2 in range(self.K)
            if c1 != c2
            for y in self.yes[(c1 * self.K + c2) * self.k : (c1 * self.K + c2 + 1) * self.k]
        )

    def unknown_cells(self) -> Iterator[tuple[int, int, int, int]]:
        """Cells with neither mark, box by box (c1 < c2), row by row."""
        K, k = self.K, self.k
        for c1 in range(K):
            for c2 in range(c1 + 1, K):
                base = (c1 * K + c2) * k
                for i in range(k):
                    if self.yes[base + i] >= 0:
                        continue
                    m = self.cand[base + i]
                    for j in range(k):
                        if (m >> j) & 1:
                            yield (c1, i, c2, j)

    def marks(self) -> dict[tuple[int, int, int, int], int]:
        """Every marked cell -> YES/NO (for explanations and tests)."""
        out = {}
        K, k = self.K, self.k
        for c1 in range(K):
            for c2 in range(c1 + 1, K):
                base = (c1 * K + c2) * k
                for i in range(k):
                    for j in range(k):
                        if self.yes[base + i] == j:
                            out[(c1, i, c2, j)] = YES
                        elif not (self.cand[base + i] >> j) & 1:
                            out[(c1, i, c2, j)] = NO
        return out

    def mark_count(self) -> int:
        return len(self.marks())

    # -- writing -----------------------------------------------------------------------
    def _write(self, idx: int, cand: int, yes: int) -> None:
        self.trail.append((idx, self.cand[idx], self.yes[idx]))
        self.cand[idx] = cand
        self.yes[idx] = yes

    def exclude(self, c1: int, i1: int, c2: int, i2: int) -> bool:
        """Put an X: objects ``i1`` of ``c1`` and ``i2`` of ``c2`` are not paired.

        Returns True when the grid changed; raises Contradiction when the cell holds a
        confirmed pairing or a line would have no possibility left.
        """
        if c1 == c2:
            if i1 == i2:
                raise Contradiction("an object cannot differ from itself")
            return False
        K, k = self.K, self.k
        a = (c1 * K + c2) * k + i1
        ca = self.cand[a]
        if not (ca >> i2) & 1:
            return False
        if self.yes[a] == i2:
            raise Contradiction("X on a confirmed pair", [("o", norm_cell(c1, i1, c2, i2))])
        b = (c2 * K + c1) * k + i2
        na, nb = ca & ~(1 << i2), self.cand[b] & ~(1 << i1)
        self._write(a, na, self.yes[a])
        self._write(b, nb, self.yes[b])
        if self.log is not None:
            self.log[-1].append(("x", norm_cell(c1, i1, c2, i2)))
        if not na or not nb:
            c, i, other = (c1, i1, c2) if not na else (c2, i2, c1)
            raise Contradiction(
                "a line of the grid has no possibility left",
                [("x", norm_cell(c, i, other, v)) for v in range(k)],
            )
        if na & (na - 1) == 0 and self.yes[a] < 0:
            self.single.append(a)
        if nb & (nb - 1) == 0 and self.yes[b] < 0:
            self.single.append(b)
        return True

    def confirm(self, c1: int, i1: int, c2: int, i2: int) -> bool:
        """Put a ● (pairing). Rule 1 (cross out the rest of row and column) is queued in
        ``pending`` so the engine applies it as its own explained step."""
        if c1 == c2:
            if i1 != i2:
                raise Contradiction("two objects of one category cannot be paired")
            return False
        K, k = self.K, self.k
        a = (c1 * K + c2) * k + i1
        ya = self.yes[a]
        if ya == i2:
            return False
        if ya >= 0:
            raise Contradiction(
                "● in a line that already has one", [("o", norm_cell(c1, i1, c2, ya))]
            )
        if not (self.cand[a] >> i2) & 1:
            raise Contradiction("● on an excluded cell", [("x", norm_cell(c1, i1, c2, i2))])
        b = (c2 * K + c1) * k + i2
        if self.yes[b] >= 0:
            raise Contradiction(
                "● in a column that already has one", [("o", norm_cell(c2, i2, c1, self.yes[b]))]
            )
        self._write(a, self.cand[a], i2)
        self._write(b, self.cand[b], i1)
        if self.log is not None:
            self.log[-1].append(("o", norm_cell(c1, i1, c2, i2)))
        self.pending.append((c1, i1, c2, i2))
        return True

    def set_state(self, cell: tuple[int, int, int, int], value: int) -> bool:
        return self.confirm(*cell) if value == YES else self.exclude(*cell)

    # -- undo --------------------------------------------------------------------------
    def mark(self) -> int:
        """A trail position to come back to (pending rule-1 work is part of the state)."""
        return len(self.trail)

    def undo(self, position: int) -> None:
        trail, cand, yes = self.trail, self.cand, self.yes
        while len(trail) > position:
            idx, c, y = trail.pop()
            cand[idx] = c
            yes[idx] = y
        self.pending.clear()
        self.single.clear()

    def snapshot(self) -> dict[str, Any]:
        """Plain copy of the marks (for tests and the explanation JSON)."""
        return {"K": self.K, "k": self.k, "cand": list(self.cand), "yes": list(self.yes)}
