"""Z3 constraints -> a system of polynomial equations with rational coefficients (or None).

Why: spec/realsolve.py decides such systems exactly (Groebner basis, real root count),
far cheaper than Z3's nonlinear procedures, whose "is there another solution?" check on
a handful of cubic equations can run for many seconds and still end undecided. This
module is the shape test and the translation: it accepts a conjunction of equalities
between polynomial terms (``+ - *``, ``^`` by a small natural number, ``/`` by a number,
``to_real``) over Int/Real constants, and nothing else; anything it does not model gives
None and the Z3 backends decide as before.

A polynomial is a dict from exponent tuples (one entry per constant of the projection)
to ``Fraction`` coefficients, never floats.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import z3

__all__ = ["Poly", "polynomial_system", "split_equations", "MAX_DEGREE", "MAX_TERMS"]

Poly = dict[tuple[int, ...], Fraction]

#: Largest total degree of an expanded equation (a bound on the algebra that follows).
MAX_DEGREE = 12
#: Most terms of an expanded polynomial (the same).
MAX_TERMS = 400


class _NotPolynomial(Exception):
    """The constraints are outside the shape this module translates."""


def _mul(p: Poly, q: Poly) -> Poly:
    out: Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = tuple(a + b for a, b in zip(m1, m2, strict=True))
            c = out.get(m, Fraction(0)) + c1 * c2
            if c:
                out[m] = c
            else:
                out.pop(m, None)
    if len(out) > MAX_TERMS or any(sum(m) > MAX_DEGREE for m in out):
        raise _NotPolynomial()
    return out


def _add(p: Poly, q: Poly, sign: int = 1) -> Poly:
    out = dict(p)
    for m, c in q.items():
        v = out.get(m, Fraction(0)) + sign * c
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    if len(out) > MAX_TERMS:
        raise _NotPolynomial()
    return out


def _numeral(e: Any) -> Fraction | None:
    if z3.is_int_value(e):
        return Fraction(e.as_long())
    if z3.is_rational_value(e):
        return Fraction(e.numerator_as_long(), e.denominator_as_long())
    return None


class _Translator:
    def __init__(self, consts: list) -> None:
        self.index = {c.get_id(): i for i, c in enumerate(consts)}
        self.n = len(consts)
        self.memo: dict[int, Poly] = {}

    def const(self, value: Fraction) -> Poly:
        return {(0,) * self.n: value} if value else {}

    def poly(self, e: Any) -> Poly:
        key = e.get_id()
        got = self.memo.get(key)
        if got is None:
            got = self._poly(e)
            self.memo[key] = got
        return got

    def _poly(self, e: Any) -> Poly:
        v = _numeral(e)
        if v is not None:
            return self.const(v)
        if not z3.is_app(e):
            raise _NotPolynomial()
        i = self.index.get(e.get_id())
        if i is not None:
            m = [0] * self.n
            m[i] = 1
            return {tuple(m): Fraction(1)}
        k = e.decl().kind()
        args = e.children()
        if k == z3.Z3_OP_ADD:
            out: Poly = {}
            for a in args:
                out = _add(out, self.poly(a))
            return out
        if k == z3.Z3_OP_SUB:
            out = self.poly(args[0])
            for a in args[1:]:
                out = _add(out, self.poly(a), -1)
            return out
        if k == z3.Z3_OP_UMINUS:
            return {m: -c for m, c in self.poly(args[0]).items()}
        if k == z3.Z3_OP_MUL:
            out = self.const(Fraction(1))
            for a in args:
                out = _mul(out, self.poly(a))
            return out
        if k == z3.Z3_OP_POWER:
            exp = _numeral(args[1])
            if exp is None or exp.denominator != 1 or not 0 <= exp <= MAX_DEGREE:
                raise _NotPolynomial()
            base = self.poly(args[0])
            out = self.const(Fraction(1))
            for _ in range(int(exp)):
                out = _mul(out, base)
            return out
        if k == z3.Z3_OP_DIV:
            d = _numeral(args[1])
            if not d:
                raise _NotPolynomial()
            return {m: c / d for m, c in self.poly(args[0]).items()}
        if k == z3.Z3_OP_TO_REAL:
            return self.poly(args[0])
        raise _NotPolynomial()


def _conjuncts(assertions: list) -> list:
    out: list = []
    stack = list(reversed(assertions))
    while stack:
        e = stack.pop()
        if z3.is_and(e):
            stack.extend(reversed(e.children()))
        elif not z3.is_true(e):
            out.append(e)
    return out


def polynomial_system(assertions: list, consts: list) -> list[Poly] | None:
    """The equations ``p = 0`` that ``assertions`` mean, over ``consts`` (Int/Real), or None.

    None unless every assertion is a conjunction of equalities between polynomial terms
    whose only unknowns are ``consts`` and that stay within ``MAX_DEGREE``/``MAX_TERMS``.
    A constant equation that is false gives ``[{(0,...): 1}]`` (no solution).
    """
    if not consts or any(c.sort_kind() not in (z3.Z3_INT_SORT, z3.Z3_REAL_SORT) for c in consts):
        return None
    tr = _Translator(consts)
    polys: list[Poly] = []
    try:
        for e in _conjuncts(assertions):
            if not z3.is_eq(e) or e.arg(0).sort_kind() not in (z3.Z3_INT_SORT, z3.Z3_REAL_SORT):
                return None
            p = _add(tr.poly(e.arg(0)), tr.poly(e.arg(1)), -1)
            if any(sum(m) > MAX_DEGREE for m in p):
                return None
            if p:
                polys.append(p)
    except _NotPolynomial:
        return None
    except RecursionError:
        return None
    return polys


def split_equations(assertions: list, consts: list) -> tuple[list[Poly], list] | None:
    """The conjuncts of ``assertions`` as (polynomial equations ``p = 0``, the rest).

    Why: spec/intbound.py bounds integer systems by their equations and checks every
    other conjunct (inequalities, anything this module does not translate) afterwards,
    point by point; an equation it cannot translate lands in the rest too. None when a
    constant is not Int/Real.
    """
    if not consts or any(c.sort_kind() not in (z3.Z3_INT_SORT, z3.Z3_REAL_SORT) for c in consts):
        return None
    tr = _Translator(consts)
    polys: list[Poly] = []
    rest: list = []
    for e in _conjuncts(assertions):
        if z3.is_eq(e) and e.arg(0).sort_kind() in (z3.Z3_INT_SORT, z3.Z3_REAL_SORT):
            try:
                p = _add(tr.poly(e.arg(0)), tr.poly(e.arg(1)), -1)
            except (_NotPolynomial, RecursionError):
                rest.append(e)
                continue
            if any(sum(m) > MAX_DEGREE for m in p):
                rest.append(e)
            elif p:
                polys.append(p)
        else:
            rest.append(e)
    return polys, rest
