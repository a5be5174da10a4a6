"""The ``algebraic`` enumeration backend: polynomial equation systems decided by algebra.

Why: see spec/realsolve.py. This module is the backend's glue: the shape test (a
conjunction of polynomial equations over Int/Real constants with at least one product
or power of unknowns, spec/polysystem.py), the call, and the answer in the form every
backend gives (``SolModel`` objects in canonical order, Z3's own value types: a Real
value is what ``z3_to_py`` makes of Z3's numeral for it, so the questions see the same
numbers as from a Z3 model).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import z3

from .outcome import Rejection
from .polysystem import polynomial_system
from .realsolve import solve_polynomials
from .solmodel import SolModel, z3_to_py
from .solmodel import solution_order_key as _order_key

__all__ = ["enumerate_algebraic"]


def _value(v: Fraction | str, const: Any) -> Any:
    if isinstance(v, str):  # an irrational coordinate's truncated decimal (spec/realpoints.py)
        return float(v)
    if const.is_int():
        return int(v)
    return z3_to_py(z3.RealVal(f"{v.numerator}/{v.denominator}", const.ctx))


def enumerate_algebraic(
    assertions: list, consts: list, limit: int | None
) -> list[SolModel] | int | None:
    """Every solution projected on ``consts`` (their complete set, sorted), when the
    algebra proves it (an irrational Real value as the decimal z3_to_py makes of a
    rational: 10 places, truncated; spec/realpoints.py); else the number of distinct
    real solutions when only that is proven (every constant Real: the Z3 enumeration
    may stop once it has found that many); else None (the shape does not fit or the
    algebra did not decide).

    Raises ``Rejection`` ("too many solutions") past ``limit``, as the other backends do.
    """
    polys = polynomial_system(assertions, consts)
    if polys is None or not any(sum(m) > 1 for p in polys for m in p):
        return None  # not polynomial equations, or linear ones (the Z3 backends' shape)
    got = solve_polynomials(polys, len(consts), [c.is_int() for c in consts])
    if got is None:
        return None
    found = len(got.points) if got.points is not None else got.real_count
    assert found is not None
    if limit is not None and found > limit:
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    if got.points is not None:
        points: list[tuple[Fraction | str, ...]] = list(got.points)
    elif got.real is not None:
        points = [pt.coords for pt in got.real]
    else:
        return found
    ids = [c.get_id() for c in consts]
    all_consts = dict(zip(ids, consts, strict=True))
    sols = [
        SolModel(
            {k: _value(v, c) for k, v, c in zip(ids, pt, consts, strict=True)},
            all_consts,
        )
        for pt in points
    ]
    sols.sort(key=lambda sol: [_order_key(sol.values.get(k)) for k in ids])
    return sols
