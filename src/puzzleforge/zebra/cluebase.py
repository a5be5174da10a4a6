"""What every zebra clue shares: objects, pairings (atoms), the ``Clue`` base and atom helpers.

Why a module of its own (split from zebra/clues.py): the clue types (zebra/clues.py) and
the order clues (zebra/orderclue.py) are built on the same vocabulary. An object is
``(category, index)``, an atom a pairing of two objects, a solution ``sol[c][e]`` the
index of the object of category c owned by entity e (object e of category 0); the
``Clue`` base names what each type answers (truth, propagation, contradiction, critical
squares, CNF), and the helpers read and set atoms on the deduction grid.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .grid import UNKNOWN, YES, Contradiction, Grid, norm_cell

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


def _row_marks(g: Grid, obj: Obj, cat: int) -> list[tuple[str, Cell]]:
    """The decided cells between ``obj`` and the objects of category ``cat`` (● or X)."""
    c, i = obj
    out = []
    for v in range(g.k):
        state = g.state(c, i, cat, v)
        if state != UNKNOWN:
            out.append(("o" if state == YES else "x", norm_cell(c, i, cat, v)))
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
