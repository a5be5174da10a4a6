"""Exact optimisation of a small linear program over the reals: HiGHS guesses, integers prove.

Why: a spec like 38-linearprog (random linear constraints over a few Real symbols, one
linear objective) spent most of an attempt in Z3's Optimize. A floating-point simplex
(HiGHS, through highspy) finds the optimal basis in a fraction of that time, but its
numbers are not exact, and a puzzle's answer must be. So HiGHS only *proposes* the set of
active constraints; the optimum is then recomputed and proved in exact integer arithmetic:

- primal: the active rows, solved exactly (fraction-free elimination), give a vertex
  that satisfies every row exactly;
- dual: the objective is a combination of the active rows with multipliers of the right
  signs, so no feasible point does better.

Both checks passing is a certificate of optimality that does not trust HiGHS at all. When
any check fails (degenerate vertex, rounding, a status we do not certify), the answer is
``None`` and the caller asks Z3, so the outcome is always Z3's outcome, only faster.

Strict rows (``a.x < b``): Z3 reports an optimum ``c - epsilon`` when a strict row caps the
objective. Here, a strict row that is tight at the vertex with a positive multiplier is
tight at *every* optimal point (complementary slackness), so the supremum is not attained
- unless the strict system has no solution at all (Z3: unsat), which a second certified
LP (maximise a common slack ``t`` of the strict rows) decides. Infeasibility of the closed
system is likewise proved by a certified phase-1 LP (minimise a common violation ``s``).

Rows are integer vectors; the objective is an integer vector (maximised).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from operator import mul

from .intlinalg import _rank, _solve, _solve_units, _split_solve

__all__ = ["LE", "LT", "EQ", "LpResult", "solve_lp"]

LE, LT, EQ = "le", "lt", "eq"  # a.x <= b, a.x < b, a.x == b

_local = threading.local()
#: Sparse (indices, values) of row vectors: bound rows recur in every LP of a spec.
_SPARSE: dict[tuple, tuple[list[int], list[float]]] = {}


def _highs():
    """One silent HiGHS instance per thread (instances are not thread-safe)."""
    h = getattr(_local, "h", None)
    if h is None:
        from highspy import _core  # the bare binding: the wrapper class prints a banner

        h = _core._Highs()
        for name, value in (
            ("output_flag", False),
            ("threads", 1),
            ("presolve", "off"),
            ("solver", "simplex"),
            ("random_seed", 0),
        ):
            h.setOptionValue(name, value)
        import numpy

        _local.h, _local.core, _local.np = h, _core, numpy
        # pybind enum members looked up once (each attribute access builds a wrapper)
        _local.optimal = _core.HighsModelStatus.kOptimal
        _local.ok = _core.HighsStatus.kOk
    return h


@dataclass(frozen=True)
class LpResult:
    """The certified outcome.

    status: "optimal" (value, point), "unattained" (value is the supremum, reached by no
    point satisfying the strict rows), "infeasible". ``unique`` (optimal only): True when
    the point is the only optimal one, False when there are others, None when undecided.
    """

    status: str
    value: Fraction | None = None
    point: tuple[Fraction, ...] | None = None
    unique: bool | None = None


Row = tuple[Sequence[int], int, str]


def solve_lp(rows: Sequence[Row], objective: Sequence[int], n: int) -> LpResult | None:
    """Maximise ``objective . x`` over ``rows`` (x free reals); None when not certified."""
    closed = [(a, b, EQ if k == EQ else LE) for a, b, k in rows]
    found = _certified_max(closed, objective, n)
    if found is None:
        if _last_status() != "infeasible":
            return None
        return LpResult("infeasible") if _farkas(closed, n) else _infeasible(rows, n)
    num, den, y, tight = found
    strict_tight = [i for i in tight if rows[i][2] == LT]
    value = Fraction(sum(map(mul, objective, num)), den)
    if not strict_tight:
        point = tuple([Fraction(v, den) for v in num])
        return LpResult("optimal", value, point, _unique(rows, n, y, tight))
    if not any(y.get(i, 0) > 0 for i in strict_tight):
        # another optimal point may leave the strict rows slack: look for one on the
        # optimal face (objective >= value), with the largest common strict slack
        face = list(rows) + [
            (tuple(-value.denominator * c for c in objective), -value.numerator, LE)
        ]
        found = _strict_slack(face, n, point=True)
        if found is None:
            return None
        slack, inner = found
        if slack > 0:
            return LpResult("optimal", value, inner, None)
        slack = _strict_slack(rows, n)
    else:
        if _strict_direction(rows, n, num, y, tight, strict_tight):
            return LpResult("unattained", value)
        slack = _strict_slack_hot(rows, n)  # HiGHS still holds the solved closed LP
    if slack is None:
        return None
    return LpResult("unattained", value) if slack > 0 else LpResult("infeasible")


def _strict_direction(
    rows: Sequence[Row], n: int, num: list[int], y: dict, tight: list[int], strict_tight: list[int]
) -> bool:
    """Prove the strict system solvable from the vertex alone, without another LP.

    Step from the vertex along d, the direction that loosens the tight strict rows among
    the active ones by the same amount and keeps every other active row tight
    (``B d = -1`` on those rows, 0 on the others). If every tight row then stays
    satisfied (an equality exactly, a non-strict row with ``a.d <= 0``, a strict row with
    ``a.d < 0``), a small enough step satisfies all rows, the strict ones strictly: the
    strict system has a solution. Usually true at a vertex that is not degenerate; when
    it is not shown, the slack LP decides. Exact integers throughout.
    """
    active = list(y)
    relax = set(strict_tight)
    sol = _solve_units(
        [list(rows[i][0]) for i in active], [-1 if i in relax else 0 for i in active]
    )
    if sol is None:
        return False
    dnum = sol[0]  # over a positive denominator: only the signs of a.d matter
    for i in tight:
        a, _, k = rows[i]
        g = sum(map(mul, a, dnum))
        if (k == EQ and g != 0) or (k == LE and g > 0) or (k == LT and g >= 0):
            return False
    return True


def _unique(rows: Sequence[Row], n: int, y: dict, tight: list[int]) -> bool | None:
    """Is the certified vertex the only optimal point?

    Every optimal point is tight on the rows S with a non-zero multiplier and on the
    equalities (complementary slackness). If S has rank n, the vertex is the only point
    of S's affine space: unique. If rank(S) < n and no other row is tight at the vertex,
    a small step along a direction of S's null space keeps S tight and every other row
    slack: another optimal point. Otherwise (a degenerate vertex) it is undecided.
    """
    pinned = [i for i in tight if rows[i][2] == EQ or y.get(i, 0) != 0]
    if _rank([list(rows[i][0]) for i in pinned], n) == n:
        return True
    pinned_set = set(pinned)
    if any(i not in pinned_set for i in tight):
        return None
    return False


def _farkas(rows: Sequence[Row], n: int) -> bool:
    """Prove the closed LP HiGHS just found infeasible from its dual ray (Farkas).

    The ray, read as small rationals, is a certificate if it checks exactly: multipliers
    y >= 0 on the inequality rows (any sign on equalities) with ``sum y_i a_i = 0`` and
    ``sum y_i b_i < 0`` - adding the rows so weighted gives ``0 <= negative``. When the
    reading does not check, the phase-1 LP decides (``_infeasible``).
    """
    got = _highs().getDualRay()
    if not got[1]:
        return False
    ray = got[2]
    support = [
        (i, Fraction(float(v)).limit_denominator(1 << 20))
        for i, v in enumerate(ray)
        if abs(v) > 1e-9
    ]
    if not support:
        return False
    scale = 1
    for _, v in support:
        scale = lcm(scale, v.denominator)
    for sign in (1, -1):
        ys = [(i, sign * int(v * scale)) for i, v in support]
        if any(rows[i][2] != EQ and y < 0 for i, y in ys):
            continue
        total = [0] * n
        for i, y in ys:
            for j, a in enumerate(rows[i][0]):
                if a:
                    total[j] += y * a
        if not any(total) and sum(y * rows[i][1] for i, y in ys) < 0:
            return True
    return False


def _infeasible(rows: Sequence[Row], n: int) -> LpResult | None:
    """Prove the closed system infeasible: the least common violation ``s`` is positive."""
    ext: list[Row] = []
    for a, b, k in rows:
        ext.append((tuple(a) + (-1,), b, LE))
        if k == EQ:
            ext.append((tuple(-v for v in a) + (-1,), -b, LE))
    ext.append(((0,) * n + (-1,), 0, LE))  # s >= 0
    found = _certified_max(ext, (0,) * n + (-1,), n + 1)
    if found is None:
        return None
    num, den, _, _ = found
    return LpResult("infeasible") if num[n] > 0 else None


def _slack_rows(rows: Sequence[Row], n: int) -> list[Row]:
    """The slack LP's rows: a column t added to every strict row, and the row t <= 1."""
    ext: list[Row] = [
        (tuple(a) + ((1,) if k == LT else (0,)), b, EQ if k == EQ else LE) for a, b, k in rows
    ]
    ext.append(((0,) * n + (1,), 1, LE))
    return ext


def _strict_slack(rows: Sequence[Row], n: int, point: bool = False):
    """The largest common slack t <= 1 of the strict rows (t > 0: the strict system is solvable).

    With ``point``: (t, a point reaching it).
    """
    found = _certified_max(_slack_rows(rows, n), (0,) * n + (1,), n + 1)
    if found is None:
        return None
    num, den, _, _ = found
    t = Fraction(num[n], den)
    return (t, tuple(Fraction(v, den) for v in num[:n])) if point else t


def _strict_slack_hot(rows: Sequence[Row], n: int) -> Fraction | None:
    """``_strict_slack`` from the closed LP HiGHS has just solved: one column more (t,
    in every strict row, t <= 1), the objective moved to t, and a hot start from the
    optimal basis (a third less time than a fresh model). Certified the same way."""
    h = _highs()
    core = _local.core
    np = _local.np
    strict = [i for i, (_, _, k) in enumerate(rows) if k == LT]
    h.changeColsCost(n, np.arange(n, dtype=np.int32), np.zeros(n))
    h.addCol(
        1.0,
        -core.kHighsInf,
        1.0,
        len(strict),
        np.array(strict, dtype=np.int32),
        np.ones(len(strict)),
    )
    h.run()
    if h.getModelStatus() != core.HighsModelStatus.kOptimal:
        return _strict_slack(rows, n)
    basis = h.getBasis()
    basic = core.HighsBasisStatus.kBasic
    cols = basis.col_status
    if any(cols[j] != basic for j in range(n)):
        return _strict_slack(rows, n)
    active = [i for i, st in enumerate(basis.row_status) if st != basic]
    if cols[n] != basic:
        active.append(len(rows))  # t at its bound: the row t <= 1
    if len(active) != n + 1:
        return _strict_slack(rows, n)
    found = certify(_slack_rows(rows, n), (0,) * n + (1,), n + 1, active)
    if found is None:
        return _strict_slack(rows, n)
    num, den, _, _ = found
    return Fraction(num[n], den)


def _last_status() -> str:
    h = _highs()
    return (
        "infeasible" if h.getModelStatus() == _local.core.HighsModelStatus.kInfeasible else "other"
    )


def _certified_max(rows: Sequence[Row], objective: Sequence[int], n: int):
    """HiGHS's optimal basis, proved exactly: (x numerators, denominator, multipliers, tight rows).

    Only ``LE``/``EQ`` rows. None when HiGHS does not report an optimum or the proof fails.
    """
    h = _highs()
    core = _local.core
    inf = core.kHighsInf
    m = len(rows)
    lp = core.HighsLp()
    lp.num_col_ = n
    lp.num_row_ = m
    lp.col_cost_ = [float(c) for c in objective]
    lp.col_lower_ = [-inf] * n
    lp.col_upper_ = [inf] * n
    lp.row_lower_ = [float(b) if k == EQ else -inf for _, b, k in rows]
    lp.row_upper_ = [float(b) for _, b, _ in rows]
    starts, index, value = [0], [], []
    for a, _, _ in rows:
        key = a if type(a) is tuple else tuple(a)
        sparse = _SPARSE.get(key)
        if sparse is None:
            sparse = _SPARSE[key] = ([j for j, v in enumerate(a) if v], [float(v) for v in a if v])
            if len(_SPARSE) > 4096:
                _SPARSE.clear()
        index += sparse[0]
        value += sparse[1]
        starts.append(len(index))
    mat = lp.a_matrix_
    mat.format_ = core.MatrixFormat.kRowwise
    mat.start_ = starts
    mat.index_ = index
    mat.value_ = value
    lp.a_matrix_ = mat
    lp.sense_ = core.ObjSense.kMaximize
    h.clearSolver()
    h.passModel(lp)
    h.run()
    if h.getModelStatus() != _local.optimal:
        return None
    # the basic variables (column j as j, row i as -1 - i): one int array, where
    # getBasis() gives one enum object per row and column
    status, basic_vars = h.getBasicVariables()
    if status != _local.ok:
        return None
    basic_rows = set()
    basic_cols = 0
    for v in basic_vars.tolist():
        if v < 0:
            basic_rows.add(-1 - v)
        else:
            basic_cols += 1
    if basic_cols != n:
        return None  # a free column held at a value: not a vertex we certify
    active = [i for i in range(m) if i not in basic_rows]
    if len(active) != n:
        return None
    return certify(rows, objective, n, active)


def certify(rows: Sequence[Row], objective: Sequence[int], n: int, active: list[int]):
    """Exact proof that the vertex of ``active`` rows maximises ``objective``, or None.

    Returns (numerators, denominator > 0, {row: multiplier}, tight rows); the
    multipliers are scaled by one positive number (only their signs are used).
    """
    mat = [list(rows[i][0]) for i in active]
    rhs = [rows[i][1] for i in active]
    split = _split_solve(mat, rhs, objective, n)
    if split is not None:
        num, den, ys = split
    else:
        sol = _solve(mat, rhs)
        if sol is None:
            return None
        num, den = sol
        ys = None
    tight = []
    for i, (a, b, k) in enumerate(rows):
        lhs = sum(map(mul, a, num))
        if lhs > b * den:
            return None
        if k == EQ and lhs != b * den:
            return None
        if lhs == b * den:
            tight.append(i)
    if ys is None:
        transposed = [[mat[r][c] for r in range(n)] for c in range(n)]
        dual = _solve(transposed, list(objective))
        if dual is None:
            return None
        ys = dual[0]  # over a positive denominator: the signs are the multipliers' signs
    y = {}
    for r, i in enumerate(active):
        if rows[i][2] != EQ and ys[r] < 0:
            return None
        y[i] = ys[r]
    return num, den, y, tight
