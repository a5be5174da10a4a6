"""Linear constraints over Real symbols as Python values, for the exact LP path (spec/lp.py).

Why: in a linear optimisation spec (38-linearprog) building the Z3 terms of the random
formulas and running Z3's Optimize were most of an attempt. While a condition or the
objective is evaluated, each Real symbol is bound to a ``Lin`` leaf; the operators Z3's
ArithRef defines build integer linear forms instead of terms, comparisons build ``Atom``
rows, ``And`` a ``Conj``. What is not an exact image of the Z3 semantics (a float, a
product of two unknowns, a division, ``!=``, ``Or``, truth-testing or printing a form)
raises ``Fallback`` and the caller evaluates with Z3 as before.

A form also remembers which symbols occur in it (``seen``, in the order a left-to-right
walk of the Z3 term would meet them), even with a zero coefficient (``x - x``): Z3 terms
keep such a constant, and the solution lists the constants that occur in the problem.

The generated formula systems (``build_system``) reach these forms without building
terms at all: spec/linsystem.py.
"""
from __future__ import annotations

from functools import partial
from operator import neg
from typing import Any

from .terms import Fallback

__all__ = ["Lin", "Atom", "Conj", "LIN_DISPATCH", "rows_of"]


def _union(a: tuple, b: tuple) -> tuple:
    """``a`` then the items of ``b`` not in it: Z3's first-seen, left-to-right constant order."""
    if a is b or not b:
        return a
    if not a:
        return b
    extra = tuple(p for p in b if p not in a)
    return a + extra if extra else a


class Lin:
    """``coef . x + const`` with integer coefficients over the attempt's n Real symbols."""

    __slots__ = ("coef", "const", "seen", "const_ref", "pos")

    def __init__(self, coef: tuple[int, ...], const: int, seen: tuple, const_ref: Any = None,
                 pos: int | None = None) -> None:
        self.coef = coef
        self.const = const
        self.seen = seen
        self.const_ref = const_ref  # a leaf's Z3 constant (its name: build_system's LaTeX names)
        self.pos = pos  # a leaf's position in the coefficient vector

    # ---- arithmetic (ArithRef's operators) ----
    def _plus(self, o: Any, sign: int, reflected: bool) -> Lin:
        t = type(o)
        if t is Lin:
            if reflected:  # o - self
                return Lin(tuple(b - a for a, b in zip(self.coef, o.coef, strict=False)), o.const - self.const, _union(self.seen, o.seen))
            return Lin(tuple(a + sign * b for a, b in zip(self.coef, o.coef, strict=False)),
                       self.const + sign * o.const, _union(self.seen, o.seen))
        if t is int:
            if reflected and sign < 0:
                return Lin(tuple(-a for a in self.coef), o - self.const, self.seen)
            return Lin(self.coef, self.const + sign * o, self.seen)
        raise Fallback(f"{t.__name__} in a linear form")

    def __add__(self, o: Any) -> Lin:
        return self._plus(o, 1, False)

    def __radd__(self, o: Any) -> Lin:
        return self._plus(o, 1, False)

    def __sub__(self, o: Any) -> Lin:
        return self._plus(o, -1, False)

    def __rsub__(self, o: Any) -> Lin:
        return self._plus(o, -1, True)

    def __mul__(self, o: Any) -> Lin:
        if type(o) is int:
            return Lin(tuple(a * o for a in self.coef), self.const * o, self.seen)
        raise Fallback("product with an unknown or a non-integer")

    __rmul__ = __mul__

    def __neg__(self) -> Lin:
        return Lin(tuple(-a for a in self.coef), -self.const, self.seen)

    def __pos__(self) -> Lin:
        return self

    # ---- comparisons: a row ``coef . x (<=|<|==) rhs`` ----
    def _cmp(self, o: Any, kind: str, flip: bool) -> Atom:
        if type(o) is int:  # d = self - o, without making it
            if flip:  # d >= 0  <=>  -d <= 0
                return Atom(tuple(map(neg, self.coef)), self.const - o, kind, self.seen)
            return Atom(self.coef, o - self.const, kind, self.seen)
        if type(o) is not Lin:
            raise Fallback(f"comparison with a {type(o).__name__}")
        d = self._plus(o, -1, False)
        if flip:  # d >= 0  <=>  -d <= 0
            return Atom(tuple(map(neg, d.coef)), d.const, kind, d.seen)
        return Atom(d.coef, -d.const, kind, d.seen)

    def __le__(self, o: Any) -> Atom:
        return self._cmp(o, "le", False)

    def __lt__(self, o: Any) -> Atom:
        return self._cmp(o, "lt", False)

    def __ge__(self, o: Any) -> Atom:
        return self._cmp(o, "le", True)

    def __gt__(self, o: Any) -> Atom:
        return self._cmp(o, "lt", True)

    def __eq__(self, o: Any) -> Atom:  # type: ignore[override]
        return self._cmp(o, "eq", False)

    def __ne__(self, o: Any) -> Any:
        raise Fallback("!= is not a linear row")

    # ---- what Z3 answers differently ----
    def __bool__(self) -> bool:
        raise Fallback("truth value of a linear form")

    def __hash__(self) -> int:
        raise Fallback("hash of a linear form")

    def __str__(self) -> str:
        raise Fallback("text of a linear form")

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        raise Fallback("text of a linear form")


class Atom:
    """One row ``coef . x (le|lt|eq) rhs`` (a Boolean term in Z3's view)."""

    __slots__ = ("coef", "rhs", "kind", "seen")

    def __init__(self, coef: tuple[int, ...], rhs: int, kind: str, seen: tuple) -> None:
        self.coef = coef
        self.rhs = rhs
        self.kind = kind
        self.seen = seen

    def rows(self) -> list[tuple]:
        return [(self.coef, self.rhs, self.kind)]

    def __bool__(self) -> bool:
        raise Fallback("truth value of a constraint")

    def __hash__(self) -> int:
        raise Fallback("hash of a constraint")

    def __str__(self) -> str:
        raise Fallback("text of a constraint")

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        raise Fallback("text of a constraint")

    def __and__(self, o: Any) -> Any:
        raise Fallback("& on a constraint")

    __or__ = __rand__ = __ror__ = __xor__ = __rxor__ = __and__

    def __invert__(self) -> Any:
        raise Fallback("~ on a constraint")

    def __eq__(self, o: Any) -> Any:
        raise Fallback("== on a constraint")

    __ne__ = __eq__


class Conj(Atom):
    """``And`` of constraints: all its rows hold."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[tuple], seen: tuple) -> None:  # noqa: D107 - rows only
        self.parts = parts
        self.seen = seen

    def rows(self) -> list[tuple]:
        return self.parts


#: a Python ``False`` inside ``And``: the row 0 <= -1, which no point satisfies (its
#: empty coefficient vector is widened to the attempt's width by lpmode)
_FALSE_ROW = ((), -1, "le")


def rows_of(value: Any, n: int) -> list[tuple] | None:
    """The rows of one assertion (an Atom/Conj or a Python bool), or None if not one."""
    if isinstance(value, Atom):
        return value.rows()
    if type(value) is bool:
        return [] if value else [((0,) * n, -1, "le")]
    return None


def lin_and(orig: Any, *args: Any) -> Any:
    """``And`` over constraints (Z3's ``And``: one list argument stands for its items);
    ``orig``, bound by ``dispatch_table``, is Z3's for Python-only arguments."""
    items = args[0] if len(args) == 1 and type(args[0]) in (list, tuple) else args
    for x in items:
        if isinstance(x, (Atom, Lin)):
            break
    else:
        return orig(*args)
    parts: list[tuple] = []
    order: dict = {}  # the items' seen tuples folded with _union: first-seen order
    for x in items:
        if isinstance(x, Atom):
            parts.extend(x.rows())
            for p in x.seen:
                order[p] = None  # a key already present keeps its place
        elif type(x) is bool:
            if not x:
                parts.append(_FALSE_ROW)  # lpmode widens it to the attempt's width
        else:
            raise Fallback(f"And of a {type(x).__name__}")
    return Conj(parts, tuple(order))


def lin_sum(orig: Any, *args: Any) -> Any:
    """``Sum`` over linear forms (Z3's ``Sum``, ``orig``, for Python-only arguments)."""
    items = args[0] if len(args) == 1 and type(args[0]) in (list, tuple) else args
    first = next((x for x in items if type(x) is Lin), None)
    if first is None:
        return orig(*args)
    total = Lin((0,) * len(first.coef), 0, ())
    for x in items:
        total = total + x
    return total


def _refuse(name: str, orig: Any, *args: Any, **kw: Any) -> Any:
    if any(isinstance(x, (Atom, Lin)) for x in _flat(args)):
        raise Fallback(f"{name} over linear rows")
    return orig(*args, **kw)


def _flat(args: tuple) -> list:
    out: list = []
    for a in args:
        if type(a) in (list, tuple):
            out.extend(a)
        else:
            out.append(a)
    return out


def dispatch_table(base: dict[str, Any]) -> dict[str, Any]:
    """Spec-namespace Z3 functions and their versions over linear forms; with Python-only
    arguments each calls ``base``'s function (a space's bound ones, spec/z3space.py)."""
    return {"And": partial(lin_and, base["And"]), "Sum": partial(lin_sum, base["Sum"]),
            **{n: partial(_refuse, n, base[n]) for n in ("Or", "Not", "If", "Implies", "Xor", "Distinct")}}


def _z3_exports() -> dict[str, Any]:
    from .operators import Z3_EXPORTS
    return Z3_EXPORTS


#: The table over z3's own functions (tests; the engine uses its space's, ``dispatch_table``).
LIN_DISPATCH: dict[str, Any] = dispatch_table(_z3_exports())
