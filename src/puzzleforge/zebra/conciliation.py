"""The grid rules of the deduction engine (seeds/003, 2.1.7-2.1.11), applied to every
box: rule 1 (a ● crosses out its row and column), rule 2 (the last open cell of a line),
rules 3 and 4 (shared exclusions; lines that exclude each other's every option, one
consistency check driven by the rows that changed) and rule 5 (n lines confined to n
cells, n = 2, 3).

Why apart from the engine: these are the conciliation rules a person applies to the
grid alone, without clues; the engine (engine.py) orders them with clue propagation and
refutation, cheapest first.
"""

from __future__ import annotations

from itertools import combinations

from .grid import norm_cell
from .steplog import StepLog

__all__ = ["ConciliationRules"]


def _bits(mask: int) -> list[int]:
    out, v = [], 0
    while mask:
        if mask & 1:
            out.append(v)
        mask >>= 1
        v += 1
    return out


class ConciliationRules(StepLog):
    """Rules 1-5 over ``self.g``; each returns True when it changed the grid. The rules
    driven by the rows that changed keep a trail cursor each in ``_cursor``."""

    K: int
    k: int
    _cursor: dict[str, int]

    def _rule1(self) -> bool:
        g = self.g
        changed = False
        while g.pending:
            c1, i1, c2, i2 = g.pending.pop()
            used = [("o", norm_cell(c1, i1, c2, i2))]

            def cross(c1=c1, i1=i1, c2=c2, i2=i2) -> None:
                for j in _bits(g.row(c1, i1, c2) & ~(1 << i2)):
                    g.exclude(c1, i1, c2, j)
                for j in _bits(g.row(c2, i2, c1) & ~(1 << i1)):
                    g.exclude(c2, i2, c1, j)

            changed |= self._apply("rule1", (), used, cross)
        return changed

    def _rule2(self) -> bool:
        g, K, k = self.g, self.K, self.k
        single = g.single
        changed = False
        while single:
            idx = single.pop()
            m = g.cand[idx]
            if g.yes[idx] >= 0 or not m or m & (m - 1):
                continue
            c1, rest = divmod(idx, K * k)
            c2, i = divmod(rest, k)
            j = m.bit_length() - 1
            used = (
                [("x", norm_cell(c1, i, c2, x)) for x in range(k) if x != j]
                if g.log is not None
                else ()
            )
            self._apply("rule2", (), used, g.confirm, c1, i, c2, j)
            changed = True
        return changed

    def _rule3(self) -> bool:
        g, K, k = self.g, self.K, self.k
        changed = False
        for c1 in range(K):
            for c2 in range(c1 + 1, K):
                base = (c1 * K + c2) * k
                for i in range(k):
                    j = g.yes[base + i]
                    if j < 0:
                        continue
                    for c3 in range(K):
                        if c3 in (c1, c2):
                            continue
                        a, b = g.row(c1, i, c3), g.row(c2, j, c3)
                        if a == b:
                            continue
                        both = a & b
                        used = []
                        if g.log is not None:
                            used = [("o", (c1, i, c2, j))]
                            used += [("x", norm_cell(c1, i, c3, v)) for v in _bits(b & ~a)]
                            used += [("x", norm_cell(c2, j, c3, v)) for v in _bits(a & ~b)]

                        def share(c1=c1, i=i, c2=c2, j=j, c3=c3, a=a, b=b, both=both) -> None:
                            for v in _bits(a & ~both):
                                g.exclude(c1, i, c3, v)
                            for v in _bits(b & ~both):
                                g.exclude(c2, j, c3, v)

                        self._apply("rule3", (), used, share)
                        changed = True
        return changed

    def _rows_since(self, name: str) -> set[int]:
        """Grid rows written since consumer ``name`` last looked (trail cursor)."""
        trail = self.g.trail
        n = len(trail)
        cur = self._cursor[name]
        self._cursor[name] = n
        if cur >= n:
            return set()
        return {idx for idx, _, _ in trail[cur:]}

    def _rule4(self) -> bool:
        """Rules 3 and 4 as one consistency check, driven by the rows that changed.

        Object a of A can only pair with objects of B that share an option in C:
        row(A,a,B) must lie within OR_{v in row(A,a,C)} row(C,v,B). When a is already
        paired in C (a ●) this is rule 3 (shared exclusions); otherwise rule 4 (two lines
        that exclude each other's every option). The condition on a cell is symmetric
        (row(A,a,C) and row(B,j,C) must meet), and every write lands on the trail in both
        orientations, so a changed row (X,x,Y) only needs targets (X,x,B) through C=Y.
        """
        rows = self._rows_since("r4")
        if not rows:
            return False
        g, K, k = self.g, self.K, self.k
        cand, yes = g.cand, g.yes
        Kk = K * k
        # (A, B, C) -> bitmask of objects a of A whose row towards B must be rechecked
        targets: dict[tuple[int, int, int], int] = {}
        for idx in rows:
            X, rest = divmod(idx, Kk)
            Y, x = divmod(rest, k)
            bit = 1 << x
            # only (X, x, B) through Y: the mirror write (Y, y, X) of the same cell is in
            # the trail too and covers the targets (A, a, Y) through X by symmetry
            for B in range(K):
                if B != X and B != Y:
                    key = (X, B, Y)
                    targets[key] = targets.get(key, 0) | bit
        changed = False
        for A, B, C in sorted(targets):
            amask = targets[(A, B, C)]
            a = -1
            while amask:
                a += 1
                if not amask & 1:
                    amask >>= 1
                    continue
                amask >>= 1
                tidx = (A * K + B) * k + a
                m = cand[(A * K + C) * k + a]
                base3 = (C * K + B) * k
                allowed = 0
                v = 0
                while m:
                    if m & 1:
                        allowed |= cand[base3 + v]
                    m >>= 1
                    v += 1
                lost = cand[tidx] & ~allowed
                if not lost:
                    continue
                paired = yes[(A * K + C) * k + a]
                rule = "rule3" if paired >= 0 else "rule4"
                for j in _bits(lost):
                    used: list = []
                    if g.log is not None:
                        if paired >= 0:
                            used = [("o", norm_cell(A, a, C, paired))]
                            used += [
                                ("x", norm_cell(C, paired, B, w))
                                for w in _bits(~g.row(C, paired, B) & g.full)
                                if w == j
                            ]
                        else:
                            ra, rb = g.row(A, a, C), g.row(B, j, C)
                            used = [("x", norm_cell(A, a, C, w)) for w in _bits(~ra & g.full)]
                            used += [("x", norm_cell(B, j, C, w)) for w in _bits(~rb & g.full)]
                    self._apply(rule, (), used, g.exclude, A, a, B, j)
                changed = True
        return changed

    def _rule5(self) -> bool:
        g, K, k = self.g, self.K, self.k
        changed = False
        boxes = sorted({idx // k for idx in self._rows_since("r5")})
        for box in boxes:
            c1, c2 = divmod(box, K)
            if c1 == c2:
                continue
            if True:
                base = (c1 * K + c2) * k
                rows = [(i, g.cand[base + i]) for i in range(k) if g.yes[base + i] < 0]
                if len(rows) < 3:
                    continue
                done = False
                for n in (2, 3):
                    if done:
                        break
                    small = [(i, m) for i, m in rows if m.bit_count() <= n]
                    if len(small) < n:
                        continue
                    for group in combinations(small, n):
                        union = 0
                        for _, m in group:
                            union |= m
                        if union.bit_count() != n:
                            continue
                        members = {i for i, _ in group}
                        victims = [(i, m) for i, m in rows if i not in members and m & union]
                        if not victims:
                            continue
                        used = []
                        if g.log is not None:
                            used = [
                                ("x", norm_cell(c1, i, c2, v))
                                for i in members
                                for v in _bits(~g.cand[base + i] & g.full)
                            ]

                        def take(victims=victims, union=union, c1=c1, c2=c2) -> None:
                            for i, m in victims:
                                for v in _bits(m & union):
                                    g.exclude(c1, i, c2, v)

                        self._apply("rule5", (), used, take)
                        changed = done = True
                        break
        return changed
