"""Order clues: relations over an ordered or numerical category (chain, arith, next to,
the positional kinds of LLM benchmarks and ZebraLogic).

Why a module of its own (split from zebra/clues.py): one class serves every order
relation through its allowed position tuples (``order_tuples``), and its propagator
(support per object and position, forced pairings, separations) is the largest single
piece of the clue model; the other clue types (zebra/clues.py) need none of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from .cluebase import (
    Atom,
    Cell,
    Clue,
    Obj,
    Solution,
    _clause,
    _row_marks,
    value_in,
)
from .grid import Contradiction, Grid


def order_tuples(
    kind: str,
    k: int,
    *,
    values: Sequence[Fraction] | None = None,
    oper: str = "+",
    d: Fraction | None = None,
) -> list[tuple[int, ...]]:
    """Allowed position tuples (one position per clue object, in clue order) of an
    order relation over a category with ``k`` ordered objects. Every relation here is
    irreflexive (all positions in a tuple differ), which is what makes "objects of two
    different categories in one such clue cannot be paired" a valid deduction."""
    r = range(k)
    if kind == "chain":
        return [(a, b, c) for a in r for b in r for c in r if a < b < c]
    if kind == "nextto":
        return [(a, b) for a in r for b in r if abs(a - b) == 1]
    if kind == "left1":
        return [(a, b) for a in r for b in r if a == b - 1]
    if kind == "right1":
        return [(a, b) for a in r for b in r if a == b + 1]
    if kind == "left":
        return [(a, b) for a in r for b in r if a < b]
    if kind == "right":
        return [(a, b) for a in r for b in r if a > b]
    if kind == "onebetween":
        return [(a, b) for a in r for b in r if abs(a - b) == 2]
    if kind == "twobetween":
        return [(a, b) for a in r for b in r if abs(a - b) == 3]
    if kind == "between":
        return [(a, b, c) for a in r for b in r for c in r if b < a < c or c < a < b]
    if kind == "end":
        return [(0,), (k - 1,)] if k > 1 else [(0,)]
    if kind == "arith":
        if values is None or d is None:
            raise ValueError("arith relation needs values and d")
        out: list[tuple[int, ...]] = []
        for a in r:
            for b in r:
                target = values[a] + d if oper == "+" else values[a] * d
                if a != b and values[b] == target:
                    out.append((a, b))
        return out
    raise ValueError(f"unknown order relation {kind!r}")


@dataclass
class OrderClue(Clue):
    """Types 2, 3, 6 and the positional clues: a relation between the positions of
    ``objs`` in the ordered category ``cat`` (allowed position tuples in ``tuples``)."""

    rel: str = "nextto"
    cat: int = 0
    objs: tuple[Obj, ...] = ()
    oper: str = "+"
    d: str = "0"
    tuples: tuple[tuple[int, ...], ...] = ()
    size: int = 0

    def __post_init__(self) -> None:
        self.kind = {"chain": "chain", "arith": "arith", "nextto": "nextto"}.get(self.rel, "pos")
        self.type_no = {"chain": 2, "arith": 3, "nextto": 6}.get(self.rel, 7)

    def holds(self, sol: Solution) -> bool:
        positions = tuple(value_in(sol, o, self.cat) for o in self.objs)
        return positions in set(self.tuples)

    def objects(self) -> list[Obj]:
        return list(self.objs)

    def pairs_to_separate(self) -> list[Atom]:
        """Objects of two different categories (neither the ordering one) in this clue
        hold different positions, so they cannot be paired."""
        out = []
        objs = self.objs
        for a in range(len(objs)):
            for b in range(a + 1, len(objs)):
                x, y = objs[a], objs[b]
                if x[0] != y[0] and x[0] != self.cat and y[0] != self.cat:
                    out.append((x, y))
        return out

    def _prepare(self) -> None:
        """Precompute what propagation reads: pairs to separate and, for binary
        relations, support masks (sup[m][v] = positions of the other object allowed
        when object m sits at v)."""
        self._sep = self.pairs_to_separate()
        n = len(self.objs)
        self._sup: list[list[int]] | None = None
        self._unary = 0
        if n == 1:
            for (a,) in self.tuples:
                self._unary |= 1 << a
        elif n == 2:
            size = max([max(t) for t in self.tuples] + [0]) + 1
            sup = [[0] * size, [0] * size]
            for a, b in self.tuples:
                sup[0][a] |= 1 << b
                sup[1][b] |= 1 << a
            self._sup = sup

    def _restrict(self, g: Grid, m: int, lost: int) -> None:
        c, i = self.objs[m]
        if c == self.cat:
            raise Contradiction("an ordered object outside its own position")
        v = 0
        while lost:
            if lost & 1:
                g.exclude(c, i, self.cat, v)
            lost >>= 1
            v += 1

    def propagate(self, g: Grid) -> None:
        if not hasattr(self, "_sep"):
            self._prepare()
        cat = self.cat
        for x, y in self._sep:
            g.exclude(x[0], x[1], y[0], y[1])
        objs = self.objs
        n = len(objs)
        if n == 1:
            c, i = objs[0]
            dom = g.row(c, i, cat)
            if dom & ~self._unary:
                self._restrict(g, 0, dom & ~self._unary)
            return
        if n == 2:
            sup = self._sup
            assert sup is not None  # built with the relation's tables in __init__
            (ca, ia), (cb, ib) = objs
            while True:
                da, db = g.row(ca, ia, cat), g.row(cb, ib, cat)
                keep_a = keep_b = 0
                v = 0
                m = da
                while m:
                    if m & 1 and v < len(sup[0]) and sup[0][v] & db:
                        keep_a |= 1 << v
                    m >>= 1
                    v += 1
                v = 0
                m = db
                while m:
                    if m & 1 and v < len(sup[1]) and sup[1][v] & da:
                        keep_b |= 1 << v
                    m >>= 1
                    v += 1
                if keep_a == da and keep_b == db:
                    return
                if da & ~keep_a:
                    self._restrict(g, 0, da & ~keep_a)
                if db & ~keep_b:
                    self._restrict(g, 1, db & ~keep_b)
        while True:
            doms = [g.row(o[0], o[1], cat) for o in objs]
            support = [0] * n
            for t in self.tuples:
                ok = True
                for m in range(n):
                    if not (doms[m] >> t[m]) & 1:
                        ok = False
                        break
                if ok:
                    for m in range(n):
                        support[m] |= 1 << t[m]
            changed = False
            for m in range(n):
                lost = doms[m] & ~support[m]
                if lost:
                    self._restrict(g, m, lost)
                    changed = True
            if not changed:
                return

    def watched_rows(self, K: int, k: int) -> list[int]:
        """Grid row indices this clue reads (for skipping unchanged clues)."""
        out = []
        for c, i in self.objs:
            if c != self.cat:
                out.append((c * K + self.cat) * k + i)
        for x, y in self.pairs_to_separate():
            out.append((x[0] * K + y[0]) * k + x[1])
        return out

    def used_cells(self, g: Grid) -> list[tuple[str, Cell]]:
        out: list[tuple[str, Cell]] = []
        for obj in self.objs:
            if obj[0] != self.cat:
                out += _row_marks(g, obj, self.cat)
        return out

    def cnf(self, atom):
        out = []
        allowed = set(self.tuples)
        k_range = range(self.size)
        for combo in product(k_range, repeat=len(self.objs)):
            if combo in allowed:
                continue
            lits = []
            for o, v in zip(self.objs, combo, strict=True):
                lit = atom(o, (self.cat, v))
                lits.append((-lit) if not isinstance(lit, bool) else (not lit))
            clause = _clause(lits)
            if clause is not None:
                out.append(clause)
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "type": self.type_no,
            "rel": self.rel,
            "cat": self.cat,
            "objs": [list(o) for o in self.objs],
        }
        if self.rel == "arith":
            out["oper"], out["d"] = self.oper, self.d
        return out


def make_order_clue(
    rel: str,
    cat: int,
    objs: Sequence[Sequence[int]],
    *,
    k: int,
    values: Sequence[Fraction] | None = None,
    oper: str = "+",
    d: str = "0",
) -> OrderClue:
    """Build an order clue with its allowed tuples precomputed for ``k`` objects."""
    dd = Fraction(d)
    tuples = tuple(order_tuples(rel, k, values=values, oper=oper, d=dd))
    clue = OrderClue(
        rel=rel,
        cat=cat,
        objs=tuple((int(o[0]), int(o[1])) for o in objs),
        oper=oper,
        d=d,
        tuples=tuples,
        size=k,
    )
    return clue
