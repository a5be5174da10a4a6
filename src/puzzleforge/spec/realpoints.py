"""The real solutions of a zero-dimensional polynomial system, exactly, with their decimals.

Why: spec/realsolve.py proves how many distinct real solutions a system has (Hermite's
trace form) and finds the rational ones. When some are irrational it used to pass on
only their number, and Z3's nonlinear search then had to find those points in the
original system: on a few cubic equations that often took seconds and ended undecided
or out of budget (37-equation, session 12: about a third of its CPU, every such attempt
rejected). An earlier attempt (branch s12-eq37) let Z3 list the roots of a univariate
polynomial, but Z3's algebraic-number arithmetic does not heed its rlimit. Here every
step is exact rational arithmetic in FLINT, and the work is bounded by counts:

1. the nilradical ``N`` of ``A = Q[x]/I`` is the kernel of the trace form ``H``
   (characteristic zero), so ``D = rank H`` is the number of distinct complex solutions;
2. a linear form ``u = sum c_i x_i`` separates the solutions iff the squarefree part
   ``s`` of the characteristic polynomial of its multiplication matrix has degree ``D``
   (its roots are the values of ``u`` at the solutions); forms ``c_i = k^i``,
   ``k = 1, 2, ...`` are tried (at most ``SEPARATOR_TRIES``);
3. then ``A/N = Q[u]``, so each ``x_i`` agrees at every solution with one polynomial
   ``r_i(u)`` of degree ``< D``: the solution of ``H K a = H phi(x_i)``, ``K`` the
   coordinates of ``1, u, ..., u^(D-1)`` (checked exactly; no solution: decide nothing);
4. ``u`` is injective on the solutions and real at real ones, so the real solutions are
   exactly ``x_i = r_i(t)`` over the real roots ``t`` of ``s`` (their number must equal
   Hermite's count, else nothing is decided);
5. each irreducible factor ``f`` of ``s``: a linear one gives a rational ``t`` and exact
   rational coordinates; the real roots of the others are isolated in rational
   intervals (FLINT's ball arithmetic proposes them; each is checked exactly: the sign
   of ``s`` changes over it, they are disjoint, and their number with the rational roots
   is Hermite's count, so each holds exactly one root and none is missed); then
   ``h_i = r_i mod f`` is a constant (the coordinate is that rational) or not (the
   coordinate is irrational: ``h_i - c`` has degree below ``f``'s, so it cannot vanish
   at a root of the irreducible ``f``);
6. an irrational coordinate's value is its decimal with ``DIGITS`` digits after the point,
   truncated toward zero, the form ``z3_to_py`` gives a rational (``as_decimal(10)``):
   the root's interval is bisected (exact sign of ``f`` at each midpoint) until the
   centred form of ``h_i`` over it (its Taylor expansion at the midpoint, exact) pins
   the truncation down (an irrational number is never on the decimal grid, so this ends).

Work limits, all counts: ``MAX_BITS`` bits of a coefficient of ``s`` or of an ``r_i``,
``MAX_STEPS`` bisections of the decimals in all; past them nothing is decided
(the count is passed on as before). A Z3 model's value of an irrational coordinate is
an upper end of Z3's own isolating interval, whose width depends on the solver's
history; its truncated decimal can differ from this one in the last digit.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

__all__ = [
    "Univariate",
    "univariate_representation",
    "real_points",
    "SEPARATOR_TRIES",
    "MAX_BITS",
    "MAX_STEPS",
    "DIGITS",
]

#: Linear forms tried as separating elements (all but finitely many separate).
SEPARATOR_TRIES = 12
#: Largest coefficient (numerator or denominator bits) of ``s`` and the ``r_i``.
MAX_BITS = 20000
#: Most interval bisections for one system (the decimal refinement).
MAX_STEPS = 4000
#: Decimal digits after the point of an irrational coordinate (z3_to_py's ``as_decimal(10)``).
DIGITS = 10


class Univariate(NamedTuple):
    """Real solutions ``x_i = coords[i](t)`` for the real roots ``t`` of ``poly``."""

    poly: Any  # flint.fmpq_poly, squarefree
    coords: list[Any]  # flint.fmpq_poly each, degree < deg poly


def _column(flint: Any, mat: Any, j: int) -> Any:
    d = mat.nrows()
    col = flint.fmpq_mat(d, 1)
    for k in range(d):
        col[k, 0] = mat[k, j]
    return col


def _separating(flint: Any, mats: list[Any], distinct: int) -> tuple[Any, Any] | None:
    """A separating form's matrix and the squarefree part of its characteristic polynomial."""
    for k in range(1, SEPARATOR_TRIES + 1):
        mu = mats[0] * 1
        for i, m in enumerate(mats[1:], start=1):
            mu = mu + m * (k**i)
        chi = mu.charpoly()
        sq = chi / chi.gcd(chi.derivative())
        if sq.degree() == distinct:
            return mu, flint.fmpq_poly(sq.coeffs())
    return None


def _bits(p: Any) -> int:
    return max((max(int(c.p).bit_length(), int(c.q).bit_length()) for c in p.coeffs()), default=0)


def univariate_representation(flint: Any, mats: list[Any], herm: Any) -> Univariate | None:
    """The solutions' representation (see the module doc), or None when none of the tried
    forms separates, a coordinate is not a polynomial in the form (cannot happen for a
    separating form: a check failed, nothing is decided) or a coefficient is past
    ``MAX_BITS``."""
    d = herm.nrows()
    distinct = herm.rank()
    if distinct == 0:
        return None
    sep = _separating(flint, mats, distinct)
    if sep is None:
        return None
    mu, sq = sep
    if _bits(sq) > MAX_BITS:
        return None
    krylov = flint.fmpq_mat(d, distinct)
    vec = flint.fmpq_mat(d, 1)
    vec[0, 0] = 1  # the monomial basis is ascending: index 0 is the monomial 1
    for j in range(distinct):
        for k in range(d):
            krylov[k, j] = vec[k, 0]
        vec = mu * vec
    hk = herm * krylov
    normal = hk.transpose() * hk  # nonsingular: HK has full column rank when u separates
    if normal.rank() < distinct:
        return None
    coords = []
    for m in mats:
        rhs = herm * _column(flint, m, 0)
        a = normal.solve(hk.transpose() * rhs)
        if hk * a != rhs:
            return None
        r = flint.fmpq_poly([a[j, 0] for j in range(distinct)])
        if _bits(r) > MAX_BITS:
            return None
        coords.append(r)
    return Univariate(sq, coords)


class _OutOfSteps(Exception):
    """``MAX_STEPS`` bisections spent: nothing is decided."""


class _Steps:
    def __init__(self) -> None:
        self.left = MAX_STEPS

    def take(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfSteps()


def _sign(v: Any) -> int:
    return (v > 0) - (v < 0)


def _dyadic(flint: Any, v: Any) -> Any:
    """The exact value of an arb midpoint or radius (mantissa * 2**exponent)."""
    man, exp = v.man_exp()
    e = int(exp)
    return flint.fmpq(int(man) << e) if e >= 0 else flint.fmpq(int(man), 1 << -e)


def _isolate(flint: Any, g: Any) -> list[tuple[Any, Any]] | None:
    """Disjoint rational intervals ``(a, b)``, in increasing order, over each of which
    ``g`` (squarefree, no rational root) changes sign: each holds a real root. FLINT's
    ball arithmetic proposes them (``complex_roots``); they are then checked exactly
    (signs of ``g`` at the rational ends, disjointness), so the caller proves that they
    hold every real root by comparing their number with Hermite's count. None when a
    proposal fails its check."""
    out = []
    for root, _ in g.numer().complex_roots():
        if not root.imag.is_zero():
            if root.imag.contains(0):
                return None  # not separated from the real line: decide nothing
            continue
        mid, rad = _dyadic(flint, root.real.mid()), _dyadic(flint, root.real.rad())
        a, b = mid - rad, mid + rad
        if _sign(g(a)) * _sign(g(b)) != -1:
            return None
        out.append((a, b))
    out.sort()
    if any(x[1] >= y[0] for x, y in zip(out, out[1:], strict=False)):
        return None
    return out


def _enclose(flint: Any, h: Any, a: Any, b: Any) -> tuple[Any, Any]:
    """Bounds of ``h`` over ``[a, b]``: its Taylor expansion at the midpoint ``m`` with
    ``|x - m| <= r`` (the centred form: tight as the interval shrinks), exact rationals."""
    m, r = (a + b) / 2, (b - a) / 2
    coeffs = h(flint.fmpq_poly([m, 1])).coeffs()
    spread = flint.fmpq(0)
    power = flint.fmpq(1)
    for c in coeffs[1:]:
        power *= r
        spread += abs(c) * power
    return coeffs[0] - spread, coeffs[0] + spread


def _truncated(v: Any) -> int:
    """``trunc(v * 10**DIGITS)`` (toward zero)."""
    num, den = int(v.p) * 10**DIGITS, int(v.q)
    return num // den if num >= 0 else -((-num) // den)


def _decimal(flint: Any, f: Any, h: Any, box: list[Any], steps: _Steps) -> str:
    """``h(t)``'s truncated decimal, ``t`` the one root of ``f`` in ``box = [a, b]``
    (refined in place: the next coordinate starts from the narrower interval)."""
    while True:
        a, b = box
        lo, hi = _enclose(flint, h, a, b)
        tl = _truncated(lo)
        if tl == _truncated(hi) and _sign(lo) == _sign(hi) != 0:
            sign = "-" if lo < 0 else ""
            whole, frac = divmod(abs(tl), 10**DIGITS)
            return f"{sign}{whole}.{frac:0{DIGITS}d}"
        steps.take()
        m = (a + b) / 2
        sm = _sign(f(m))
        if sm == 0:  # cannot be: f is irreducible of degree >= 2
            raise _OutOfSteps()
        if sm == _sign(f(a)):
            box[0] = m
        else:
            box[1] = m


class RealPoint(NamedTuple):
    """One real solution: each coordinate an exact ``Fraction`` or, when irrational, its
    decimal text truncated to ``DIGITS`` places."""

    coords: tuple[Fraction | str, ...]


def _frac(v: Any) -> Fraction:
    return Fraction(int(v.p), int(v.q))


def real_points(flint: Any, uni: Univariate, count: int) -> list[RealPoint] | None:
    """Every real solution (steps 4-6 of the module doc), or None past the work limits or
    when the real roots found are not ``count`` (Hermite's number)."""
    steps = _Steps()
    out: list[RealPoint] = []
    _, factors = uni.poly.factor()
    nonlinear = []
    for f, _ in factors:
        if f.degree() == 1:
            c1, c0 = f.coeffs()[1], f.coeffs()[0]
            t = -c0 / c1
            out.append(RealPoint(tuple(_frac(r(t)) for r in uni.coords)))
        else:
            nonlinear.append(f)
    if nonlinear:
        g = nonlinear[0]
        for f in nonlinear[1:]:
            g *= f
        boxes = _isolate(flint, g)
        if boxes is None or len(out) + len(boxes) != count:
            return None
        reduced = {id(f): [r % f for r in uni.coords] for f in nonlinear}
        try:
            for a, b in boxes:
                owners = [f for f in nonlinear if _sign(f(a)) * _sign(f(b)) == -1]
                if len(owners) != 1:
                    return None
                f, box = owners[0], [a, b]
                coords: list[Fraction | str] = []
                for h in reduced[id(f)]:
                    if h.degree() <= 0:
                        coords.append(_frac(h(flint.fmpq(0))))
                    else:
                        coords.append(_decimal(flint, f, h, box, steps))
                out.append(RealPoint(tuple(coords)))
        except _OutOfSteps:
            return None
    return out if len(out) == count else None
