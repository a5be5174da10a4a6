"""Aggregates (Sum, CountTrue), quantifiers (forall, exists), |S| and index-in-set.

Why apart: these are the nodes that take a lambda; ``_apply`` calls it once with a
symbolic binder and checks what it returned (a rule, not a Python value).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..domains import DSLError
from ..sugar import SUGAR, register_sugar
from .binders import Binder, as_set
from .checks import _need, assert_no_pending
from .nodes import Expr, Node, pretty_expr, pretty_set, wrap
from .refs import Var, lift


def _binder_name(fn: Any, default: str) -> str:
    if isinstance(fn, Node) or not callable(fn):
        return default
    try:
        params = list(inspect.signature(fn).parameters)
        return params[0] if params else default
    except (TypeError, ValueError):
        return default


def _apply(fn: Any, binder: Binder, what: str, want: tuple) -> Expr:
    body: Any  # whatever the user's lambda returns; checked below
    if isinstance(fn, Var):
        body = fn[binder]
    elif isinstance(fn, Expr):
        body = fn  # a constant key, e.g. Sum(S, 1)
    elif callable(fn):
        body = fn(binder)
    else:
        raise DSLError(
            f"{what}: key {fn!r} is neither a lambda nor a Var",
            expected="lambda x: <expression> or a Var",
        )
    assert_no_pending(what)
    if isinstance(body, bool) and not isinstance(body, Expr):
        raise DSLError(
            f"{what}: the lambda returned the Python value {body!r}, not a rule",
            expected="an expression built with DSL operators (& | ~ Implies ==)",
        )
    body = lift(body, what)
    return _need(body, want, what)


class Aggregate(Expr):
    type = "int"
    op = "?"

    def __init__(self, scope: Any, key: Any) -> None:
        self.scope = as_set(scope)
        self.binder = Binder(_binder_name(key, "x"), self.scope.elem)
        want = ("bool",) if self.op == "CountTrue" else ("int", "bool")
        self.body = _apply(key, self.binder, self.op, want)

    def children(self) -> tuple:
        return (self.scope, self.body)

    def pretty(self, prec: int = 0) -> str:
        word = "sum" if self.op == "Sum" else "count"
        return f"({word} {self.binder.name} in {pretty_set(self.scope)}: {pretty_expr(self.body)})"


class Sum(Aggregate):
    """``Sum(S, key=λ)``: sum of an integer (or 0/1 Boolean) over the entities of S."""

    op = "Sum"

    def __init__(self, scope: Any, key: Any = None) -> None:
        super().__init__(scope, key)


class CountTrue(Aggregate):
    """``CountTrue(S, key=λ)`` over an entity set, or ``CountTrue([e1, e2, ...])`` (any
    iterable of Boolean expressions, ``key`` applied to each item when given): the
    number of true ones, as an integer expression."""

    op = "CountTrue"

    def __new__(cls, scope: Any = None, key: Any = None) -> Any:
        if isinstance(scope, (list, tuple)) or inspect.isgenerator(scope):
            add, if_ = SUGAR["Add"], SUGAR["If"]  # logic.py builds on this module's peers
            items = [key(x) if callable(key) else x for x in scope]
            if not items:
                return lift(0, "CountTrue")
            terms = [if_(_need(lift(x, "CountTrue"), ("bool",), "CountTrue"), 1, 0) for x in items]
            return terms[0] if len(terms) == 1 else add(terms)
        return super().__new__(cls)

    def __init__(self, scope: Any, key: Any = None) -> None:
        super().__init__(scope, key)


class Quant(Expr):
    type = "bool"
    op = "?"

    def __init__(self, scope: Any, fn: Any) -> None:
        self.scope = as_set(scope)
        self.binder = Binder(_binder_name(fn, "x"), self.scope.elem)
        self.body = _apply(fn, self.binder, self.op.lower(), ("bool",))

    def children(self) -> tuple:
        return (self.scope, self.body)

    def pretty(self, prec: int = 0) -> str:
        word = "forall" if self.op == "ForAll" else "exists"
        text = f"{word} {self.binder.name} in {pretty_set(self.scope)}: {pretty_expr(self.body)}"
        return wrap(text, 0, prec)


class ForAll(Quant):
    op = "ForAll"


class Exists(Quant):
    op = "Exists"


def forall(scope: Any, fn: Callable[[Any], Any]) -> Expr:
    """``forall(S, λ x: body)``: body holds for every element of S."""
    return ForAll(scope, fn)


def exists(scope: Any, fn: Callable[[Any], Any]) -> Expr:
    return Exists(scope, fn)


class Card(Expr):
    """|S| as an integer (known once params are bound)."""

    type = "int"

    def __init__(self, scope: Any) -> None:
        self.scope = as_set(scope)

    def children(self) -> tuple:
        return (self.scope,)

    def pretty(self, prec: int = 0) -> str:
        return f"|{pretty_set(self.scope)}|"


class IndexIn(Expr):
    """Position (0-based) of an entity inside an ordered set (a row, a sight line)."""

    type = "int"

    def __init__(self, scope: Any, entity: Any) -> None:
        self.scope = as_set(scope)
        self.entity = _need(lift(entity), ("entity",), "index")

    def children(self) -> tuple:
        return (self.scope, self.entity)

    def pretty(self, prec: int = 0) -> str:
        return f"{pretty_set(self.scope)}.index({pretty_expr(self.entity)})"


register_sugar(Card, CountTrue, Exists, ForAll, IndexIn, Sum)
