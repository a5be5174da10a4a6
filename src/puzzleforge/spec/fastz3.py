"""Thin, fast paths over the Z3 C API for solution enumeration.

Why: enumerating thousands of models through the Python wrappers spends more time in
wrapper objects (``model[d]``, ``c != v``, ``Or(list)``, ``is_true``...) than in the
solver itself. Reading a model's values and asserting its blocking clause here uses the
C API directly on the raw ASTs, with explicit reference counting.
"""
from __future__ import annotations

import ctypes
from fractions import Fraction
from typing import Any, Sequence

import z3
from z3 import z3core as zc

__all__ = ["collect_consts", "read_model", "add_block"]

_BOOL = z3.Z3_BOOL_SORT
_INT = z3.Z3_INT_SORT
_REAL = z3.Z3_REAL_SORT


def collect_consts(exprs: Sequence[Any]) -> list:
    """Uninterpreted constants occurring in ``exprs`` (in first-seen order)."""
    seen: set[int] = set()
    out: dict[int, Any] = {}
    stack = list(reversed(list(exprs)))
    while stack:
        e = stack.pop()
        i = e.get_id()
        if i in seen:
            continue
        seen.add(i)
        if z3.is_const(e):
            if e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
                out[i] = e
        else:
            stack.extend(reversed(e.children()))
    return list(out.values())


def read_model(model: Any, consts: Sequence[Any], decl_asts: Sequence[Any],
               sort_kinds: Sequence[int]) -> tuple[list, list]:
    """Python values and raw value ASTs of ``consts`` in ``model`` (None when absent)."""
    cref = model.ctx.ref()
    m = model.model
    values: list = []
    raws: list = []
    for d, kind in zip(decl_asts, sort_kinds):
        a = zc.Z3_model_get_const_interp(cref, m, d)
        if not a:
            values.append(None)
            raws.append(None)
            continue
        raws.append(a)
        if kind == _BOOL:
            values.append(zc.Z3_get_bool_value(cref, a) == 1)
        elif kind == _INT and zc.Z3_is_numeral_ast(cref, a):
            values.append(int(zc.Z3_get_numeral_string(cref, a)))
        elif kind == _REAL and zc.Z3_is_numeral_ast(cref, a):
            values.append(float(Fraction(zc.Z3_get_numeral_string(cref, a))))
        else:
            values.append(_slow(model, a))
    return values, raws


def _slow(model: Any, a: Any) -> Any:
    from .operators import z3_to_py

    return z3_to_py(z3._to_expr_ref(a, model.ctx))


def add_block(solver: Any, const_asts: Sequence[Any], raws: Sequence[Any]) -> bool:
    """Assert Or(c_i != v_i) over the constants that have a value; False if none had one."""
    ctx = solver.ctx
    cref = ctx.ref()
    lits = []
    for c, v in zip(const_asts, raws):
        if v is None:
            continue
        eq = zc.Z3_mk_eq(cref, c, v)
        zc.Z3_inc_ref(cref, eq)
        ne = zc.Z3_mk_not(cref, eq)
        zc.Z3_inc_ref(cref, ne)
        zc.Z3_dec_ref(cref, eq)
        lits.append(ne)
    if not lits:
        return False
    arr = (z3.Ast * len(lits))(*lits)
    clause = zc.Z3_mk_or(cref, len(lits), arr)
    zc.Z3_inc_ref(cref, clause)
    zc.Z3_solver_assert(cref, solver.solver, clause)
    zc.Z3_dec_ref(cref, clause)
    for ne in lits:
        zc.Z3_dec_ref(cref, ne)
    return True


_ = ctypes  # ctypes arrays come from z3.Ast
