"""Symbolic binders of quantifiers/aggregates and the entity expressions built on them.

Why apart: a binder is the one expression that stands for an entity (or a line of
entities) before any size is known; ``.r``/``.c``, ``grid.cell(i, j)`` and the set a
line binder denotes are all defined in terms of it.
"""

from __future__ import annotations

from typing import Any

from ..domains import DSLError
from .nodes import Expr, Node, SetExpr, pretty_args, pretty_expr, short


class Binder(Expr):
    """The symbolic element a quantifier or aggregate ranges over."""

    def __init__(self, name: str, elem: str) -> None:
        self.name = name
        self.elem = elem
        if elem == "int":
            self.type = "int"
        else:
            self.type = "entity"
            self.kind = elem

    # a binder over lines (rows, windows...) is itself an entity set
    def _set(self) -> SetExpr:
        if not self.elem.startswith("line"):
            raise DSLError(
                f"binder '{self.name}' ranges over {self.elem}s, not over sets",
                expected="set operations on a row/column/window binder",
            )
        return BinderSet(self)

    def sum_of(self, key: Any) -> Expr:
        return self._set().sum_of(key)

    def count_true(self, key: Any) -> Expr:
        return self._set().count_true(key)

    def all(self, key: Any) -> Expr:
        return self._set().all(key)

    def any(self, key: Any) -> Expr:
        return self._set().any(key)

    def windows(self, k: Any) -> SetExpr:
        return self._set().windows(k)

    def size(self) -> Expr:
        return self._set().size()

    def index(self, e: Any) -> Expr:
        return self._set().index(e)

    def before(self, e: Any) -> SetExpr:
        return self._set().before(e)

    @property
    def r(self) -> Expr:
        return Attr(self, "r")

    @property
    def c(self) -> Expr:
        return Attr(self, "c")

    def pretty(self, prec: int = 0) -> str:
        return self.name


class EntityFn(Expr):
    """An entity computed from others: ``grid.cell(i, j)``, the cells beside an edge..."""

    type = "entity"

    def __init__(self, fn: str, grid: Any, args: tuple, kind: str) -> None:
        self.fn, self.grid, self.args, self.kind = fn, grid, args, kind

    def children(self) -> tuple:
        return tuple(a for a in self.args if isinstance(a, Node))

    @property
    def r(self) -> Expr:
        return Attr(self, "r")

    @property
    def c(self) -> Expr:
        return Attr(self, "c")

    def pretty(self, prec: int = 0) -> str:
        if self.fn == "entity":
            return repr(self.args[0])
        return f"{self.fn}({pretty_args(self.args)})"


class Attr(Expr):
    """Row (``.r``) or column (``.c``) index of a cell or vertex."""

    type = "int"

    def __init__(self, entity: Expr, name: str) -> None:
        if entity.type != "entity":
            raise DSLError(f".{name} of a non-entity {short(entity)}", expected="a cell or vertex")
        self.entity, self.name = entity, name

    def children(self) -> tuple:
        return (self.entity,)

    def pretty(self, prec: int = 0) -> str:
        return f"{pretty_expr(self.entity)}.{self.name}"


class BinderSet(SetExpr):
    def __init__(self, binder: Binder) -> None:
        self.binder = binder
        self.elem = binder.elem.split(":", 1)[1] if ":" in binder.elem else "cell"

    def children(self) -> tuple:
        return (self.binder,)

    def pretty_set(self) -> str:
        return self.binder.name


def as_set(value: Any) -> SetExpr:
    if isinstance(value, SetExpr):
        return value
    if isinstance(value, Binder):
        return value._set()
    raise DSLError(
        f"{value!r} is not an entity set",
        expected="grid.C, grid.rows, a row binder, windows(k), ...",
    )
