"""DSL primitives beyond the seed: graph rules (connected, single loop, islands) and run
patterns.

Why separate from ir.py: none of these lowers to sums or quantifiers; the graph rules are
enforced lazily by the engine (cut clauses) and ``runs_match`` by an automaton, each with
its own SMT-LIB form.

>>> from puzzleforge.grid import Grid, Param, Bool, Const, forall
>>> from puzzleforge.grid.domains import IntSeq
>>> n = Param("n", int); g = Grid(n, n)
>>> fill = Bool.over(g.C, name="fill")
>>> runs = Const(IntSeq, over=g.rows, name="runs")
>>> forall(g.rows, lambda L: runs_match(L, fill, runs[L])).type
'bool'
"""

from __future__ import annotations

from typing import Any

from .domains import DSLError
from .ir import Binder, Expr, _apply, _binder_name, as_set, lift, short
from .ir.nodes import pretty_expr, pretty_set

__all__ = [
    "Runs",
    "runs_match",
    "run_automaton",
    "Connected",
    "SingleLoop",
    "Islands",
    "connected",
    "single_loop",
    "islands",
]


class Connected(Expr):
    """The entities of S whose key is true form one orthogonally connected group
    (an empty group counts as connected). Only allowed as a top-level rule."""

    type = "bool"
    op = "Connected"

    def __init__(self, scope: Any, key: Any) -> None:
        self.scope = as_set(scope)
        self.binder = Binder(_binder_name(key, "x"), self.scope.elem)
        self.body = _apply(key, self.binder, "connected", ("bool",))

    def children(self) -> tuple:
        return (self.scope, self.body)

    def pretty(self, prec: int = 0) -> str:
        return (
            f"connected({self.binder.name} in {pretty_set(self.scope)}: {pretty_expr(self.body)})"
        )


class SingleLoop(Expr):
    """The edges of S whose key is true form exactly one closed loop (degree 0 or 2 at
    every node, one component, at least one edge). ``nodes`` is 'vertices' (Slitherlink:
    edges join grid vertices) or 'cells' (Masyu: inner edges join the two cells beside them)."""

    type = "bool"
    op = "SingleLoop"

    def __init__(self, scope: Any, key: Any, nodes: str = "vertices") -> None:
        if nodes not in ("vertices", "cells"):
            raise DSLError(f"single_loop nodes={nodes!r}", expected="'vertices' or 'cells'")
        self.scope = as_set(scope)
        self.nodes = nodes
        self.binder = Binder(_binder_name(key, "e"), self.scope.elem)
        self.body = _apply(key, self.binder, "single_loop", ("bool",))

    def children(self) -> tuple:
        return (self.scope, self.body)

    def pretty(self, prec: int = 0) -> str:
        return (
            f"single_loop({self.binder.name} in {pretty_set(self.scope)} over {self.nodes}: "
            f"{pretty_expr(self.body)})"
        )


class Islands(Expr):
    """The entities of S whose key is true split into orthogonally connected groups; each
    group holds exactly one clue of the (closed) ClueSpec ``spec``, whose value is the size
    of the group (Nurikabe's white islands). Only allowed as a top-level rule."""

    type = "bool"
    op = "Islands"

    def __init__(self, scope: Any, key: Any, spec: Any) -> None:
        self.scope = as_set(scope)
        self.spec = spec
        if not getattr(spec, "closed", False):
            raise DSLError(
                "islands(...) needs a closed ClueSpec (clue presence must be known)",
                expected="ClueSpec(..., closed=True)",
            )
        self.binder = Binder(_binder_name(key, "x"), self.scope.elem)
        self.body = _apply(key, self.binder, "islands", ("bool",))

    def children(self) -> tuple:
        return (self.scope, self.body)

    def pretty(self, prec: int = 0) -> str:
        return (
            f"islands({self.binder.name} in {pretty_set(self.scope)}: {pretty_expr(self.body)}; "
            f"one {self.spec.name} clue per island = its size)"
        )


def islands(scope: Any, key: Any, spec: Any) -> Expr:
    return Islands(scope, key, spec)


def connected(scope: Any, key: Any) -> Expr:
    return Connected(scope, key)


def single_loop(scope: Any, key: Any, nodes: str = "vertices") -> Expr:
    return SingleLoop(scope, key, nodes)


class Runs(Expr):
    """The true entries of the ordered set ``scope`` form blocks of consecutive trues
    whose lengths, in order, are the tuple ``pattern`` (Nonogram lines)."""

    type = "bool"
    op = "Runs"

    def __init__(self, scope: Any, key: Any, pattern: Any) -> None:
        self.scope = as_set(scope)
        self.binder = Binder(_binder_name(key, "x"), self.scope.elem)
        self.body = _apply(key, self.binder, "runs_match", ("bool",))
        self.pattern = lift(pattern, "runs_match")
        if self.pattern.type != "seq":
            raise DSLError(
                f"runs_match pattern {short(self.pattern)} is a {self.pattern.type}",
                expected="an IntSeq Const (tuple of run lengths)",
            )

    def children(self) -> tuple:
        return (self.scope, self.body, self.pattern)

    def pretty(self, prec: int = 0) -> str:
        return (
            f"runs({self.binder.name} in {pretty_set(self.scope)}: {pretty_expr(self.body)}) == "
            f"{pretty_expr(self.pattern)}"
        )


def runs_match(scope: Any, key: Any, pattern: Any) -> Expr:
    return Runs(scope, key, pattern)


def run_automaton(pattern: tuple) -> tuple[int, Any]:
    """(final state, delta) of the automaton for 0* 1^a1 0+ 1^a2 ... 0*.

    State j = characters matched of w = 1^a1 0 1^a2 0 ... 1^ak; delta(j, bit) -> state
    or None (dead).

    >>> L, d = run_automaton((2, 1))
    >>> s = 0
    >>> for b in (0, 1, 1, 0, 0, 1, 0):
    ...     s = d(s, b)
    >>> s == L
    True
    """
    w: list[int] = []
    for i, a in enumerate(pattern):
        if i:
            w.append(0)
        w.extend([1] * a)
    L = len(w)

    def delta(j: int, x: int) -> int | None:
        if j == L:
            return L if x == 0 else None
        if j == 0:
            if x == 0:
                return 0
            return 1 if w[0] == 1 else None
        if w[j] == x:
            return j + 1
        if x == 0 and w[j - 1] == 0:
            return j  # more zeros inside a gap
        return None

    return L, delta
