"""The real solutions of a polynomial system, exactly: SymPy's lex Groebner basis.

Why a module of its own: spec/auditalgebra.py turns these solutions into an audit
verdict; this module only computes them, with nothing but SymPy and exact rationals (no
floats decide anything; see spec/auditalgebra.py for the steps and why they are exact).

A solution is a ``Point``: a real root of an irreducible factor ``f`` of the shape
basis' univariate polynomial, held as ``f`` and an isolating interval with rational
ends, and every coordinate as a polynomial remainder modulo ``f`` evaluated at that root.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from .auditpoly import System

__all__ = ["LINEAR_FORMS", "Point", "Undecided", "real_points"]

#: Linear forms tried as the shape variable when the last variable is not one.
LINEAR_FORMS = 3


class Undecided(Exception):
    """SymPy could not decide the system (the reason is the message)."""


def real_points(system: System) -> list[Point]:
    """Every real solution of ``system.equations`` (raises ``Undecided`` when the ideal
    is positive-dimensional or no shape basis was found)."""
    gens = system.gens
    polys = [p for p in system.equations if not p.is_zero]
    if not polys:
        raise Undecided("no equation to solve")
    basis = _lex(polys, gens)
    if basis is None:
        return []  # the basis is [1]: no complex solution at all
    shape = _shape(basis, len(gens))
    if shape is None:
        shape = _linear_shape(polys, gens)
    hs, g = shape
    points = []
    for f, _ in sp.factor_list(g)[1]:
        if f.degree() == 1:
            c1, c0 = (_frac(c) for c in f.all_coeffs())
            roots = [(-c0 / c1, -c0 / c1)]
        else:
            roots = [(_frac(a), _frac(b)) for (a, b), _ in f.intervals()]
        for a, b in roots:
            points.append(Point(f, a, b, [h.rem(f) for h in hs]))
    return points


def _lex(polys: list, gens: list) -> list[sp.Poly] | None:
    """The reduced lex Groebner basis (None when it is ``[1]``), by way of grevlex.

    Why not ``order="lex"`` at once: a grevlex basis is far cheaper, and FGLM converts a
    zero-dimensional one to lex by linear algebra (37-equation item 39 of the issue-23
    sweep: 0.06 CPU-s this way, lex at once not done in 120 s). The reduced lex basis is
    unique, so the result is the same either way.
    """
    basis = sp.groebner(polys, *gens, order="grevlex")
    if any(p.is_ground for p in basis.polys):
        return None
    if not basis.is_zero_dimensional:
        raise Undecided("the ideal is positive-dimensional (infinitely many complex solutions)")
    return list(basis.fglm("lex").polys)


def _shape(basis: list[sp.Poly], n: int) -> tuple[list[sp.Poly], sp.Poly] | None:
    """``x_i - h_i(t)`` for every variable but the last ``t``, and ``g(t)``: the ``h_i``
    (with ``t`` itself last) and ``g``, or None when the basis has another form."""
    if len(basis) != n:
        return None
    t = basis[0].gens[-1]
    hs: list[sp.Poly | None] = [None] * (n - 1)
    g = None
    for p in basis:
        terms = p.terms()
        lead = [(m, c) for m, c in terms if any(m[:-1])]
        if not lead:
            if g is not None:
                return None
            g = _univariate({m[-1]: c for m, c in terms}, t)
            continue
        if len(lead) != 1:
            return None
        m, c = lead[0]
        i = next(k for k in range(n - 1) if m[k])
        if sum(m) != 1 or hs[i] is not None:
            return None
        hs[i] = _univariate({mm[-1]: -cc / c for mm, cc in terms if mm != m}, t)
    if g is None or any(h is None for h in hs):
        return None
    return [h for h in hs if h is not None] + [sp.Poly(t, t, domain=sp.QQ)], g


def _linear_shape(polys: list[sp.Poly], gens: list) -> tuple[list[sp.Poly], sp.Poly]:
    """A shape basis in a new variable ``t = x_n + c x_(n-1) + c^2 x_(n-2) ...``.

    First the radical (Seidenberg's lemma: a zero-dimensional ideal plus the square-free
    part of a univariate polynomial of each variable is radical), where a generic linear
    form is a shape variable; ``c`` = 2, 3, ... (``LINEAR_FORMS`` tries).
    """
    extra = []
    for i in range(len(gens)):
        order = gens[:i] + gens[i + 1 :] + [gens[i]]
        lex = _lex([p.as_expr() for p in polys], order)
        if lex is None:
            raise Undecided("inconsistent Groebner bases")  # cannot be: the ideal has points
        last = lex[-1].as_expr()
        extra.append(sp.Poly(sp.sqf_part(sp.Poly(last, gens[i])), *gens, domain=sp.QQ))
    t = sp.Symbol("t_shape")
    for c in range(2, LINEAR_FORMS + 2):
        form = sum(c**k * x for k, x in enumerate(reversed(gens)))
        more = [p.as_expr() for p in polys + extra] + [t - form]
        basis = _lex(more, [*gens, t])
        shape = _shape(basis, len(gens) + 1) if basis is not None else None
        if shape is not None:
            hs, g = shape
            return hs[:-1], g
    raise Undecided(f"no shape basis (the last variable and {LINEAR_FORMS} linear forms)")


def _univariate(coeffs: dict[int, Any], t: Any) -> sp.Poly:
    if not coeffs:
        return sp.Poly(0, t, domain=sp.QQ)
    return sp.Poly.from_dict({(d,): c for d, c in coeffs.items()}, t, domain=sp.QQ)


def _frac(c: Any) -> Fraction:
    r = sp.Rational(c)
    return Fraction(int(r.p), int(r.q))


def _horner(cs: list[Fraction], x: Fraction) -> Fraction:
    v = Fraction(0)
    for c in cs:
        v = v * x + c
    return v


def _interval(cs: list[Fraction], a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
    """An enclosure of the polynomial ``cs`` (highest degree first) on ``[a, b]``."""
    lo = hi = Fraction(0)
    for c in cs:
        ps = (lo * a, lo * b, hi * a, hi * b)
        lo, hi = min(ps) + c, max(ps) + c
    return lo, hi


class Point:
    """One real solution: the root of ``f`` in ``[a, b]`` and each coordinate's remainder.

    ``f`` is irreducible over Q, so a remainder of lower degree vanishes at the root only
    when it is zero, and is rational there only when it is constant.
    """

    def __init__(self, f: sp.Poly, a: Fraction, b: Fraction, coords: list[sp.Poly]) -> None:
        self.f = f
        self.a, self.b = a, b
        self.coords = coords
        self._fcs = [_frac(c) for c in f.all_coeffs()]

    def value(self, i: int) -> Fraction | None:
        """Coordinate ``i`` when rational, else None."""
        r = self.coords[i]
        return _frac(r.LC()) if r.degree() <= 0 else None

    def sign(self, q: sp.Poly) -> int:
        """The exact sign of ``q`` (a polynomial in the shape variable) at the root."""
        q = q.rem(self.f)
        if q.is_zero:
            return 0
        if q.degree() <= 0:
            return 1 if q.LC() > 0 else -1
        cs = [_frac(c) for c in q.all_coeffs()]
        while True:  # ends: q(root) != 0 and the enclosure shrinks to it
            lo, hi = _interval(cs, self.a, self.b)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            self._bisect()

    def _bisect(self) -> None:
        m = (self.a + self.b) / 2
        # f irreducible of degree >= 2: no rational root, so neither value is 0
        if (_horner(self._fcs, m) > 0) == (_horner(self._fcs, self.a) > 0):
            self.a = m
        else:
            self.b = m

    def compose(self, p: sp.Poly) -> sp.Poly:
        """``p`` (over the system's variables) at this point, as a remainder modulo ``f``."""
        t = self.f.gens[0]
        out = sp.Poly(0, t, domain=sp.QQ)
        powers: dict[tuple[int, int], sp.Poly] = {}
        for m, c in p.terms():
            term = sp.Poly(c, t, domain=sp.QQ)
            for i, e in enumerate(m):
                if e:
                    if (i, e) not in powers:
                        powers[(i, e)] = (self.coords[i] ** e).rem(self.f)
                    term = (term * powers[(i, e)]).rem(self.f)
            out = out + term
        return out.rem(self.f)

    def satisfies(self, conditions: list[tuple[str, sp.Poly]], integers: list[int]) -> bool:
        for i in integers:
            v = self.value(i)
            if v is None or v.denominator != 1:
                return False
        for op, p in conditions:
            s = self.sign(self.compose(p))
            if not {"<": s < 0, "<=": s <= 0, ">": s > 0, ">=": s >= 0, "!=": s != 0}[op]:
                return False
        return True

    def matches(self, stored: list[tuple[str, str]]) -> bool:
        """Equal to a stored solution (exact ``n/d`` texts exactly; a decimal text, Z3's
        20-digit rendering of an irrational value, within its last digit)."""
        for r, (_, text) in zip(self.coords, stored, strict=False):
            d = Fraction(text)
            if "." not in text:
                if self.sign(r - sp.Rational(d.numerator, d.denominator)) != 0:
                    return False
                continue
            eps = Fraction(1, 10 ** len(text.split(".")[1]))
            lo, hi = d - eps, d + eps
            if self.sign(r - sp.Rational(lo.numerator, lo.denominator)) < 0:
                return False
            if self.sign(r - sp.Rational(hi.numerator, hi.denominator)) > 0:
                return False
        return True

    def rational_key(self, n: int) -> tuple[Fraction, ...] | None:
        vals = [self.value(i) for i in range(n)]
        return None if any(v is None for v in vals) else tuple(v for v in vals if v is not None)

    def show(self, names: list[str]) -> str:
        """The answer's coordinates: exact when rational, else ~ 12 digits (display only)."""
        parts = []
        for i, n in enumerate(names):
            v = self.value(i)
            if v is None:
                while self.b - self.a > Fraction(1, 10**15):
                    self._bisect()
                lo, _ = _interval([_frac(c) for c in self.coords[i].all_coeffs()], self.a, self.b)
                parts.append(f"{n}~{float(lo):.12g}")
            else:
                parts.append(f"{n}={v}")
        return ", ".join(parts)
