"""The audit of integer polynomial systems by a bounded box: SymPy elimination + brute force.

Why: generation decides systems such as 68-cubic's (``m + p1 == x1**3``, ``... ==
x2**2``, ``... == x3**3`` over positive integers) with spec/intbound.py (divisors of a
constant along the lines of a linear factor); Z3's fresh solver cannot re-prove them
(Mordell-type equations), so ``verify`` would say ``undecided``. This audit re-proves
them by another argument and imports none of the generation's code (no intbound,
polysystem or FLINT; Z3 only parses the captured text, spec/auditpoly.py):

1. **Elimination by a lex Groebner basis** (SymPy), one pair of variables ``(x, y)`` at
   a time, the others ordered first: the basis elements in ``x, y`` alone generate the
   elimination ideal, so every solution satisfies them.
2. **A box from a bounded form.** An element ``F(x, y) + c`` with ``F`` homogeneous of
   degree ``n >= 2`` and ``c != 0`` is factored over Q, ``F = k * prod P_i^e_i`` with
   primitive integer ``P_i``; at an integer solution each ``P_i(x, y)`` is a nonzero
   integer, so ``|P_i(x, y)| <= M = |c / k|``. A *definite* factor ``P`` (even degree
   ``d``, no real root of ``P(t, 1)``, ``P(1, 0) != 0``) has ``|P(x, y)| >= mu *
   max(|x|, |y|)^d`` with ``mu`` the minimum of ``|P(t, 1)|`` and ``|P(1, s)|`` over
   ``[-1, 1]``, bounded below by exact interval arithmetic on bisections; two
   independent linear factors bound ``x, y`` through the inverse of their 2x2 matrix.
   Either gives ``max(|x|, |y|) <= B``, tightened by the side conditions ``v op number``.
2b. **Divisor lines**, when no pair has a box (a linear factor whose cofactor is
   indefinite, e.g. ``(x - y)(x^2 - 2 y^2) = C``): with ``f`` scaled to integer
   coefficients, ``F + c'``, and ``L = a x + b y`` a primitive integer linear factor of
   ``F``, Gauss's lemma makes ``F = L G`` with integral ``G``, so at an integer zero
   ``L(x, y)`` divides ``N = -c'``. For each divisor ``e`` of ``N`` (both signs, at most
   ``MAX_DIVISOR_LINES`` lines, ``|N|`` at most ``MAX_C_BITS`` bits, else ``undecided``)
   the line ``a x + b y = e`` turns ``f`` into a polynomial in one unknown whose exact
   rational roots (SymPy) give the candidates (kept when both coordinates are integers);
   a line along which ``f`` vanishes identically is infinitely many zeros: not claimed.
3. **Brute force** over the box (at most ``MAX_BOX`` points, exact integers; a wider box
   of at most ``MAX_LINES`` columns gets each column's integer zeros from SymPy's exact
   roots instead), or the divisor lines' candidates; then every other variable from an
   equation left in one unknown (exact roots over Q, kept when integral) or, failing
   that, over its range from the side conditions, and every equation and side condition
   checked exactly.
4. The solutions found are compared with the stored ones: the same set is ``pass``,
   one more ``ambiguous``, a stored one missing ``wrong``.

No pair with a box or a linear factor: the audit does not apply (None). A variable no
equation determines, a box past ``MAX_BOX`` or divisor lines past their caps:
``undecided``, and the solver rounds of spec/audit.py go on.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp
import z3

from .auditalgebra import _cpu_bounded
from .auditcapture import Problem
from .auditfresh import AuditOutcome
from .auditpoly import NotPolynomial, System

__all__ = ["METHOD", "MAX_BOX", "audit_int_box"]

METHOD = "int-box"
#: Most integer points of a box tried by brute force.
MAX_BOX = 4_000_000
#: Most columns of a box too large to scan, each solved exactly instead.
MAX_LINES = 20_000
#: Most divisor lines ``a x + b y = e`` solved (step 2b).
MAX_DIVISOR_LINES = 20_000
#: Largest ``|N|`` (in bits) whose divisors are enumerated (factoring cost).
MAX_C_BITS = 128
#: Most bisection levels of the interval lower bound of a definite form.
MAX_DEPTH = 14


#: A primitive integer linear factor ``a x + b y`` of an eliminant's form and the integer
#: ``N`` that its value divides at every integer zero.
_Line = tuple[int, int, int]


class _Undecided(Exception):
    """The argument does not decide this system (the reason is the message)."""


class _NoShape(Exception):
    """No pair of variables has a bounded eliminant: this audit does not apply."""


def _interval(coeffs: list[Fraction], a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
    """An enclosure of ``sum coeffs[k] t^k`` over ``[a, b]`` (Horner, interval arithmetic)."""
    lo = hi = Fraction(0)
    for c in reversed(coeffs):
        prods = (lo * a, lo * b, hi * a, hi * b)
        lo, hi = min(prods) + c, max(prods) + c
    return lo, hi


def _min_abs(coeffs: list[Fraction]) -> Fraction:
    """A positive lower bound of ``|g|`` on ``[-1, 1]`` (``g`` without a real root there)."""
    pending = [(Fraction(-1), Fraction(1), 0)]
    best: Fraction | None = None
    while pending:
        a, b, depth = pending.pop()
        lo, hi = _interval(coeffs, a, b)
        low = lo if lo > 0 else -hi if hi < 0 else None
        if low is not None:
            best = low if best is None else min(best, low)
        elif depth >= MAX_DEPTH:
            raise _Undecided("a definite form's minimum was not bounded")
        else:
            mid = (a + b) / 2
            pending += [(a, mid, depth + 1), (mid, b, depth + 1)]
    assert best is not None
    return best


def _box(f: sp.Poly) -> int | None:
    """``B`` with ``max(|x|, |y|) <= B`` at every integer zero of ``f(x, y)``, or None."""
    x, y = f.gens
    c = f.coeff_monomial(1)
    degs = {sum(m) for m in f.monoms() if any(m)}
    if c == 0 or len(degs) != 1 or min(degs) < 2:
        return None
    form = f - c
    k, factors = sp.factor_list(form.as_expr(), x, y)
    bound = abs(sp.Rational(c) / sp.Rational(k))
    lines = []
    best = None
    for p, _ in factors:
        p = sp.Poly(p, x, y)
        d = p.total_degree()
        if d == 1:
            lines.append((p.coeff_monomial(x), p.coeff_monomial(y)))
        elif d % 2 == 0 and p.coeff_monomial(x**d) != 0:
            g1 = sp.Poly(p.as_expr().subs(y, 1), x)
            if sp.real_roots(g1):
                continue
            g2 = sp.Poly(p.as_expr().subs(x, 1), y)

            def fr(q: sp.Poly) -> list[Fraction]:
                return [Fraction(int(v.p), int(v.q)) for v in reversed(q.all_coeffs())]

            mu = min(_min_abs(fr(g1)), _min_abs(fr(g2)))
            top = Fraction(int(bound.p), int(bound.q)) / mu
            b = int(sp.integer_nthroot(int(top), d)[0]) + 1
            best = b if best is None else min(best, b)
    for (a1, b1), (a2, b2) in itertools.combinations(lines, 2):
        det = a1 * b2 - a2 * b1
        if det != 0:  # |L1|, |L2| <= bound: x = (b2 L1 - b1 L2) / det, y likewise
            b = sp.ceiling(bound * max(abs(b1) + abs(b2), abs(a1) + abs(a2)) / abs(det))
            best = int(b) if best is None else min(best, int(b))
    return best


def _line(f: sp.Poly) -> _Line | None:
    """A primitive integer linear factor ``a x + b y`` of ``f``'s form and the integer
    ``N`` it must divide (step 2b), or None (no such form or no rational linear factor).

    ``f`` is scaled to integer coefficients, ``D f = F + c'``; ``L`` primitive divides the
    integer form ``F``, so ``F = L G`` with ``G`` integral (Gauss's lemma) and at an integer
    zero ``L(x, y) G(x, y) = -c'``: ``L(x, y)`` divides ``N = -c'``."""
    x, y = f.gens
    c = f.coeff_monomial(1)
    degs = {sum(m) for m in f.monoms() if any(m)}
    if c == 0 or len(degs) != 1 or min(degs) < 2:
        return None
    den = 1
    for _, v in f.terms():
        den = sp.ilcm(den, sp.Rational(v).q)
    scaled = f * den
    _, factors = sp.factor_list((scaled - scaled.coeff_monomial(1)).as_expr(), x, y)
    for p, _ in factors:
        p = sp.Poly(p, x, y)
        if p.total_degree() != 1:
            continue
        a, b = sp.Rational(p.coeff_monomial(x)), sp.Rational(p.coeff_monomial(y))
        a, b = a * sp.ilcm(a.q, b.q), b * sp.ilcm(a.q, b.q)
        g = sp.igcd(int(a), int(b))
        return int(a) // g, int(b) // g, -int(scaled.coeff_monomial(1))
    return None


def _line_points(f: sp.Poly, line: _Line) -> list[tuple[int, int]]:
    """Every integer zero of ``f`` (step 2b): on each line ``a x + b y = e``, ``e`` a
    divisor of ``N`` of either sign, the zeros are the integer roots of one polynomial."""
    a, b, n = line
    if n.bit_length() > MAX_C_BITS:
        raise _Undecided(f"a constant of {n.bit_length()} bits (at most {MAX_C_BITS})")
    x, y = f.gens
    flip = b == 0  # then a = +-1: solve for x instead of y
    u, v, cu, cv = (y, x, b, a) if flip else (x, y, a, b)
    e = sp.Dummy("e")
    # cv**deg * f(u, (e - cu u) / cv): a polynomial in u whose coefficients are in e
    deg = f.total_degree()
    along = sp.Poly(sp.expand(f.as_expr().subs(v, (e - cu * u) / cv) * cv**deg), u)
    coeffs = [sp.Poly(k, e) for k in along.all_coeffs()]
    divs = sp.divisors(abs(n))
    if 2 * len(divs) > MAX_DIVISOR_LINES:
        raise _Undecided(f"{2 * len(divs)} divisor lines (at most {MAX_DIVISOR_LINES})")
    out = []
    for ev in [s * d for d in divs for s in (1, -1)]:
        row = [k.eval(ev) for k in coeffs]
        if not any(row):
            raise _NoShape()  # the whole line is zeros: infinitely many, not claimed
        for r in sp.Poly(row, u, domain=sp.QQ).ground_roots():
            r = sp.Rational(r)
            if r.q != 1 or (ev - cu * int(r)) % cv:
                continue
            uv, vv = int(r), (ev - cu * int(r)) // cv
            out.append((vv, uv) if flip else (uv, vv))
    return out


def _ranges(system: System) -> list[list[int | None]]:
    """``[low, high]`` per variable from the side conditions ``a v + b op 0``."""
    out: list[list[int | None]] = [[None, None] for _ in system.gens]
    for op, p in system.conditions:
        if p.total_degree() != 1 or op == "!=":
            continue
        used = [i for i, g in enumerate(system.gens) if p.degree(g) > 0]
        if len(used) != 1:
            continue
        i = used[0]
        a, b = sp.Rational(p.coeff_monomial(system.gens[i])), sp.Rational(p.coeff_monomial(1))
        t = -b / a  # a v + b op 0  <=>  v op t (a > 0) or v op-reversed t (a < 0)
        rel = op if a > 0 else {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
        cur_low, cur_high = out[i]
        if rel in (">", ">="):
            low = int(sp.floor(t)) + 1 if rel == ">" else int(sp.ceiling(t))
            out[i][0] = low if cur_low is None else max(cur_low, low)
        else:
            high = int(sp.ceiling(t)) - 1 if rel == "<" else int(sp.floor(t))
            out[i][1] = high if cur_high is None else min(cur_high, high)
    return out


def _seed(system: System) -> tuple[int, int, sp.Poly, int | None, _Line | None]:
    """A pair ``(i, j)``, its eliminant ``f(x_i, x_j)`` and a box bound for it, else (no
    pair has a box) the first eliminant with a rational linear factor and its divisor
    lines' data (step 2b)."""
    gens = system.gens
    eqs = [p.as_expr() for p in system.equations]
    fallback = None
    for i, j in itertools.combinations(range(len(gens)), 2):
        order = [g for k, g in enumerate(gens) if k not in (i, j)] + [gens[i], gens[j]]
        basis = sp.groebner(eqs, *order, order="lex")
        for q in basis.exprs:
            if not q.free_symbols or not q.free_symbols <= {gens[i], gens[j]}:
                continue
            f = sp.Poly(q, gens[i], gens[j])
            b = _box(f)
            if b is not None:
                return i, j, f, b, None
            line = _line(f) if fallback is None else None
            if line is not None:
                fallback = (i, j, f, None, line)
    if fallback is None:
        raise _NoShape()
    return fallback


def _points(system: System) -> tuple[list[dict[int, int]], str]:
    """The integer solutions and how they were found (the verdict's words)."""
    i, j, f, b, line = _seed(system)
    ranges = _ranges(system)
    if line is not None:
        found = [{i: xv, j: yv} for xv, yv in _line_points(f, line)]
        where = "on the divisor lines of a linear factor"
        return [pt for p in found for pt in _extend(system, p, ranges)], where
    assert b is not None

    def span(k: int) -> range:
        low, high = ranges[k]
        return range(-b if low is None else max(-b, low), (b if high is None else min(b, high)) + 1)

    xs, ys = span(i), span(j)
    scan = len(xs) * len(ys) <= MAX_BOX
    if not scan and len(xs) > MAX_LINES:
        raise _Undecided(f"a box of {len(xs)} x {len(ys)} points (at most {MAX_BOX})")
    den = 1
    for _, c in f.terms():
        den = sp.ilcm(den, sp.Rational(c).q)
    terms = [(m[0], m[1], int(sp.Rational(c) * den)) for m, c in f.terms()]
    top = max(t[1] for t in terms)
    found = []
    for xv in xs:
        cy = [0] * (top + 1)
        for a, e, c in terms:
            cy[e] += c * xv**a
        if not scan:  # a wide box: each column's integer zeros exactly (SymPy), not a scan
            found += [{i: xv, j: yv} for yv in _column(cy, ys)]
            continue
        for yv in ys:
            acc = 0
            for c in reversed(cy):
                acc = acc * yv + c
            if acc == 0:
                found.append({i: xv, j: yv})
    return [pt for p in found for pt in _extend(system, p, ranges)], "in the bounded box"


def _column(cy: list[int], ys: range) -> list[int]:
    """The ``y`` in ``ys`` with ``sum cy[k] y^k == 0`` (every one when all are zero)."""
    if not any(cy):
        return list(ys)
    y = sp.Symbol("y")
    roots = sp.Poly(list(reversed(cy)), y, domain=sp.ZZ).ground_roots()
    return sorted(int(r) for r in roots if int(r) in ys)


def _extend(system: System, known: dict[int, int], ranges: list) -> list[dict[int, int]]:
    """Every integer completion of ``known`` by equations left in one unknown (else by a
    variable's range from the side conditions, when it is bounded on both sides)."""
    gens = system.gens
    if len(known) == len(gens):
        return [known] if _holds(system, known) else []
    subs = {gens[k]: v for k, v in known.items()}
    for p in system.equations:
        q = p.as_expr().subs(subs)
        left = [k for k, g in enumerate(gens) if k not in known and g in q.free_symbols]
        if len(left) != 1:
            continue
        roots = sp.Poly(q, gens[left[0]], domain=sp.QQ).ground_roots()
        out = []
        for r in roots:
            if sp.Rational(r).q == 1:
                out += _extend(system, {**known, left[0]: int(r)}, ranges)
        return out
    for k in range(len(gens)):
        low, high = ranges[k]
        if k not in known and low is not None and high is not None and high - low < MAX_BOX:
            return [
                pt for v in range(low, high + 1) for pt in _extend(system, {**known, k: v}, ranges)
            ]
    raise _Undecided("a variable is not determined by the equations")


def _holds(system: System, pt: dict[int, int]) -> bool:
    vals = [pt[k] for k in range(len(system.gens))]
    if any(p(*vals) != 0 for p in system.equations):
        return False
    for op, p in system.conditions:
        v = p(*vals)
        ok = {"<": v < 0, "<=": v <= 0, ">": v > 0, ">=": v >= 0, "!=": v != 0}[op]
        if not ok:
            return False
    return True


def audit_int_box(problem: Problem, seconds: float) -> AuditOutcome | None:
    """Decide an all-Int polynomial system by a bounded box (None: does not apply)."""
    if problem.kind != "enumerate" or not problem.sorts or set(problem.sorts) != {"int"}:
        return None
    try:
        system = System(problem)
    except (NotPolynomial, z3.Z3Exception):
        return None
    if not system.equations or not system.nonlinear():
        return None
    if len(system.integers) != len(system.gens):
        return None

    def solve() -> tuple[list[dict[int, int]], str] | str | None:
        try:
            return _points(system)
        except _Undecided as exc:
            return str(exc)
        except _NoShape:
            return None

    got, why = _cpu_bounded(solve, seconds)
    if why:
        return AuditOutcome(
            "undecided",
            f"bounded box: {'the backstop fired' if why == 'net' else 'CPU seconds ran out'}",
            METHOD,
            net_fired=why == "net",
            budget_spent=why == "cpu",
        )
    if got is None:
        return None  # not this shape: the solver rounds decide, as before
    if isinstance(got, str):
        return AuditOutcome("undecided", f"bounded box: {got}", METHOD)
    return _compare(problem, system, *got)


def _compare(
    problem: Problem, system: System, points: list[dict[int, int]], where: str
) -> AuditOutcome:
    names = len(system.names)
    found = sorted({tuple(pt[k] for k in range(names)) for pt in points})
    how = f"{len(found)} integer solution(s) {where}"
    if not problem.complete:
        if len(found) == 1:
            return AuditOutcome("pass", f"exactly one solution ({how})", METHOD)
        return AuditOutcome("wrong" if not found else "undecided", how, METHOD)
    stored = {tuple(int(v) for _, v in sol[:names]) for sol in problem.solutions}
    missing = stored - set(found)
    if missing:
        return AuditOutcome(
            "wrong", f"stored solution {sorted(missing)[0]} is not one ({how})", METHOD
        )
    extra = [s for s in found if s not in stored]
    if extra:
        return AuditOutcome("ambiguous", f"another solution exists ({how}): {extra[0]}", METHOD)
    return AuditOutcome("pass", f"exactly {len(found)} solution(s) ({how})", METHOD)
