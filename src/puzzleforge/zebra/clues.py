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

The shared vocabulary (objects, atoms, the ``Clue`` base, atom helpers) is
zebra/cluebase.py; the order clues (types 2, 3, 6, 7) are zebra/orderclue.py; this module
holds the other types and ``clue_from_dict``, and is where the rest of the engine imports
clues from.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cluebase import (
    POS_RELATIONS,
    ZEBRALOGIC_RELATIONS,
    Atom,
    Cell,
    Clue,
    Obj,
    Solution,
    _atom_from,
    _atom_json,
    _atom_marks,
    _atom_rows,
    _atom_state,
    _clause,
    _either_box,
    _neg,
    _row_marks,
    _set_atom,
    atom_holds,
    atoms_compatible,
    entity_of,
    value_in,
)
from .grid import NO, YES, Contradiction, Grid
from .orderclue import OrderClue, make_order_clue, order_tuples

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
        return _row_marks(g, self.obj, self.cat)

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
