"""Comparisons of ground terms, reified as one literal each.

Why a module of its own: a comparison is where Boolean formulas meet integer terms.
Against a constant it costs nothing (an equality literal of the value map, or an order
literal ``[x >= v]``); between two terms it gets one fresh literal defined through the
order literals of both sides. Both the clue rules and the rules inside formulas go
through here, so the two cases stay one piece of code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ground.nodes import gtype
from .ints import IntRep

if TYPE_CHECKING:
    from .lowering import Lowering

__all__ = ["compare"]

_FLIP = {"Lt": "Gt", "Le": "Ge", "Gt": "Lt", "Ge": "Le", "Eq": "Eq", "Ne": "Ne"}


def compare(low: Lowering, op: str, a: tuple, b: tuple) -> int:
    """The literal of ``a op b`` (``op`` one of Eq Ne Lt Le Gt Ge)."""
    T = low.T
    if op in ("Eq", "Ne") and gtype(a) == "bool" and gtype(b) == "bool":
        x, y = low.lit(a), low.lit(b)
        for u, w in ((x, y), (y, x)):
            if abs(w) == T:  # comparison with a constant: the literal itself
                same = (w == T) == (op == "Eq")
                return u if same else -u
        t = low.new()
        low.emit([-t, -x, y])
        low.emit([-t, x, -y])
        low.emit([t, x, y])
        low.emit([t, -x, -y])
        return t if op == "Eq" else -t
    A, B = low.rep(a), low.rep(b)
    if A.const() is not None and B.const() is None:
        A, B, op = B, A, _FLIP[op]
    k = B.const()
    if k is not None:
        if op == "Eq":
            return A.eq.get(k, -T)
        if op == "Ne":
            return -A.eq.get(k, -T)
        if op == "Lt":
            return -A.ge(k)
        if op == "Le":
            return -A.ge(k + 1)
        if op == "Gt":
            return A.ge(k + 1)
        return A.ge(k)
    if op in ("Eq", "Ne"):
        t = low.new()
        for v, lv in A.eq.items():
            if v in B.eq:
                low.emit([-lv, -B.eq[v], t])
            low.emit([-t, -lv, B.eq.get(v, -T)])
        return t if op == "Eq" else -t
    if op == "Gt":
        return _less_than(low, B, A)
    if op == "Ge":
        return -_less_than(low, A, B)
    if op == "Le":
        return -_less_than(low, B, A)
    return _less_than(low, A, B)


def _less_than(low: Lowering, A: IntRep, B: IntRep) -> int:
    """A fresh literal equivalent to ``A < B``, through the order literals of both."""
    t = low.new()
    for v, lv in A.eq.items():
        low.emit([-t, -lv, B.ge(v + 1)])
    for v, lv in B.eq.items():
        low.emit([t, -lv, A.ge(v)])
    return t
