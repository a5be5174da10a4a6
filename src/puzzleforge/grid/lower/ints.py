"""Integer and enum terms as value maps: ``{value: literal}``, exactly one true.

Why a module of its own: every arithmetic node of the ground tree (sums, products,
division by a constant, if-then-else) becomes such a map, and comparisons, counts and
clue rules only ever read the maps (equality literals directly, ``[x >= v]`` order
literals derived on demand by ``IntRep.ge``). Keeping the one representation and all the
ways to build it together is what makes the two integer encodings interchangeable:
``"onehot"`` declares the equality literals, ``"order"`` declares ``>=`` literals and
derives the equalities, and nothing downstream can tell which one ran.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ...core.solver.encodings import at_most_k
from ..domains import DSLError
from ..ground.nodes import gtype

if TYPE_CHECKING:
    from .lowering import Lowering

__all__ = ["INT_ENCODINGS", "IntRep", "declare_int", "int_term"]

INT_ENCODINGS = ("onehot", "order")


class IntRep:
    """A finite integer/enum term: ``eq[value]`` literals, exactly one true."""

    __slots__ = ("values", "eq", "_ge", "low")

    def __init__(self, low: Lowering, eq: dict) -> None:
        self.low = low
        self.eq = eq
        try:
            self.values = sorted(eq)
        except TypeError:  # enum strings and ints mixed: keep declaration order
            self.values = list(eq)
        self._ge: dict = {}

    def const(self) -> Any:
        """The value if this term is constant, else None."""
        if len(self.eq) == 1:
            return next(iter(self.eq))
        return None

    def ge(self, v: int) -> int:
        """Literal of ``term >= v`` (defined by a chain over the equality literals)."""
        T = self.low.T
        vals = self.values
        if v <= vals[0]:
            return T
        if v > vals[-1]:
            return -T
        # smallest value >= v
        i = next(i for i, x in enumerate(vals) if x >= v)
        key = vals[i]
        lit = self._ge.get(key)
        if lit is not None:
            return lit
        # build from the top down: ge(v_i) <-> eq(v_i) | ge(v_{i+1})
        nxt = -T
        for j in range(len(vals) - 1, 0, -1):
            x = vals[j]
            cur = self._ge.get(x)
            if cur is None:
                cur = self.low.new()
                e = self.eq[x]
                self.low.emit([-cur, e, nxt])
                self.low.emit([cur, -e])
                self.low.emit([cur, -nxt])
                self._ge[x] = cur
            nxt = cur
            if j <= i:
                break
        return self._ge[key]


def declare_int(low: Lowering, key: tuple, values: list) -> IntRep:
    """The value map of one Int/Enum variable instance, in ``low.int_encoding``."""
    if len(values) == 1:
        return IntRep(low, {values[0]: low.T})
    ordered = all(isinstance(v, int) for v in values)
    if low.int_encoding == "onehot" or not ordered:
        eq = {v: low.pool.id(("var", key, v)) for v in values}
        lits = list(eq.values())
        low.emit(lits)
        if len(lits) <= 12:  # pairwise: fastest propagation for the short lists of grid puzzles
            for i in range(len(lits)):
                for j in range(i + 1, len(lits)):
                    low.emit([-lits[i], -lits[j]])
        else:
            for c in at_most_k(lits, 1, low.pool, "seqcounter"):
                low.emit(c)
        return IntRep(low, eq)
    # order encoding: primary ge literals, equality literals derived
    vals = sorted(values)
    ge = {v: low.pool.id(("ge", key, v)) for v in vals[1:]}
    for a, b in pairwise(vals[1:]):
        low.emit([-ge[b], ge[a]])
    eq = {}
    for i, v in enumerate(vals):
        lo = ge[v] if i > 0 else low.T
        hi = ge[vals[i + 1]] if i + 1 < len(vals) else -low.T
        e = low.pool.id(("var", key, v))
        low.emit([-e, lo])
        low.emit([-e, -hi])
        low.emit([e, -lo, hi])
        eq[v] = e
    rep = IntRep(low, eq)
    rep._ge.update(ge)
    return rep


def _const(low: Lowering, v: Any) -> IntRep:
    return IntRep(low, {v: low.T})


def int_term(low: Lowering, g: tuple) -> IntRep:
    """The value map of ground term ``g`` (uncached: ``Lowering.rep`` caches it)."""
    tag = g[0]
    if tag == "c":
        v = g[1]
        return _const(low, int(v) if isinstance(v, bool) else v)
    if gtype(g) == "bool":
        lit = low.lit(g)
        if lit == low.T:
            return _const(low, 1)
        if lit == -low.T:
            return _const(low, 0)
        return IntRep(low, {0: -lit, 1: lit})
    if tag == "v":
        return low.reps[(id(g[1]), g[2])]
    if tag == "add":
        reps = [low.rep(a) for a in g[1]]
        while len(reps) > 1:  # balanced tree = totalizer shape
            nxt = [_add_pair(low, reps[i], reps[i + 1]) for i in range(0, len(reps) - 1, 2)]
            if len(reps) % 2:
                nxt.append(reps[-1])
            reps = nxt
        return reps[0]
    if tag == "mul":
        a, b = low.rep(g[1]), low.rep(g[2])
        return _combine(low, a, b, lambda x, y: x * y)
    if tag == "div":
        a, d = low.rep(g[1]), g[2][1]
        return _map_values(low, a, lambda x: x // d)
    if tag == "ite":
        c = low.lit(g[1])
        a, b = low.rep(g[2]), low.rep(g[3])
        values = sorted(set(a.eq) | set(b.eq))
        eq = {z: low.new() for z in values}
        for z, r in eq.items():
            az, bz = a.eq.get(z, -low.T), b.eq.get(z, -low.T)
            low.emit([-c, -az, r])
            low.emit([c, -bz, r])
            low.emit([-r, -c, az])
            low.emit([-r, c, bz])
        return IntRep(low, eq)
    raise DSLError(f"cannot lower {tag} as an integer term")


def _map_values(low: Lowering, a: IntRep, f: Callable[[Any], Any]) -> IntRep:
    """``f(a)`` for a function of one term: values that map together share a literal."""
    groups: dict = {}
    for v, lit in a.eq.items():
        groups.setdefault(f(v), []).append(lit)
    eq = {}
    for z, lits in groups.items():
        if len(lits) == 1:
            eq[z] = lits[0]
        else:
            r = low.new()
            low.emit([-r] + lits)
            for lit in lits:
                low.emit([r, -lit])
            eq[z] = r
    return IntRep(low, eq)


def _add_pair(low: Lowering, a: IntRep, b: IntRep) -> IntRep:
    """``a + b``, exact in both directions (each sum value implies a pair of addends)."""
    for x, y in ((a, b), (b, a)):
        k = x.const()
        if k is not None:
            return IntRep(low, {v + k: lit for v, lit in y.eq.items()})
    values = sorted({x + y for x in a.eq for y in b.eq})
    eq = {z: low.new() for z in values}
    for x, lx in a.eq.items():
        for y, ly in b.eq.items():
            low.emit([-lx, -ly, eq[x + y]])
    for z, r in eq.items():
        for x, lx in a.eq.items():
            low.emit([-r, -lx, b.eq.get(z - x, -low.T)])
        for y, ly in b.eq.items():
            low.emit([-r, -ly, a.eq.get(z - y, -low.T)])
    return IntRep(low, eq)


def _combine(low: Lowering, a: IntRep, b: IntRep, f: Callable[[Any, Any], Any]) -> IntRep:
    """``f(a, b)`` by its table of value pairs (a constant side maps the other one)."""
    ka, kb = a.const(), b.const()
    if ka is not None:
        return _map_values(low, b, lambda v: f(ka, v))
    if kb is not None:
        return _map_values(low, a, lambda v: f(v, kb))
    table: dict = {}
    for x, lx in a.eq.items():
        for y, ly in b.eq.items():
            table.setdefault(f(x, y), []).append((lx, ly))
    eq = {z: low.new() for z in table}
    for z, pairs in table.items():
        for lx, ly in pairs:
            low.emit([-lx, -ly, eq[z]])
    lits = list(eq.values())
    for c in (
        at_most_k(lits, 1, low.pool, "seqcounter")
        if len(lits) > 6
        else [[-lits[i], -lits[j]] for i in range(len(lits)) for j in range(i + 1, len(lits))]
    ):
        low.emit(c)
    return IntRep(low, eq)
