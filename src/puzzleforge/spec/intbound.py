"""The ``int-bound`` enumeration backend: integer polynomial systems made finite by a bound.

Why: a system such as ``m + p1 == x1**3, m + p1 + p2 == x2**2, m + p1 + p2 + p3 ==
x3**3`` over positive integers (corpus spec 68-cubic) has finitely many solutions, but
Z3 cannot prove that no second one exists (Mordell-type equations: its "one more?"
check stays undecided, so proof or nothing rejected every attempt), and a Groebner basis
over Q does not help (the complex solution set is a curve). Elementary number theory
decides it exactly, in integer arithmetic:

1. **Linear elimination.** A variable that occurs in some equation only as ``c * v``
   (``m`` above) is solved for and substituted into the other equations; its value is
   recomputed at the end (and must be an integer).
2. **Relations in one or two variables.** The Q-linear span of the equations left is
   intersected with Q[x, y] for every pair of variables (row echelon form with the other
   variables' monomials first): sums and differences such as ``x3**3 - x1**3 = p2 + p3``.
3. **Bounding.** A relation ``F(x, y) = C`` where ``F`` is a binary form of degree
   ``n >= 2`` with a rational linear factor ``L = a x + b y`` (primitive: by Gauss's
   lemma ``F = L * H`` with integer ``H``) and ``C != 0`` forces ``L(x, y)`` to divide
   ``C``. For each divisor ``e`` (both signs) the integer points of the line
   ``a x + b y = e`` are ``(x0 + b k, y0 - a k)``, and ``F - C`` along it is a polynomial
   in ``k``: its integer roots are the only candidates (a zero polynomial means
   infinitely many: not claimed). ``x**n - y**n`` (odd ``n``), ``x**n + y**n`` (odd
   ``n``), ``x**2 - y**2`` and any form with a rational root are this shape. A form with
   no zero direction (``x**2 + y**2``, ``x**4 + y**4``) instead bounds ``max(|x|, |y|)``
   by its minimum on the unit square's boundary (spec/intpoints.py). Pell's
   ``x**2 - 2 y**2`` is neither (infinitely many solutions).
4. **Propagation.** With some variables fixed, a relation left in one unknown is a
   univariate polynomial whose integer roots (FLINT, exact) extend each candidate; a
   variable with numbers on both sides is tried over its range; one that no equation or
   other conjunct mentions, bounded on at most one side, is fixed at its bound: a
   solution then means infinitely many (``too many solutions``).
5. **Check.** The eliminated variables' values, every equation exactly and every other
   conjunct by Z3's simplifier on numerals: the survivors are the complete solution set.

Anything outside this (a variable no relation bounds, a form without a linear factor,
``C = 0``, more than ``MAX_WORK`` candidates and divisors, a constant above
``intpoints.MAX_C_BITS``) gives None and the next backend decides as before. The work is counted
in candidates, divisors and rows, never in seconds, so the outcome is the same on every
machine.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import z3

from .intpoints import MAX_WORK, GiveUp, Work, form_points, roots_in
from .nonlinear import nonlinear_equations
from .outcome import Rejection
from .polysystem import Poly, split_equations
from .solmodel import SolModel
from .solmodel import solution_order_key as _order_key

__all__ = ["enumerate_int_bound", "MAX_WORK", "MAX_VARS"]

#: Most variables left after the linear elimination (pairs are examined: quadratic).
MAX_VARS = 8
#: Most terms of a polynomial made by substitution.
MAX_TERMS = 400


# ---- polynomial helpers (dict: exponent tuple -> Fraction) ----------------------------------
def _add_into(out: Poly, p: Poly, scale: Fraction = Fraction(1)) -> None:
    for m, c in p.items():
        v = out.get(m, Fraction(0)) + c * scale
        if v:
            out[m] = v
        else:
            out.pop(m, None)
    if len(out) > MAX_TERMS:
        raise GiveUp()


def _mul(p: Poly, q: Poly) -> Poly:
    out: Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            _add_into(out, {tuple(a + b for a, b in zip(m1, m2, strict=True)): c1 * c2})
    return out


def _vars(p: Poly) -> set[int]:
    return {i for m in p for i, e in enumerate(m) if e}


def _linear_coeff(p: Poly, i: int) -> Fraction | None:
    """``c`` when variable ``i`` occurs in ``p`` only as the monomial ``c * x_i``."""
    c = None
    for m, v in p.items():
        if m[i]:
            if m[i] != 1 or sum(m) != 1:
                return None
            c = v
    return c


def _substitute(q: Poly, i: int, expr: Poly) -> Poly:
    """``q`` with ``x_i`` replaced by the polynomial ``expr``."""
    out: Poly = {}
    powers = [{tuple(0 for _ in next(iter(q))): Fraction(1)}] if q else []
    for m, c in q.items():
        k = m[i]
        while len(powers) <= k:
            powers.append(_mul(powers[-1], expr))
        base = tuple(0 if j == i else e for j, e in enumerate(m))
        _add_into(out, _mul({base: c}, powers[k]))
    return out


def _partial(p: Poly, values: dict[int, int]) -> Poly:
    """``p`` with the variables of ``values`` fixed."""
    out: Poly = {}
    for m, c in p.items():
        v = c
        for j, e in enumerate(m):
            if e and j in values:
                v *= values[j] ** e
        key = tuple(0 if j in values else e for j, e in enumerate(m))
        _add_into(out, {key: v})
    return out


def _value(p: Poly, values: dict[int, int]) -> Fraction:
    total = Fraction(0)
    for m, c in p.items():
        v = c
        for j, e in enumerate(m):
            if e:
                v *= values[j] ** e
        total += v
    return total


# ---- steps 1 and 2 --------------------------------------------------------------------------
def _eliminate(polys: list[Poly], n: int, work: Work) -> tuple[list[Poly], list]:
    """Step 1: the equations left and the eliminated ``(i, expr)`` in elimination order."""
    polys = [p for p in polys if p]
    done: list = []
    changed = True
    while changed:
        changed = False
        for i in range(n):
            for k, p in enumerate(polys):
                c = _linear_coeff(p, i)
                if c is None:
                    continue
                unit = tuple(1 if j == i else 0 for j in range(n))
                expr = {m: -v / c for m, v in p.items() if m != unit}
                work.spend(len(polys))
                rest = [_substitute(q, i, expr) for j, q in enumerate(polys) if j != k]
                polys = [q for q in rest if q]
                done.append((i, expr))
                changed = True
                break
            if changed:
                break
    return polys, done


def _span_in(polys: list[Poly], keep: set[int], work: Work) -> list[Poly]:
    """Step 2: a basis of the Q-span of ``polys`` intersected with Q[keep]."""

    def outside(m: tuple[int, ...]) -> bool:
        return any(e for j, e in enumerate(m) if e and j not in keep)

    monos = sorted({m for p in polys for m in p}, key=lambda m: (not outside(m), m))
    rows = [dict(p) for p in polys]
    out: list[Poly] = []
    r = 0
    for m in monos:
        pivot = next((k for k in range(r, len(rows)) if rows[k].get(m)), None)
        if pivot is None:
            continue
        rows[r], rows[pivot] = rows[pivot], rows[r]
        lead = rows[r][m]
        for k in range(len(rows)):
            if k != r and rows[k].get(m):
                work.spend()
                _add_into(rows[k], rows[r], -rows[k][m] / lead)
        r += 1
    for row in rows[:r]:
        if row and not any(outside(m) for m in row):
            out.append(row)
    return out


# ---- steps 3 and 4 --------------------------------------------------------------------------
def _bounds(rest: list, index: dict[int, int]) -> tuple[dict[int, list], set[int]]:
    """Top-level ``v op number`` comparisons: ``{i: [low, high]}`` (None: unbounded), and
    the variables some other conjunct of ``rest`` mentions."""
    out: dict[int, list] = {}
    touched: set[int] = set()
    flip = {z3.Z3_OP_LT: z3.Z3_OP_GT, z3.Z3_OP_GT: z3.Z3_OP_LT}
    flip.update({z3.Z3_OP_LE: z3.Z3_OP_GE, z3.Z3_OP_GE: z3.Z3_OP_LE})
    for e in rest:
        i = None
        if z3.is_app(e) and e.num_args() == 2 and e.decl().kind() in flip:
            k, lhs, rhs = e.decl().kind(), e.arg(0), e.arg(1)
            if z3.is_int_value(lhs):
                k, lhs, rhs = flip[k], rhs, lhs
            i = index.get(lhs.get_id()) if z3.is_int_value(rhs) else None
        if i is None:
            touched.update(_mentions(e, index))
            continue
        v = rhs.as_long()
        lo, hi = out.setdefault(i, [None, None])
        if k in (z3.Z3_OP_GT, z3.Z3_OP_GE):
            v += k == z3.Z3_OP_GT
            out[i][0] = v if lo is None else max(lo, v)
        else:
            v -= k == z3.Z3_OP_LT
            out[i][1] = v if hi is None else min(hi, v)
    return out, touched


def _mentions(e: Any, index: dict[int, int]) -> set[int]:
    seen: set[int] = set()
    found: set[int] = set()
    stack = [e]
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if t.get_id() in index:
            found.add(index[t.get_id()])
        elif z3.is_app(t):
            stack.extend(t.children())
    return found


def _solve(
    relations: list[Poly], unknown: set[int], box: dict[int, list], work: Work
) -> list[dict[int, int]]:
    """Step 4: every assignment of ``unknown`` meeting ``relations``."""
    found: list[dict[int, int]] = [{}]
    bound: set[int] = set()
    rel_vars = [_vars(r) for r in relations]
    while bound != unknown:
        one = next(
            (z for z in sorted(unknown - bound) if any(vs - bound == {z} for vs in rel_vars)),
            None,
        )
        if one is not None:
            rels = [r for r, vs in zip(relations, rel_vars, strict=True) if vs - bound == {one}]
            found = _extend_one(found, one, rels, work)
            bound.add(one)
            continue
        pair = _extend_pair(found, relations, rel_vars, bound, work)
        if pair is not None:
            found, xy = pair
            bound.update(xy)
            continue
        z = next((z for z in sorted(unknown - bound) if None not in box.get(z, [None])), None)
        if z is None:
            raise GiveUp()  # some variable is bounded by nothing we can use
        lo, hi = box[z]
        work.spend(max(0, hi - lo + 1) * len(found))
        found = [{**f, z: v} for f in found for v in range(lo, hi + 1)]
        bound.add(z)
    return found


def _extend_one(found: list, z: int, rels: list[Poly], work: Work) -> list:
    out: list[dict[int, int]] = []
    for f in found:
        for r in rels:
            work.spend()
            roots = roots_in(_partial(r, f), z)
            if roots is not None:
                out.extend({**f, z: v} for v in roots)
                break
        else:
            raise GiveUp()  # every relation vanishes identically here: z is not bounded
    return out


def _extend_pair(
    found: list, relations: list[Poly], rel_vars: list[set[int]], bound: set[int], work: Work
) -> tuple[list, tuple[int, int]] | None:
    """The first pair of unknowns some relation bounds for every candidate (step 3)."""
    for r, vs in zip(relations, rel_vars, strict=True):
        left = sorted(vs - bound)
        if len(left) != 2:
            continue
        x, y = left
        out: list[dict[int, int]] = []
        for f in found:
            pts = form_points(_partial(r, f), x, y, work)
            if pts is None:
                break
            work.spend(len(pts) + 1)
            out.extend({**f, x: px, y: py} for px, py in pts)
        else:
            return out, (x, y)
    return None


# ---- the backend ----------------------------------------------------------------------------
def _holds(e: Any, pairs: list) -> bool | None:
    r = z3.simplify(z3.substitute(e, *pairs)) if pairs else z3.simplify(e)
    if z3.is_true(r):
        return True
    return False if z3.is_false(r) else None


def enumerate_int_bound(assertions: list, consts: list, limit: int | None) -> list[SolModel] | None:
    """Every solution over ``consts`` (all Int) when the module's argument proves the set
    finite and lists it; None when it does not apply (the next backend decides).

    Raises ``Rejection`` ("too many solutions") past ``limit``, as the other backends do.
    """
    if not consts or any(c.sort_kind() != z3.Z3_INT_SORT for c in consts):
        return None
    if not nonlinear_equations(assertions):
        return None  # no equation with a product or power of unknowns: not this shape
    split = split_equations(assertions, consts)
    if split is None or not split[0]:
        return None
    polys, rest = split
    if not any(sum(m) > 1 for p in polys for m in p):
        return None  # linear: the Z3 backends' shape
    n = len(consts)
    work = Work()
    try:
        left, done = _eliminate(polys, n, work)
        if any(len(p) == 1 and not any(next(iter(p))) for p in left):
            return _finish([], consts, limit)  # a nonzero constant equation: no solution
        free = set(range(n)) - {i for i, _ in done}
        if len(free) > MAX_VARS:
            return None
        relations = list(left)
        for x, y in itertools.combinations(sorted(free), 2):
            relations += [r for r in _span_in(left, {x, y}, work) if r not in relations]
        box, touched = _bounds(rest, {c.get_id(): i for i, c in enumerate(consts)})
        in_eqs = {i for p in polys for i in _vars(p)}
        loose = sorted(i for i in free - in_eqs - touched if None in box.get(i, [None, None]))
        for i in loose:  # fixed at one value: any solution then repeats along it
            lo, hi = box.get(i, [None, None])
            box[i] = [lo, lo] if lo is not None else [hi, hi] if hi is not None else [0, 0]
        found = _solve(relations, free, box, work)
        points = []
        for f in found:
            work.spend()
            pt = _complete(f, done)
            if pt is not None and all(_value(p, pt) == 0 for p in polys):
                points.append(pt)
    except GiveUp:
        return None
    sols = []
    for pt in points:
        pairs = [(c, z3.IntVal(pt[i], c.ctx)) for i, c in enumerate(consts)]
        ok = [_holds(e, pairs) for e in rest]
        if None in ok:
            return None  # a conjunct the simplifier does not reduce to a truth value
        if all(ok):
            sols.append(pt)
    if loose and sols:
        # a variable bounded on at most one side and mentioned by nothing else: every
        # solution has infinitely many siblings along it
        if limit is None:
            return None
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    return _finish(sols, consts, limit)


def _complete(f: dict[int, int], done: list) -> dict[int, int] | None:
    """The eliminated variables' values, last eliminated first (None: not integers)."""
    pt = dict(f)
    for i, expr in reversed(done):
        v = _value(expr, pt)
        if v.denominator != 1:
            return None
        pt[i] = int(v)
    return pt


def _finish(points: list[dict[int, int]], consts: list, limit: int | None) -> list[SolModel]:
    if limit is not None and len(points) > limit:
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    ids = [c.get_id() for c in consts]
    all_consts = dict(zip(ids, consts, strict=True))
    sols = [SolModel({ids[i]: v for i, v in pt.items()}, all_consts) for pt in points]
    sols.sort(key=lambda sol: [_order_key(sol.values.get(k)) for k in ids])
    return sols
