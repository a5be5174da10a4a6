"""The typed clue model: every clue knows its truth on a solution, its propagator, its
contradiction check, its critical squares and its exact (CNF) encoding.

Why one model for all of them: the deduction engine, the exact solver, the generator's
"is this clue forbidden?" test and the text renderers all read the same objects, so a
clue type is added in one place. Types follow seeds/003 (Banecki):

1. ``not``     X is not paired with Y (1-3 exclusions in one category).
2. ``chain``   over an ordered category O: low < mid < high.
3. ``arith``   over a numerical category N: value(B) = value(A) + d  or  value(A) * d.
4. ``ifthen``  if P then Q, otherwise R (P, Q, R are pairings).
5. ``either``  P or Q (inclusive), or exactly one of P, Q (exclusive).
6. ``nextto``  over an ordered category O: X and Y are neighbours.
7. ``pos``     the positional clues of LLM benchmarks over an ordered category:
   ``left1``/``right1`` (directly left/right), ``left``/``right`` (somewhere), ``between``,
   ``onebetween`` and ``end``.
8. ``group``   grouped categories: X is paired with "a woman" / "a reptile" of a category
   whose objects carry group labels.

An object is ``(category, index)``. A solution is ``sol[c][e]`` = index of the object of
category c owned by entity e, where entity e is object e of category 0. Ordered
categories list their objects ascending, so "left" means a smaller value.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

from .grid import NO, UNKNOWN, YES, Contradiction, Grid, norm_cell

__all__ = [
    "Obj",
    "Atom",
    "Clue",
    "NotClue",
    "OrderClue",
    "IfThenClue",
    "EitherClue",
    "GroupClue",
    "PairClue",
    "ZEBRALOGIC_RELATIONS",
    "clue_from_dict",
    "order_tuples",
    "atoms_compatible",
    "POS_RELATIONS",
    "entity_of",
    "Cell",
]

Obj = tuple[int, int]
Atom = tuple[Obj, Obj]
Cell = tuple[int, int, int, int]
Solution = Sequence[Sequence[int]]

#: ZebraLogic's positional clue kinds over the houses (two-between is theirs alone).
ZEBRALOGIC_RELATIONS = ("left1", "right1", "left", "right", "nextto", "onebetween", "twobetween")

#: Positional relation -> arity (the LLM-benchmark clue kinds).
POS_RELATIONS = {
    "left1": 2,
    "right1": 2,
    "left": 2,
    "right": 2,
    "between": 3,
    "onebetween": 2,
    "end": 1,
}


def entity_of(sol: Solution, obj: Obj) -> int:
    """The entity (index in category 0) that owns ``obj`` in ``sol``."""
    return list(sol[obj[0]]).index(obj[1])


def value_in(sol: Solution, obj: Obj, cat: int) -> int:
    """Index in category ``cat`` of the object paired with ``obj`` in ``sol``."""
    return sol[cat][entity_of(sol, obj)]


def atom_cell(atom: Atom) -> Cell:
    (c1, i1), (c2, i2) = atom
    return norm_cell(c1, i1, c2, i2)


def atom_holds(sol: Solution, atom: Atom) -> bool:
    return entity_of(sol, atom[0]) == entity_of(sol, atom[1])


def atoms_compatible(*atoms: Atom) -> bool:
    """Can all these pairings hold at once? They can unless joining their objects into
    entities puts two objects of one category into the same entity (``A~B1`` and
    ``A~B2``; ``A1~B`` and ``A2~B``). Text and generator use it: "(or both)" only when
    both alternatives can hold, and no if-then whose "then" contradicts its "if"."""
    parent: dict[Obj, Obj] = {}

    def find(o: Obj) -> Obj:
        while parent.get(o, o) != o:
            o = parent[o]
        return o

    for x, y in atoms:
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[rx] = ry
    groups: dict[Obj, set[int]] = {}
    objs = {o for a in atoms for o in a}
    for o in objs:
        cats = groups.setdefault(find(o), set())
        if o[0] in cats:
            return False
        cats.add(o[0])
    return True


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
class Clue:
    """Base of every clue. ``cid`` is the clue's number in the puzzle (stable in output)."""

    cid: int = field(default=0, init=False)

    kind: str = field(default="", init=False)
    type_no: int = field(default=0, init=False)

    # -- semantics ---------------------------------------------------------------------
    def holds(self, sol: Solution) -> bool:
        raise NotImplementedError

    def watched_rows(self, K: int, k: int) -> list[int]:
        """The grid rows whose change can make this clue deduce more (the engine's watch)."""
        raise NotImplementedError

    def propagate(self, g: Grid) -> None:
        """Apply every deduction this clue allows on the grid (raises Contradiction)."""
        raise NotImplementedError

    def contradicts(self, g: Grid) -> bool:
        """Does the grid already make this clue impossible? (Tried on a trail mark.)"""
        pos = g.mark()
        saved_log, g.log = g.log, None
        try:
            self.propagate(g)
            return False
        except Contradiction:
            return True
        finally:
            g.undo(pos)
            g.log = saved_log

    def atoms(self) -> list[Atom]:
        return []

    def objects(self) -> list[Obj]:
        raise NotImplementedError

    def used_cells(self, g: Grid) -> list[tuple[str, Cell]]:
        """Marks currently on the cells this clue reads (the "marks it relied on")."""
        raise NotImplementedError

    def critical_squares(self, K: int, k: int) -> set[Cell]:
        """Cells the clue speaks about directly: its pairings and the cells its
        propagator crosses out on an empty grid (seeds/003, 2.1.13)."""
        cells = {atom_cell(a) for a in self.atoms()}
        g = Grid(K, k)
        g.log = [[]]
        with contextlib.suppress(Contradiction):
            self.propagate(g)
        cells.update(cell for _, cell in g.log[0])
        return cells

    def cnf(self, atom: Callable[[Obj, Obj], int | bool]) -> list[list[int]]:
        """Clauses over pairing literals; ``atom`` returns a literal or a constant."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError


def _atom_rows(atoms: Sequence[Atom], K: int, k: int) -> list[int]:
    """Rows of both orientations of each atom's box lines (what atom clues read)."""
    out = []
    for (c1, i1), (c2, i2) in atoms:
        if c1 != c2:
            out.append((c1 * K + c2) * k + i1)
            out.append((c2 * K + c1) * k + i2)
    return out


def _atom_state(g: Grid, atom: Atom) -> int:
    (c1, i1), (c2, i2) = atom
    return g.state(c1, i1, c2, i2)


def _set_atom(g: Grid, atom: Atom, value: int) -> None:
    (c1, i1), (c2, i2) = atom
    if value == YES:
        g.confirm(c1, i1, c2, i2)
    else:
        g.exclude(c1, i1, c2, i2)


def _clause(lits: Sequence[int | bool]) -> list[int] | None:
    """Drop constant-false literals; None when a literal is constant-true."""
    out = []
    for lit in lits:
        if lit is True:
            return None
        if lit is False:
            continue
        out.append(int(lit))
    return out


@dataclass
class NotClue(Clue):
    """Type 1: ``obj`` is paired with none of ``others`` (all of one other category)."""

    obj: Obj = (0, 0)
    others: tuple[Obj, ...] = ()

    def __post_init__(self) -> None:
        self.kind, self.type_no = "not", 1

    def holds(self, sol: Solution) -> bool:
        return not any(atom_holds(sol, (self.obj, o)) for o in self.others)

    def atoms(self) -> list[Atom]:
        return [(self.obj, o) for o in self.others]

    def objects(self) -> list[Obj]:
        return [self.obj, *self.others]

    def propagate(self, g: Grid) -> None:
        c1, i1 = self.obj
        for c2, i2 in self.others:
            g.exclude(c1, i1, c2, i2)

    def used_cells(self, g: Grid) -> list[tuple[str, Cell]]:
        return []

    def watched_rows(self, K: int, k: int) -> list[int]:
        return _atom_rows(self.atoms(), K, k)

    def cnf(self, atom):
        out = []
        for a in self.atoms():
            lit = atom(*a)
            clause = _clause([(-lit) if not isinstance(lit, bool) else (not lit)])
            if clause is not None:
                out.append(clause)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "type": 1,
            "obj": list(self.obj),
            "others": [list(o) for o in self.others],
        }


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
        out = []
        for c, i in self.objs:
            if c == self.cat:
                continue
            for v in range(g.k):
                s = g.state(c, i, self.cat, v)
                if s != UNKNOWN:
                    out.append(("o" if s == YES else "x", norm_cell(c, i, self.cat, v)))
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


@dataclass
class IfThenClue(Clue):
    """Type 4: if P then Q, otherwise R."""

    p: Atom = ((0, 0), (1, 0))
    q: Atom = ((0, 0), (1, 0))
    r: Atom = ((0, 0), (1, 0))

    def __post_init__(self) -> None:
        self.kind, self.type_no = "ifthen", 4

    def holds(self, sol: Solution) -> bool:
        return atom_holds(sol, self.q) if atom_holds(sol, self.p) else atom_holds(sol, self.r)

    def atoms(self) -> list[Atom]:
        return [self.p, self.q, self.r]

    def objects(self) -> list[Obj]:
        return [o for a in self.atoms() for o in a]

    def propagate(self, g: Grid) -> None:
        _either_box(g, self.q, self.r)
        sp, sq, sr = _atom_state(g, self.p), _atom_state(g, self.q), _atom_state(g, self.r)
        if sq == NO and sr == NO:
            raise Contradiction("neither consequence can hold")
        if sq == NO:
            _set_atom(g, self.p, NO)
            sp = NO
        if sr == NO:
            _set_atom(g, self.p, YES)
            sp = YES
        if sp == YES:
            _set_atom(g, self.q, YES)
        elif sp == NO:
            _set_atom(g, self.r, YES)

    def used_cells(self, g: Grid) -> list[tuple[str, Cell]]:
        return _atom_marks(g, self.atoms())

    def watched_rows(self, K: int, k: int) -> list[int]:
        # the same-box rule only reads cells on these same lines
        return _atom_rows(self.atoms(), K, k)

    def critical_squares(self, K: int, k: int) -> set[Cell]:
        return super().critical_squares(K, k)

    def cnf(self, atom):
        p, q, r = (atom(*a) for a in (self.p, self.q, self.r))
        out = []
        for lits in ([_neg(p), q], [p, r]):
            clause = _clause(lits)
            if clause is not None:
                out.append(clause)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "type": 4,
            "p": _atom_json(self.p),
            "q": _atom_json(self.q),
            "r": _atom_json(self.r),
        }


@dataclass
class EitherClue(Clue):
    """Type 5: P or Q (inclusive), or exactly one of them (``exclusive``)."""

    p: Atom = ((0, 0), (1, 0))
    q: Atom = ((0, 0), (1, 0))
    exclusive: bool = False

    def __post_init__(self) -> None:
        self.kind, self.type_no = "either", 5

    def holds(self, sol: Solution) -> bool:
        a, b = atom_holds(sol, self.p), atom_holds(sol, self.q)
        return (a != b) if self.exclusive else (a or b)

    def atoms(self) -> list[Atom]:
        return [self.p, self.q]

    def objects(self) -> list[Obj]:
        return [o for a in self.atoms() for o in a]

    def propagate(self, g: Grid) -> None:
        _either_box(g, self.p, self.q)
        sp, sq = _atom_state(g, self.p), _atom_state(g, self.q)
        if sp == NO and sq == NO:
            raise Contradiction("neither alternative can hold")
        if sp == NO:
            _set_atom(g, self.q, YES)
        elif sq == NO:
            _set_atom(g, self.p, YES)
        if self.exclusive:
            if sp == YES:
                _set_atom(g, self.q, NO)
            elif sq == YES:
                _set_atom(g, self.p, NO)

    def used_cells(self, g: Grid) -> list[tuple[str, Cell]]:
        return _atom_marks(g, self.atoms())

    def watched_rows(self, K: int, k: int) -> list[int]:
        # the same-box rule only reads cells on these same lines
        return _atom_rows(self.atoms(), K, k)

    def cnf(self, atom):
        p, q = atom(*self.p), atom(*self.q)
        out = []
        rows = [[p, q]]
        if self.exclusive:
            rows.append([_neg(p), _neg(q)])
        for lits in rows:
            clause = _clause(lits)
            if clause is not None:
                out.append(clause)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "type": 5,
            "p": _atom_json(self.p),
            "q": _atom_json(self.q),
            "exclusive": self.exclusive,
        }


@dataclass
class GroupClue(Clue):
    """Grouped categories: ``obj`` is paired with an object of category ``cat`` that
    belongs to a group ("a woman", "a reptile"); ``members`` are that group's indices."""

    obj: Obj = (0, 0)
    cat: int = 1
    members: tuple[int, ...] = ()
    label: str = ""
    phrase: str = ""

    def __post_init__(self) -> None:
        self.kind, self.type_no = "group", 8

    def holds(self, sol: Solution) -> bool:
        return value_in(sol, self.obj, self.cat) in self.members

    def objects(self) -> list[Obj]:
        return [self.obj]

    def propagate(self, g: Grid) -> None:
        c, i = self.obj
        mask = 0
        for m in self.members:
            mask |= 1 << m
        if c == self.cat:
            if i not in self.members:
                raise Contradiction("object outside its own group")
            return
        lost = g.row(c, i, self.cat) & ~mask
        v = 0
        while lost:
            if lost & 1:
                g.exclude(c, i, self.cat, v)
            lost >>= 1
            v += 1

    def watched_rows(self, K: int, k: int) -> list[int]:
        c, i = self.obj
        return [] if c == self.cat else [(c * K + self.cat) * k + i]

    def used_cells(self, g: Grid) -> list[tuple[str, Cell]]:
        c, i = self.obj
        out = []
        for v in range(g.k):
            st = g.state(c, i, self.cat, v)
            if st != UNKNOWN:
                out.append(("o" if st == YES else "x", norm_cell(c, i, self.cat, v)))
        return out

    def cnf(self, atom):
        clause = _clause([atom(self.obj, (self.cat, m)) for m in self.members])
        return [] if clause is None else [clause]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "group",
            "type": 8,
            "obj": list(self.obj),
            "cat": self.cat,
            "members": list(self.members),
            "label": self.label,
            "phrase": self.phrase,
        }


@dataclass
class PairClue(Clue):
    """A positive pairing: the two objects of ``p`` belong together (ZebraLogic's
    "X is in the second house" and "the person who drinks milk is Eric").

    Why a clue kind of its own: Banecki's types never state a pairing outright (it
    would resolve a cell directly), but ZebraLogic's found-at and same-house clues do,
    and its style is generated with them (``generator``, ``style="zebralogic"``).
    """

    p: Atom = ((0, 0), (1, 0))

    def __post_init__(self) -> None:
        self.kind, self.type_no = "pair", 9

    def holds(self, sol: Solution) -> bool:
        return atom_holds(sol, self.p)

    def atoms(self) -> list[Atom]:
        return [self.p]

    def objects(self) -> list[Obj]:
        return list(self.p)

    def propagate(self, g: Grid) -> None:
        _set_atom(g, self.p, YES)

    def used_cells(self, g: Grid) -> list[tuple[str, Cell]]:
        return []

    def watched_rows(self, K: int, k: int) -> list[int]:
        return _atom_rows(self.atoms(), K, k)

    def cnf(self, atom):
        clause = _clause([atom(*self.p)])
        return [] if clause is None else [clause]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "pair", "type": 9, "p": _atom_json(self.p)}


def _neg(lit: int | bool) -> int | bool:
    return (not lit) if isinstance(lit, bool) else -lit


def _atom_json(atom: Atom) -> list[list[int]]:
    return [list(atom[0]), list(atom[1])]


def _atom_from(raw: Any) -> Atom:
    a, b = raw
    return ((int(a[0]), int(a[1])), (int(b[0]), int(b[1])))


def _atom_marks(g: Grid, atoms: list[Atom]) -> list[tuple[str, Cell]]:
    out = []
    for a in atoms:
        s = _atom_state(g, a)
        if s != UNKNOWN:
            out.append(("o" if s == YES else "x", atom_cell(a)))
    return out


def _either_box(g: Grid, a: Atom, b: Atom) -> None:
    """At least one of two pairings in the same box holds: a ● on any cell that shares a
    line with both (and is neither) would exclude both, so that cell is an X."""
    ca, cb = atom_cell(a), atom_cell(b)
    if (ca[0], ca[2]) != (cb[0], cb[2]) or ca == cb:
        return
    c1, c2 = ca[0], ca[2]
    for i, j in ((ca[1], cb[3]), (cb[1], ca[3])):
        cell = (c1, i, c2, j)
        if cell != ca and cell != cb:
            g.exclude(*cell)


def clue_from_dict(raw: dict[str, Any], *, k: int, numeric: dict[int, list[Fraction]]) -> Clue:
    """Rebuild a clue from its JSON form (``numeric`` maps category -> values)."""
    kind = raw["kind"]
    if kind == "not":
        obj = (int(raw["obj"][0]), int(raw["obj"][1]))
        return NotClue(obj=obj, others=tuple((int(o[0]), int(o[1])) for o in raw["others"]))
    if kind in ("chain", "arith", "nextto", "pos"):
        rel = raw.get("rel", kind)
        return make_order_clue(
            rel,
            int(raw["cat"]),
            [tuple(o) for o in raw["objs"]],
            k=k,
            values=numeric.get(int(raw["cat"])),
            oper=raw.get("oper", "+"),
            d=raw.get("d", "0"),
        )
    if kind == "group":
        return GroupClue(
            obj=(int(raw["obj"][0]), int(raw["obj"][1])),
            cat=int(raw["cat"]),
            members=tuple(int(m) for m in raw["members"]),
            label=str(raw.get("label", "")),
            phrase=str(raw.get("phrase", "")),
        )
    if kind == "ifthen":
        return IfThenClue(p=_atom_from(raw["p"]), q=_atom_from(raw["q"]), r=_atom_from(raw["r"]))
    if kind == "pair":
        return PairClue(p=_atom_from(raw["p"]))
    if kind == "either":
        return EitherClue(
            p=_atom_from(raw["p"]),
            q=_atom_from(raw["q"]),
            exclusive=bool(raw.get("exclusive", False)),
        )
    raise ValueError(f"unknown clue kind {kind!r}")


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
