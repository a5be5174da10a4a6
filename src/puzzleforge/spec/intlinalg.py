"""Exact linear algebra over integer matrices: rank, and square solves as numerators over
one denominator.

Why a module of its own: spec/lp.py proves a floating-point simplex's answer exactly; the
proof needs only these few integer computations (fraction-free elimination, unit rows
substituted first, the vertex and its multipliers when most active rows are bounds),
which know nothing of LPs, HiGHS or rows' senses. Integers throughout: no rounding.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import lcm

__all__ = ["_rank", "_solve", "_solve_fraction", "_solve_units", "_split_solve"]


def _rank(mat: list[list[int]], n: int) -> int:
    """Rank of an integer matrix (integer elimination; the matrices have at most ~10 columns)."""
    rows = [r[:] for r in mat]
    rank = 0
    for col in range(n):
        p = next((r for r in range(rank, len(rows)) if rows[r][col]), None)
        if p is None:
            continue
        rows[rank], rows[p] = rows[p], rows[rank]
        pivot = rows[rank]
        pk = pivot[col]
        for r in range(rank + 1, len(rows)):
            f = rows[r][col]
            if f:
                rows[r] = [x * pk - f * v for x, v in zip(rows[r], pivot, strict=False)]
        rank += 1
    return rank


def _unit_rows(mat: list[list[int]]) -> tuple[dict[int, int], list[int]]:
    """Rows with a single +-1 entry (column -> its first such row), and the other rows."""
    unit: dict[int, int] = {}
    rest: list[int] = []
    for r, row in enumerate(mat):
        j = -1
        for col, v in enumerate(row):
            if v:
                if j >= 0 or v not in (1, -1):
                    j = -2
                    break
                j = col
        if j >= 0 and j not in unit:
            unit[j] = r
        else:
            rest.append(r)
    return unit, rest


def _split_solve(mat: list[list[int]], rhs: list[int], objective: Sequence[int], n: int):
    """Vertex and multipliers when some active rows are unit bounds (``x <= 30``); else None.

    Why: most active rows of a boxed problem are its bounds. Each fixes its variable; only
    the other rows need an elimination, over the other variables (often none at all), and
    the bounds' multipliers follow from the objective's columns. Integers throughout
    (bounds with a coefficient other than +-1 take the general path). The result is the
    same exact vertex, and multipliers with the same signs (scaled by a positive number).
    Returns (numerators, denominator > 0, multiplier numerators per active row).
    """
    unit, rest = _unit_rows(mat)  # column -> the active row bounding it alone; the others
    if not unit:
        return None
    free = [j for j in range(n) if j not in unit]
    if len(rest) != len(free):
        return None
    fixed = {j: rhs[r] * mat[r][j] for j, r in unit.items()}  # x_j = rhs / (+-1)
    if free:
        reduced = [[mat[r][j] for j in free] for r in rest]
        reduced_rhs = [rhs[r] - sum(mat[r][j] * v for j, v in fixed.items()) for r in rest]
        sol = _solve(reduced, reduced_rhs)
        if sol is None:
            return None
        free_num, den = sol
        dual = _solve([[mat[r][j] for r in rest] for j in free], [objective[j] for j in free])
        if dual is None:
            return None
        ynum, yden = dual
    else:
        free_num, den, ynum, yden = [], 1, [], 1
    num = [0] * n
    for j, v in zip(free, free_num, strict=False):
        num[j] = v
    for j, v in fixed.items():
        num[j] = v * den
    ys = [0] * len(mat)
    for r, v in zip(rest, ynum, strict=False):
        ys[r] = v
    for j, r in unit.items():  # objective_j = y_r * a_rj + sum over the other rows
        ys[r] = (objective[j] * yden - sum(ys[k] * mat[k][j] for k in rest)) * mat[r][j]
    return num, den, ys


def _solve_units(mat: list[list[int]], rhs: list[int]) -> tuple[list[int], int] | None:
    """``_solve`` of a square system, with its unit rows (one +-1) substituted first.

    A unit row fixes its column; only the other rows need an elimination, over the other
    columns. The matrix is block-triangular that way, so it is singular exactly when the
    reduced one is, and the solution is the same (over another positive denominator).
    """
    n = len(mat)
    unit, rest = _unit_rows(mat)
    if not unit:
        return _solve(mat, rhs)
    free = [j for j in range(n) if j not in unit]
    if len(rest) != len(free):
        return _solve(mat, rhs)
    fixed = {j: rhs[r] * mat[r][j] for j, r in unit.items()}  # x_j = rhs / (+-1)
    if free:
        sol = _solve(
            [[mat[r][j] for j in free] for r in rest],
            [rhs[r] - sum(mat[r][j] * v for j, v in fixed.items()) for r in rest],
        )
        if sol is None:
            return None
        free_num, den = sol
    else:
        free_num, den = [], 1
    num = [0] * n
    for j, v in zip(free, free_num, strict=False):
        num[j] = v
    for j, v in fixed.items():
        num[j] = v * den
    return num, den


def _solve(mat: list[list[int]], rhs: list[int]) -> tuple[list[int], int] | None:
    """x = num / den (den > 0) with ``mat . x = rhs``, exactly; None if singular.

    Fraction-free Gauss-Jordan elimination (Bareiss): every intermediate entry is a minor
    of the augmented matrix, so the divisions are exact and the numbers stay integers.
    """
    n = len(mat)
    if n <= 2:  # the elimination's result written out (Cramer: the minors over |det|)
        if n == 1:
            a = mat[0][0]
            return None if a == 0 else ([rhs[0]], a) if a > 0 else ([-rhs[0]], -a)
        if n == 2:
            (a, b), (c, d) = mat
            det = a * d - b * c
            if det == 0:
                return None
            e, f = rhs
            if det > 0:
                return [e * d - b * f, a * f - c * e], det
            return [b * f - e * d, c * e - a * f], -det
    aug = [row[:] + [b] for row, b in zip(mat, rhs, strict=False)]
    prev = 1
    for k in range(n):
        p = next((r for r in range(k, n) if aug[r][k]), None)
        if p is None:
            return None
        if p != k:
            aug[k], aug[p] = aug[p], aug[k]
        pivot = aug[k]
        pk = pivot[k]
        for r in range(n):
            if r == k:
                continue
            row = aug[r]
            f = row[k]
            aug[r] = [(x * pk - f * y) // prev for x, y in zip(row, pivot, strict=False)]
        prev = pk
    den = prev
    num = [aug[r][n] for r in range(n)]
    # after full elimination every diagonal entry equals the determinant (up to the row
    # swaps' sign, already in ``prev``): x_r = aug[r][n] / aug[r][r]
    diag = [aug[r][r] for r in range(n)]
    if any(d != den for d in diag):
        return _solve_fraction(mat, rhs)
    if den < 0:
        den, num = -den, [-v for v in num]
    return num, den


def _solve_fraction(mat: list[list[int]], rhs: list[int]) -> tuple[list[int], int] | None:
    """The same solve with Fractions (a safety net if the integer form does not apply)."""
    n = len(mat)
    aug = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(mat, rhs, strict=False)]
    for k in range(n):
        p = next((r for r in range(k, n) if aug[r][k]), None)
        if p is None:
            return None
        aug[k], aug[p] = aug[p], aug[k]
        pk = aug[k][k]
        aug[k] = [v / pk for v in aug[k]]
        for r in range(n):
            if r != k and aug[r][k]:
                f = aug[r][k]
                aug[r] = [x - f * y for x, y in zip(aug[r], aug[k], strict=False)]
    xs = [aug[r][n] for r in range(n)]
    den = 1
    for x in xs:
        den = lcm(den, x.denominator)
    return [int(x * den) for x in xs], den
