"""The optimum of a linear Real-valued attempt without Z3: spec/linear.py rows, spec/lp.py proof.

Why: see spec/lp.py. This is the attempt-side half: it turns the attempt's rows and
objective into an exact LP, and the certified outcome into exactly what the Z3 path
(spec/optimum.py: Optimize, ``unattained``, ``finish_optimum``) produces - the same
rejection reasons, the same ``_value`` and the same values in ``_solutions`` - or hands the
attempt back to Z3 when the proof is not available (the formulas are evaluated again as
Z3 terms, exactly as if this mode had never run).

One difference is allowed by the format: when several points reach the optimum (and the
question reads only the value, spec/argmax.py), ``_solutions`` is the certified optimal point
(with an exact model) instead of the point Z3 returns in a fresh context (float values only). Both
are optimal configurations; the optimum value is the same.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import z3

from .argmax import multiple_optima, needs_unique_optimum
from .columnmode import column_solved, term_eval, to_z3
from .linear import Lin, _union
from .lp import solve_lp
from .operators import SolModel
from .outcome import Rejection

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = ["linear_optimize", "decimal_float"]


def linear_optimize(a: Attempt, kind: str) -> bool:
    """Decide the optimum over linear rows; False (Z3 assertions made) when not certified."""
    st = a.col
    try:
        target, _ = term_eval(a, a.spec.optimize["formula"])  # type: ignore[index]
    except Exception:  # noqa: BLE001 - Fallback or any error: Z3 decides and reports it
        target = None
    n = len(st.index)
    if type(target) is not Lin:
        to_z3(a)
        return False
    a.check_time()
    rows = []
    for root in st.roots:
        for coef, b, k in root:
            rows.append((coef if len(coef) == n else (0,) * n, b, k))
    sign = 1 if kind == "maximize" else -1
    res = solve_lp(rows, [sign * c for c in target.coef], n)
    unique_needed = needs_unique_optimum(a.spec)  # spec/argmax.py
    if res is None or (res.status == "optimal" and res.unique is None and unique_needed):
        to_z3(a)  # not proved, or uniqueness undecided where it matters: Z3 decides
        return False
    column_solved(a)
    a.col = None  # done: no cycle through the attempt keeps the forms
    if res.status == "infeasible":
        raise Rejection("no solution", "the optimization constraints have no solution")
    assert res.value is not None  # feasible: spec/lp.py states the optimum's value
    value = Fraction(sign * res.value + target.const)
    if res.status == "unattained":
        raise Rejection(
            "optimum not attained",
            f"a strict inequality bounds the objective: its "
            f"{'supremum' if kind == 'maximize' else 'infimum'} ({_text(value)}) is "
            f"approached but reached by no configuration, so the question has no exact answer",
        )
    ctx = a.sym_consts[0].ctx
    if not res.unique and unique_needed:
        raise multiple_optima(_real(value, ctx))
    point = res.point
    assert point is not None  # an attained optimum has its point
    by_id = {c._pf_id: (i, c) for i, c in enumerate(a.sym_consts)}
    order = _union(st.seen, target.seen)
    values, consts, exact = {}, {}, []
    for pid in order:
        i, c = by_id[pid]
        values[pid] = decimal_float(point[i])
        consts[pid] = c
        exact.append((c, point[i]))
    a.env["_value"] = _real(value, ctx)
    # an exact model, as Z3's path keeps Optimize's model for a unique optimum (so
    # ``_solutions.evaluate(3 * y)`` is exact; with several optima Z3's path re-derives
    # another optimal point and keeps its float values only)
    a.env["_solutions"] = SolModel(values, consts, _ExactModel(ctx, exact))
    return True


class _ExactModel:
    """A Z3 model of the optimal point, made only if a spec evaluates an expression with it."""

    __slots__ = ("ctx", "point", "model")

    def __init__(self, ctx: Any, point: list[tuple[Any, Fraction]]) -> None:
        self.ctx = ctx
        self.point = point
        self.model: Any = None

    def evaluate(self, expr: Any, model_completion: bool = False) -> Any:
        if self.model is None:
            self.model = z3.Model(self.ctx)
            for c, v in self.point:
                self.model.update_value(c, _real(v, self.ctx))
        return self.model.evaluate(expr, model_completion=model_completion)


_TEN_DIGITS = 10**10


def decimal_float(v: Fraction) -> float:
    """``z3_to_py`` of the Z3 numeral ``v``, without Z3.

    Z3 prints a rational with 10 decimals, truncated (``as_decimal(10)``, "?" if inexact),
    and z3_to_py reads that text as a float: the truncated value, correctly rounded, which
    is what true division of the truncated integer gives (tests/spec/test_spec_lp.py).
    """
    q = abs(v.numerator) * _TEN_DIGITS // v.denominator
    x = q / _TEN_DIGITS
    return -x if v.numerator < 0 else x


def _real(v: Fraction, ctx: Any) -> Any:
    """The Z3 rational numeral of ``v`` (what Z3's model would hold)."""
    return z3.RealVal(f"{v.numerator}/{v.denominator}", ctx)


def _text(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
