"""Every real (or integer) solution of a polynomial equation system, exactly, when it is finite.

Why: a spec of nonlinear equations (37-equation: a few cubic and quadratic equations over
Real unknowns) asks whether the solution it planted is the only one. Z3's nonlinear
procedures often spend seconds on that question and end undecided (issue 23: no proof,
no puzzle). Computer algebra answers it directly, in exact rational arithmetic:

1. a Groebner basis of the equations (FLINT's Buchberger, in degree-reverse-lexicographic
   order, after a linear interreduction of the equations), bounded by ``GB_LIMITS``: a
   basis that would grow past them is given up (None), a count of sizes, never of time;
2. when the basis says the solution set is finite (zero-dimensional ideal), the quotient
   algebra's monomial basis (at most ``MAX_QUOTIENT`` elements) and the multiplication
   matrices of the unknowns;
3. Stickelberger: the eigenvalues of the matrix of ``x_i`` are the ``x_i`` coordinates of
   all complex solutions, so the rational roots of its characteristic polynomial (exact
   factorisation) give every rational solution, each checked by substitution;
4. Hermite: the number of distinct *real* solutions is the signature of the trace form
   ``Tr(b_j * b_k)``, read exactly from its characteristic polynomial (real-rooted, so
   Descartes' rule of signs counts its positive and negative roots exactly).

When every real solution is rational (the count of 4 equals the points of 3) the set is
complete and proven; for integer unknowns the rational points with integer coordinates
are complete without 4. When some real solution is irrational, spec/realpoints.py gives
every real one exactly from the same matrices and trace form (its decimals counted in
bisection steps); past its limits only their number is passed on. Otherwise (a
positive-dimensional set, a basis past its limits) the answer is None and Z3 decides as
before. Nothing here uses floating point.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, NamedTuple

from .polysystem import Poly
from .realpoints import RealPoint, real_points, univariate_representation

__all__ = ["Solved", "solve_polynomials", "GB_LIMITS", "MAX_QUOTIENT", "MAX_CANDIDATES"]

#: FLINT Buchberger limits: (basis length, terms of a polynomial, bits of a coefficient).
#: 200 terms (2000 until session 13): a reduced basis of an ideal with at most
#: MAX_QUOTIENT standard monomials has at most MAX_QUOTIENT + 1 terms a polynomial, and
#: past 200 the naive algorithm's intermediate polynomials ran for seconds to minutes on
#: 7-8 unknowns (each such basis, when it finished, had more than MAX_QUOTIENT points).
GB_LIMITS = (100, 200, 20000)
#: Most elements of the quotient algebra's basis (the number of complex solutions with
#: multiplicity): the matrices are this size.
MAX_QUOTIENT = 64
#: Most candidate points (products of the coordinates' rational roots) checked.
MAX_CANDIDATES = 4096


def _flint() -> Any:
    try:
        import flint
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    return flint


def _key(m: tuple[int, ...]) -> tuple:
    """Degree-reverse-lexicographic order (FLINT's ``degrevlex`` over x0 > x1 > ...)."""
    return (sum(m), tuple(-e for e in reversed(m)))


def _integral(p: Poly) -> dict[tuple[int, ...], int]:
    den = 1
    for c in p.values():
        den = den * c.denominator // _gcd(den, c.denominator)
    return {m: int(c * den) for m, c in p.items()}


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def _interreduce(flint: Any, ctx: Any, polys: list[Poly]) -> list[Any]:
    """The equations' row echelon form over their monomials (largest monomial first)."""
    monos = sorted({m for p in polys for m in p}, key=_key, reverse=True)
    col = {m: j for j, m in enumerate(monos)}
    mat = flint.fmpq_mat(len(polys), len(monos))
    for r, p in enumerate(polys):
        for m, c in p.items():
            mat[r, col[m]] = flint.fmpq(c.numerator, c.denominator)
    red, rank = mat.rref()
    out = []
    for r in range(rank):
        row: Poly = {}
        for j, m in enumerate(monos):
            v = red[r, j]
            if v != 0:
                row[m] = Fraction(int(v.p), int(v.q))
        out.append(ctx.from_dict(_integral(row)))
    return out


def _groebner(flint: Any, polys: list[Poly], n: int) -> list[Poly] | None:
    """The reduced Groebner basis, monic, as Fraction dicts; None past ``GB_LIMITS``."""
    ctx = flint.fmpz_mpoly_ctx.get(tuple(f"x{i}" for i in range(n)), "degrevlex")
    gens = _interreduce(flint, ctx, polys)
    basis, ok = flint.fmpz_mpoly_vec(gens, ctx).buchberger_naive(limits=GB_LIMITS)
    if not ok:
        return None
    out: list[Poly] = []
    for g in basis.autoreduction():
        d = {tuple(int(e) for e in m): Fraction(int(c)) for m, c in g.to_dict().items()}
        if not d:
            continue
        lead = max(d, key=_key)
        if lead != tuple(int(e) for e in g.monoms()[0]):
            return None  # FLINT's order is not the one assumed here: decide nothing
        lc = d[lead]
        out.append({m: c / lc for m, c in d.items()})
    return out


def _divides(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(x <= y for x, y in zip(a, b, strict=True))


class _Quotient:
    """The quotient algebra Q[x]/I of a zero-dimensional ideal, from its reduced basis."""

    def __init__(self, basis: list[Poly], n: int, monos: list[tuple[int, ...]]) -> None:
        self.basis = [(max(g, key=_key), g) for g in basis]
        self.n = n
        self.monos = monos
        self.index = {m: j for j, m in enumerate(monos)}

    def normal_form(self, p: Poly) -> Poly:
        """The remainder of ``p`` by the basis (unique: the basis is a Groebner basis)."""
        work = dict(p)
        out: Poly = {}
        while work:
            m = max(work, key=_key)
            c = work.pop(m)
            for lead, g in self.basis:
                if _divides(lead, m):
                    shift = tuple(a - b for a, b in zip(m, lead, strict=True))
                    for gm, gc in g.items():
                        if gm == lead:
                            continue
                        t = tuple(a + b for a, b in zip(gm, shift, strict=True))
                        v = work.get(t, Fraction(0)) - c * gc
                        if v:
                            work[t] = v
                        else:
                            work.pop(t, None)
                    break
            else:
                out[m] = c
        return out

    def mult_matrix(self, flint: Any, i: int) -> Any:
        d = len(self.monos)
        mat = flint.fmpq_mat(d, d)
        for j, b in enumerate(self.monos):
            m = tuple(e + (1 if k == i else 0) for k, e in enumerate(b))
            for r, c in self.normal_form({m: Fraction(1)}).items():
                mat[self.index[r], j] = flint.fmpq(c.numerator, c.denominator)
        return mat


def _standard_monomials(basis: list[Poly], n: int) -> list[tuple[int, ...]] | None:
    """The monomials no leading monomial divides; None unless finitely many (at most
    ``MAX_QUOTIENT``): the ideal is zero-dimensional iff every unknown has a pure power
    among the leading monomials."""
    leads = [max(g, key=_key) for g in basis]
    bound = []
    for i in range(n):
        pure = [m[i] for m in leads if m[i] and sum(m) == m[i]]
        if not pure:
            return None
        bound.append(min(pure))
    total = 1
    for b in bound:
        total *= b
    if total > 64 * MAX_QUOTIENT:
        return None
    monos = [
        m
        for m in itertools.product(*(range(b) for b in bound))
        if not any(_divides(lead, m) for lead in leads)
    ]
    if len(monos) > MAX_QUOTIENT:
        return None
    return sorted(monos, key=_key)


def _rational_roots(flint: Any, poly: Any) -> list[Fraction]:
    _, factors = poly.factor()
    roots = []
    for f, _ in factors:
        if f.degree() == 1:
            a, b = f.coeffs()[1], f.coeffs()[0]
            r = -b / a
            roots.append(Fraction(int(r.p), int(r.q)))
    return sorted(set(roots))


def _evaluate(p: Poly, point: tuple[Fraction, ...]) -> Fraction:
    total = Fraction(0)
    for m, c in p.items():
        term = c
        for v, e in zip(point, m, strict=True):
            if e:
                term *= v**e
        total += term
    return total


def _real_count(flint: Any, q: _Quotient, mats: list[Any]) -> tuple[int, Any]:
    """Distinct real solutions: the signature of Hermite's trace form (exact); and the form."""
    d = len(q.monos)
    by_mono: dict[tuple[int, ...], Any] = {}
    for b in q.monos:  # ascending: every b / x_i of a standard monomial is standard
        if not any(b):
            one = flint.fmpq_mat(d, d)
            for k in range(d):
                one[k, k] = 1
            by_mono[b] = one
            continue
        i = next(k for k, e in enumerate(b) if e)
        prev = tuple(e - (1 if k == i else 0) for k, e in enumerate(b))
        by_mono[b] = mats[i] * by_mono[prev]
    tau = flint.fmpq_mat(1, d)
    for j, b in enumerate(q.monos):
        m = by_mono[b]
        tau[0, j] = sum((m[k, k] for k in range(d)), flint.fmpq(0))
    herm = flint.fmpq_mat(d, d)
    for j, b in enumerate(q.monos):
        row = tau * by_mono[b]
        for k in range(d):
            herm[j, k] = row[0, k]
    coeffs = [c for c in herm.charpoly().coeffs()]  # real-rooted (symmetric matrix)
    nonzero = [c for c in coeffs if c != 0]
    pos = sum(1 for a, b in itertools.pairwise(nonzero) if (a > 0) != (b > 0))
    neg_coeffs = [c * (-1 if k % 2 else 1) for k, c in enumerate(coeffs) if c != 0]
    neg = sum(1 for a, b in itertools.pairwise(neg_coeffs) if (a > 0) != (b > 0))
    return pos - neg, herm


class Solved(NamedTuple):
    """What the algebra proved: ``points``, every solution (sorted), when all are
    rational; else ``real_count``, the number of distinct real solutions (all unknowns Real),
    and ``real``, every one of them (spec/realpoints.py), unless past its work limits."""

    points: list[tuple[Fraction, ...]] | None
    real_count: int | None = None
    real: list[RealPoint] | None = None


def solve_polynomials(polys: list[Poly], n: int, integer: list[bool]) -> Solved | None:
    """The solutions of ``p = 0 for p in polys`` over the reals (integers where
    ``integer[i]``) when that set is finite (see ``Solved``); None when not decided."""
    flint = _flint()
    if flint is None or not polys:
        return None
    basis = _groebner(flint, polys, n)
    if basis is None:
        return None
    if any(len(g) == 1 and not any(next(iter(g))) for g in basis):
        return Solved([])  # 1 is in the ideal: no complex solution at all
    monos = _standard_monomials(basis, n)
    if monos is None:
        return None
    q = _Quotient(basis, n, monos)
    mats = [q.mult_matrix(flint, i) for i in range(n)]
    coords = []
    total = 1
    for i in range(n):
        roots = _rational_roots(flint, mats[i].charpoly())
        total *= len(roots)
        if total > MAX_CANDIDATES:
            return None
        coords.append(roots)
    points = [pt for pt in itertools.product(*coords) if all(_evaluate(p, pt) == 0 for p in polys)]
    if not all(integer):
        count, herm = _real_count(flint, q, mats)
        if count < len(points):  # cannot be (the points are distinct real solutions)
            return None
        if count > len(points):  # an irrational real solution
            if any(integer):
                return None
            uni = univariate_representation(flint, mats, herm)
            return Solved(None, count, real_points(flint, uni, count) if uni else None)
    return Solved(
        sorted(
            pt
            for pt in points
            if all(v.denominator == 1 for v, z in zip(pt, integer, strict=True) if z)
        )
    )
