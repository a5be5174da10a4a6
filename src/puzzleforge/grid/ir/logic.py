"""Boolean connectives, comparisons (with chained ``0 < x < 3``) and arithmetic nodes.

Why apart: these are the typed operators; each constructor checks its operand types
(Boolean vs integer vs enum vs entity) so domain mistakes fail at rule time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..domains import DSLError, Enum
from ..sugar import register_sugar
from .checks import _chain, _check_pending, _need
from .nodes import PREC, Expr, pretty_expr, short, wrap
from .refs import EnumConst, lift


class And(Expr):
    type = "bool"

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        self.args = tuple(_need(lift(a, "And"), ("bool",), "And") for a in args)

    def children(self) -> tuple:
        return self.args

    def pretty(self, prec: int = 0) -> str:
        if not self.args:
            return "true"
        return wrap(" & ".join(pretty_expr(a, 3) for a in self.args), 2, prec)


class Or(Expr):
    type = "bool"

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        self.args = tuple(_need(lift(a, "Or"), ("bool",), "Or") for a in args)

    def children(self) -> tuple:
        return self.args

    def pretty(self, prec: int = 0) -> str:
        if not self.args:
            return "false"
        return wrap(" | ".join(pretty_expr(a, 2) for a in self.args), 1, prec)


class Not(Expr):
    type = "bool"

    def __init__(self, arg: Any) -> None:
        self.arg = _need(lift(arg, "Not"), ("bool",), "Not")

    def children(self) -> tuple:
        return (self.arg,)

    def pretty(self, prec: int = 0) -> str:
        return "~" + pretty_expr(self.arg, 4)


class Implies(Expr):
    type = "bool"

    def __init__(self, a: Any, b: Any) -> None:
        self.a = _need(lift(a, "Implies"), ("bool",), "Implies")
        self.b = _need(lift(b, "Implies"), ("bool",), "Implies")

    def children(self) -> tuple:
        return (self.a, self.b)

    def pretty(self, prec: int = 0) -> str:
        return wrap(f"{pretty_expr(self.a, 1)} -> {pretty_expr(self.b, 1)}", 0, prec)


class If(Expr):
    """``If(cond, then, else)``: an integer (or Boolean) chosen by a condition."""

    def __init__(self, cond: Any, then: Any, other: Any) -> None:
        self.cond = _need(lift(cond, "If"), ("bool",), "If")
        self.then, self.other = lift(then, "If"), lift(other, "If")
        num = {"bool", "int"}
        if self.then.type in num and self.other.type in num:
            self.type = "bool" if self.then.type == self.other.type == "bool" else "int"
        else:
            raise DSLError("If branches must be integer or Boolean", expected="If(c, int, int)")

    def children(self) -> tuple:
        return (self.cond, self.then, self.other)

    def pretty(self, prec: int = 0) -> str:
        return f"if({pretty_expr(self.cond)}, {pretty_expr(self.then)}, {pretty_expr(self.other)})"


class Cmp(Expr):
    type = "bool"
    op = "?"
    symbol = "?"

    def __init__(self, a: Any, b: Any) -> None:
        a, b = lift(a, self.op), lift(b, self.op)
        _check_pending(a)
        self.a, self.b = a, b
        ordered = self.op in ("Lt", "Le", "Gt", "Ge")
        ta, tb = a.type, b.type
        if ta == "entity" or tb == "entity":
            if not (ta == tb == "entity" and self.op in ("Eq", "Ne")):
                raise DSLError(
                    f"{self.op} compares an entity with a {tb if ta == 'entity' else ta}: "
                    f"{short(a)} vs {short(b)}",
                    expected="two entities (Eq/Ne only)",
                )
        elif ta == "enum" or tb == "enum":
            if ordered:
                raise DSLError(
                    f"{self.op} orders enum values ({short(a)} vs {short(b)})",
                    expected="Eq/Ne on enums",
                )
            if ta != tb:
                other = b if ta == "enum" else a
                raise DSLError(
                    f"domain mismatch: enum compared with {other.type} {short(other)}",
                    expected="an enum value of the same domain",
                )
            for x, y in ((a, b), (b, a)):
                if (
                    isinstance(x, EnumConst)
                    and isinstance(y.domain, Enum)
                    and not y.domain.contains(x.value)
                ):
                    raise DSLError(
                        f"{x.value!r} is not a value of {y.domain!r} ({short(y)})",
                        expected=f"one of {y.domain.values}",
                    )
        elif ordered and (ta == "bool" and tb == "bool"):
            raise DSLError(
                f"{self.op} orders two Booleans ({short(a)}, {short(b)})",
                expected="integers (use Implies for Boolean order)",
            )

    def children(self) -> tuple:
        return (self.a, self.b)

    def __bool__(self) -> bool:
        # Python evaluates ``0 < x < 3`` as ``(0 < x) and (x < 3)``: remember this comparison
        # so the next one sharing the middle operand becomes And(first, second).
        if self.op in ("Lt", "Le", "Gt", "Ge"):
            _chain.pending = self
            return True
        return Expr.__bool__(self)

    def pretty(self, prec: int = 0) -> str:
        return wrap(f"{pretty_expr(self.a, 5)} {self.symbol} {pretty_expr(self.b, 5)}", 4, prec)


def _chained(node: Cmp) -> Expr:
    """``0 < x < 3``: And the pending first comparison with this second one."""
    pending = getattr(_chain, "pending", None)
    if pending is not None:
        _chain.pending = None
        return And(pending, node)
    return node


def _cmp_factory(name: str, symbol: str) -> Callable[..., Expr]:
    cls = type(name, (Cmp,), {"op": name, "symbol": symbol})

    def make(a: Any, b: Any) -> Expr:
        return _chained(cls(a, b))

    make.__name__ = name
    make.__doc__ = f"{name}(a, b): a {symbol} b."
    make.node_class = cls  # type: ignore[attr-defined]
    return make


Eq = _cmp_factory("Eq", "==")
Ne = _cmp_factory("Ne", "!=")
Lt = _cmp_factory("Lt", "<")
Le = _cmp_factory("Le", "<=")
Gt = _cmp_factory("Gt", ">")
Ge = _cmp_factory("Ge", ">=")


class Arith(Expr):
    type = "int"
    op = "?"

    def __init__(self, *args: Any) -> None:
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        self.args = tuple(_need(lift(a, self.op), ("int", "bool"), self.op) for a in args)
        if self.op in ("Sub", "Mul", "Div") and len(self.args) != 2:
            raise DSLError(f"{self.op} takes two arguments, got {len(self.args)}", expected="two")

    def children(self) -> tuple:
        return self.args

    def pretty(self, prec: int = 0) -> str:
        sym = {"Add": " + ", "Sub": " - ", "Mul": " * ", "Div": " // "}[self.op]
        p = PREC[self.op]
        return wrap(
            sym.join(pretty_expr(a, p + (1 if i else 0)) for i, a in enumerate(self.args)), p, prec
        )


class Add(Arith):
    op = "Add"


class Sub(Arith):
    op = "Sub"


class Mul(Arith):
    op = "Mul"


class Div(Arith):
    """Floor division (Python ``//``); the divisor must be a constant after binding."""

    op = "Div"


register_sugar(Add, And, Div, Eq, Ge, Gt, If, Implies, Le, Lt, Mul, Ne, Not, Or, Sub)
