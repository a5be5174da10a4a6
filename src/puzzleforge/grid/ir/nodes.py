"""Base IR nodes and the Python operator sugar that builds the other nodes.

Why one module: ``Expr`` and ``SetExpr`` are what rule code touches first (``a & b``,
``x == 3``, ``row.sum_of(color)``); the sugar only forwards to the node classes of the
sibling modules, which all subclass these two, so those are imported at the bottom.
"""
from __future__ import annotations

from typing import Any

from ..domains import Domain, DSLError


class Node:
    """Base of every IR node (expressions and entity sets)."""

    def children(self) -> tuple:
        return ()

    def __iter__(self):
        raise DSLError(f"{type(self).__name__} is symbolic and cannot be iterated in Python",
                       expected="forall(S, lambda x: ...) or S.sum_of(...) instead of a for loop")


class Expr(Node):
    """A typed expression. ``type`` is 'bool', 'int', 'enum' or 'entity'."""

    type: str = "?"
    kind: str | None = None          # entity kind for 'entity' expressions
    domain: Domain | None = None

    __hash__ = object.__hash__

    # logical sugar ------------------------------------------------------------------
    def __and__(self, other: Any) -> "Expr":
        return And(self, other)

    def __rand__(self, other: Any) -> "Expr":
        return And(other, self)

    def __or__(self, other: Any) -> "Expr":
        return Or(self, other)

    def __ror__(self, other: Any) -> "Expr":
        return Or(other, self)

    def __invert__(self) -> "Expr":
        return Not(self)

    def __rshift__(self, other: Any) -> "Expr":
        return Implies(self, other)

    # comparisons ----------------------------------------------------------------------
    def __eq__(self, other: Any) -> "Expr":  # type: ignore[override]
        return Eq(self, other)

    def __ne__(self, other: Any) -> "Expr":  # type: ignore[override]
        return Ne(self, other)

    def __lt__(self, other: Any) -> "Expr":
        return Lt(self, other)

    def __le__(self, other: Any) -> "Expr":
        return Le(self, other)

    def __gt__(self, other: Any) -> "Expr":
        return Gt(self, other)

    def __ge__(self, other: Any) -> "Expr":
        return Ge(self, other)

    # arithmetic -----------------------------------------------------------------------
    def __add__(self, other: Any) -> "Expr":
        return Add(self, other)

    def __radd__(self, other: Any) -> "Expr":
        return Add(other, self)

    def __sub__(self, other: Any) -> "Expr":
        return Sub(self, other)

    def __rsub__(self, other: Any) -> "Expr":
        return Sub(other, self)

    def __mul__(self, other: Any) -> "Expr":
        return Mul(self, other)

    def __rmul__(self, other: Any) -> "Expr":
        return Mul(other, self)

    def __floordiv__(self, other: Any) -> "Expr":
        return Div(self, other)

    def __rfloordiv__(self, other: Any) -> "Expr":
        return Div(other, self)

    def __truediv__(self, other: Any) -> "Expr":
        return Div(self, other)

    def __neg__(self) -> "Expr":
        return Sub(0, self)

    def __bool__(self) -> bool:
        raise DSLError(
            f"a DSL expression ({short(self)}) was used as a Python truth value",
            expected="&, |, ~, Implies(...) instead of and/or/not/if inside rules")

    def __repr__(self) -> str:
        from ..pretty import pretty_expr

        return pretty_expr(self)


def short(expr: Any) -> str:
    try:
        from ..pretty import pretty_expr

        text = pretty_expr(expr)
    except Exception:  # noqa: BLE001 - only for error messages
        text = type(expr).__name__
    return text if len(text) < 80 else text[:77] + "..."


class SetExpr(Node):
    """A symbolic set of entities; ``elem`` names what it contains ('cell', 'edge',
    'vertex', 'line' for sets of sets such as rows, 'int' for ranges)."""

    elem: str = "?"

    def sum_of(self, key: Any) -> Expr:
        return Sum(self, key)

    def count_true(self, key: Any) -> Expr:
        return CountTrue(self, key)

    def all(self, key: Any) -> Expr:
        return ForAll(self, key)

    def any(self, key: Any) -> Expr:
        return Exists(self, key)

    def windows(self, k: Any) -> "SetExpr":
        return Windows(self, k)

    def size(self) -> Expr:
        return Card(self)

    def index(self, e: Any) -> Expr:
        return IndexIn(self, e)

    def before(self, e: Any) -> "SetExpr":
        return Before(self, e)

    def __or__(self, other: Any) -> "SetExpr":
        return Union(self, other)

    def __sub__(self, other: Any) -> "SetExpr":
        return Difference(self, other)

    def __len__(self) -> int:
        raise DSLError("len() of a symbolic set is unknown until params are bound",
                       expected="S.size() (an integer expression)")

    def __repr__(self) -> str:
        from ..pretty import pretty_set

        return pretty_set(self)


# The sugar above forwards to node classes that subclass Expr/SetExpr, so they can only
# be imported once both base classes exist (the package imports this module first).
from .aggregates import Card, CountTrue, Exists, ForAll, IndexIn, Sum  # noqa: E402
from .logic import Add, And, Div, Eq, Ge, Gt, Implies, Le, Lt, Mul, Ne, Not, Or, Sub  # noqa: E402
from .sets import Before, Difference, Union, Windows  # noqa: E402
