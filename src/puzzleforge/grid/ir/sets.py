"""Symbolic entity sets (grid sets, windows, unions, ranges...) and the IR walk.

Why apart: sets are resolved by the grounder once Params are bound; here they only
record what they mean and which kind of element they hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..domains import DSLError
from ..sugar import register_sugar
from .binders import EntityFn, as_set
from .checks import _need
from .nodes import Node, SetExpr, pretty_args, pretty_expr, pretty_set
from .refs import VarRef, lift


class GridSet(SetExpr):
    """A set the grid computes: ``fn`` names it (C, E, V, rows, cols, row, col, boxes...)."""

    def __init__(self, grid: Any, fn: str, args: tuple = (), elem: str = "cell") -> None:
        self.grid, self.fn, self.args, self.elem = grid, fn, tuple(args), elem

    def children(self) -> tuple:
        return tuple(a for a in self.args if isinstance(a, Node))

    def pretty_set(self) -> str:
        if not self.args:
            return self.fn
        if self.fn == "sight":
            cell, b, body = self.args
            return f"sight({pretty_expr(cell)}, until {b.name}: {pretty_expr(body)})"
        return f"{self.fn}({pretty_args(self.args)})"


class Windows(SetExpr):
    elem = "line"

    def __init__(self, base: Any, k: Any) -> None:
        self.base = as_set(base)
        self.k = _need(lift(k), ("int",), "windows")

    def children(self) -> tuple:
        return (self.base, self.k)

    def pretty_set(self) -> str:
        return f"{pretty_set(self.base)}.windows({pretty_expr(self.k)})"


class Union(SetExpr):
    def __init__(self, left: Any, right: Any) -> None:
        self.left, self.right = as_set(left), as_set(right)
        if self.left.elem != self.right.elem:
            raise DSLError(
                f"union of {self.left.elem}s and {self.right.elem}s",
                expected="sets of the same kind (use a ClueSpec per kind otherwise)",
            )
        self.elem = self.left.elem

    def children(self) -> tuple:
        return (self.left, self.right)

    def pretty_set(self) -> str:
        return f"({pretty_set(self.left)} | {pretty_set(self.right)})"


class Difference(SetExpr):
    def __init__(self, left: Any, right: Any) -> None:
        self.left, self.right = as_set(left), as_set(right)
        self.elem = self.left.elem

    def children(self) -> tuple:
        return (self.left, self.right)

    def pretty_set(self) -> str:
        return f"({pretty_set(self.left)} - {pretty_set(self.right)})"


class Range(SetExpr):
    """Integers ``lo <= i < hi`` (bounds may be Param expressions)."""

    elem = "int"

    def __init__(self, lo: Any, hi: Any = None) -> None:
        if hi is None:
            lo, hi = 0, lo
        self.lo = _need(lift(lo), ("int",), "Range")
        self.hi = _need(lift(hi), ("int",), "Range")

    def children(self) -> tuple:
        return (self.lo, self.hi)

    def pretty_set(self) -> str:
        return f"range({pretty_expr(self.lo)}, {pretty_expr(self.hi)})"


class Before(SetExpr):
    """The entities of an ordered set that come before ``entity`` in it."""

    def __init__(self, scope: Any, entity: Any) -> None:
        self.scope = as_set(scope)
        self.entity = _need(lift(entity), ("entity",), "before")
        self.elem = self.scope.elem

    def children(self) -> tuple:
        return (self.scope, self.entity)

    def pretty_set(self) -> str:
        return f"{pretty_set(self.scope)}.before({pretty_expr(self.entity)})"


def walk(node: Any) -> Iterable[Node]:
    """Every node under ``node`` (pre-order), including sets and grid size params."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (GridSet, EntityFn)) and n.grid is not None:
            stack.extend(x for x in (n.grid.nR, n.grid.nC) if isinstance(x, Node))
        if isinstance(n, VarRef) and n.var.over is not None:
            stack.append(n.var.over)
        stack.extend(reversed(n.children()))


register_sugar(Before, Difference, Union, Windows)
