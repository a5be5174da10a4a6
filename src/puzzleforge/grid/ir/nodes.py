"""Base IR nodes and the Python operator sugar that builds the other nodes.

Why one module: ``Expr`` and ``SetExpr`` are what rule code touches first (``a & b``,
``x == 3``, ``row.sum_of(color)``); the sugar only forwards to the node classes of the
sibling modules, which all subclass these two. Those modules enter their classes in
``SUGAR`` (grid/sugar.py) when they are imported (the package imports them all), so this
module never imports them: no import cycle (tests/core/test_import_layers.py).
"""

from __future__ import annotations

from typing import Any

from ..domains import Domain, DSLError
from ..sugar import SUGAR

#: Binding strength of the infix operators in printed rules (higher binds tighter).
PREC = {
    "Or": 1,
    "Implies": 0,
    "And": 2,
    "Not": 3,
    "Cmp": 4,
    "Add": 5,
    "Sub": 5,
    "Mul": 6,
    "Div": 6,
}


def wrap(text: str, inner: int, outer: int) -> str:
    """``text`` in parentheses when its operator binds less tightly than the one around it."""
    return f"({text})" if inner < outer else text


def pretty_expr(e: Any, prec: int = 0) -> str:
    """How ``e`` reads in a rule (``Node.pretty``; a non-node by its type's name)."""
    return e.pretty(prec) if isinstance(e, Node) else type(e).__name__


def pretty_set(s: Any) -> str:
    """How the entity set ``s`` reads in a rule (``Node.pretty_set``)."""
    return s.pretty_set() if isinstance(s, Node) else type(s).__name__


def pretty_args(args: Any) -> str:
    """Arguments of a function-like node: nodes printed, plain values by ``repr``."""
    return ", ".join(pretty_expr(a) if isinstance(a, Node) else repr(a) for a in args)


class Node:
    """Base of every IR node (expressions and entity sets).

    Each node class prints itself (``pretty`` as an expression, ``pretty_set`` as an
    entity set; a class that does not is shown by its name): the printer then needs no
    list of every node class, so the IR never imports a printing module that imports it.
    """

    def children(self) -> tuple:
        return ()

    def pretty(self, prec: int = 0) -> str:
        """How the node reads as an expression inside an operator of precedence ``prec``."""
        return type(self).__name__

    def pretty_set(self) -> str:
        """How the node reads as an entity set."""
        return type(self).__name__

    def __iter__(self):
        raise DSLError(
            f"{type(self).__name__} is symbolic and cannot be iterated in Python",
            expected="forall(S, lambda x: ...) or S.sum_of(...) instead of a for loop",
        )


class Expr(Node):
    """A typed expression. ``type`` is 'bool', 'int', 'enum' or 'entity'."""

    type: str = "?"
    kind: str | None = None  # entity kind for 'entity' expressions
    domain: Domain | None = None

    __hash__ = object.__hash__

    # logical sugar ------------------------------------------------------------------
    def __and__(self, other: Any) -> Expr:
        return SUGAR["And"](self, other)

    def __rand__(self, other: Any) -> Expr:
        return SUGAR["And"](other, self)

    def __or__(self, other: Any) -> Expr:
        return SUGAR["Or"](self, other)

    def __ror__(self, other: Any) -> Expr:
        return SUGAR["Or"](other, self)

    def __invert__(self) -> Expr:
        return SUGAR["Not"](self)

    def __rshift__(self, other: Any) -> Expr:
        return SUGAR["Implies"](self, other)

    # comparisons ----------------------------------------------------------------------
    def __eq__(self, other: Any) -> Expr:  # type: ignore[override]
        return SUGAR["Eq"](self, other)

    def __ne__(self, other: Any) -> Expr:  # type: ignore[override]
        return SUGAR["Ne"](self, other)

    def __lt__(self, other: Any) -> Expr:
        return SUGAR["Lt"](self, other)

    def __le__(self, other: Any) -> Expr:
        return SUGAR["Le"](self, other)

    def __gt__(self, other: Any) -> Expr:
        return SUGAR["Gt"](self, other)

    def __ge__(self, other: Any) -> Expr:
        return SUGAR["Ge"](self, other)

    # arithmetic -----------------------------------------------------------------------
    def __add__(self, other: Any) -> Expr:
        return SUGAR["Add"](self, other)

    def __radd__(self, other: Any) -> Expr:
        return SUGAR["Add"](other, self)

    def __sub__(self, other: Any) -> Expr:
        return SUGAR["Sub"](self, other)

    def __rsub__(self, other: Any) -> Expr:
        return SUGAR["Sub"](other, self)

    def __mul__(self, other: Any) -> Expr:
        return SUGAR["Mul"](self, other)

    def __rmul__(self, other: Any) -> Expr:
        return SUGAR["Mul"](other, self)

    def __floordiv__(self, other: Any) -> Expr:
        return SUGAR["Div"](self, other)

    def __rfloordiv__(self, other: Any) -> Expr:
        return SUGAR["Div"](other, self)

    def __truediv__(self, other: Any) -> Expr:
        return SUGAR["Div"](self, other)

    def __neg__(self) -> Expr:
        return SUGAR["Sub"](0, self)

    def __bool__(self) -> bool:
        raise DSLError(
            f"a DSL expression ({short(self)}) was used as a Python truth value",
            expected="&, |, ~, Implies(...) instead of and/or/not/if inside rules",
        )

    def __repr__(self) -> str:
        return pretty_expr(self)


def short(expr: Any) -> str:
    try:
        text = pretty_expr(expr)
    except Exception:  # noqa: BLE001 - only for error messages
        text = type(expr).__name__
    return text if len(text) < 80 else text[:77] + "..."


class SetExpr(Node):
    """A symbolic set of entities; ``elem`` names what it contains ('cell', 'edge',
    'vertex', 'line' for sets of sets such as rows, 'int' for ranges)."""

    elem: str = "?"

    def sum_of(self, key: Any) -> Expr:
        return SUGAR["Sum"](self, key)

    def count_true(self, key: Any) -> Expr:
        return SUGAR["CountTrue"](self, key)

    def all(self, key: Any) -> Expr:
        return SUGAR["ForAll"](self, key)

    def any(self, key: Any) -> Expr:
        return SUGAR["Exists"](self, key)

    def windows(self, k: Any) -> SetExpr:
        return SUGAR["Windows"](self, k)

    def size(self) -> Expr:
        return SUGAR["Card"](self)

    def index(self, e: Any) -> Expr:
        return SUGAR["IndexIn"](self, e)

    def before(self, e: Any) -> SetExpr:
        return SUGAR["Before"](self, e)

    def __or__(self, other: Any) -> SetExpr:
        return SUGAR["Union"](self, other)

    def __sub__(self, other: Any) -> SetExpr:
        return SUGAR["Difference"](self, other)

    def __len__(self) -> int:
        raise DSLError(
            "len() of a symbolic set is unknown until params are bound",
            expected="S.size() (an integer expression)",
        )

    def __repr__(self) -> str:
        return pretty_set(self)
