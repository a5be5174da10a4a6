"""The Z3 calls every solving step of an attempt shares: a seeded solver, a budgeted check,
a model read.

Why one module: the solver's logic choice, its random seed (config ``_z3_seed``) and the
work budget (spec/budget.py) must be the same wherever the attempt calls Z3.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import z3
from z3 import z3core as zc

from .fastz3 import is_lia
from .operators import SolModel, z3_to_py
from .outcome import Rejection
from .symbols import sort_kind
from .z3space import solver_for

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = ["new_solver", "z3_check", "to_sol"]


def new_solver(a: Attempt) -> Any:
    """A solver for the attempt's Z3 model: QF_LIA when it is linear over Bool/Int constants."""
    kinds = {sort_kind(c) for c in a.sym_consts}
    linear = bool(kinds) and kinds <= {z3.Z3_BOOL_SORT, z3.Z3_INT_SORT} and is_lia(a.assertions)
    ctx = a.z3s.ctx
    s = solver_for("QF_LIA", ctx) if linear else z3.Solver(ctx=ctx)
    s.set("random_seed", a.z3_seed)
    return s


def z3_check(a: Attempt, solver: Any) -> Any:
    """``solver.check()`` within the attempt's budget; unknown is a rejection."""
    r = a.budget.run(solver)
    if r == z3.unknown:
        if a.budget.exhausted:
            raise Rejection("time limit", "solver work budget exhausted")
        raise Rejection("solver gave up", solver.reason_unknown())
    return r


def to_sol(model: Any) -> SolModel:
    """Every constant of ``model`` with its Python value, in the model's order.

    Read through the C API (``model.decls()`` / ``model[d]`` / ``d()`` built three
    wrapper objects per constant, 1 ms per attempt on 11-wine); values as ``z3_to_py``.
    """
    ctx = model.ctx
    cref, m = ctx.ref(), model.model
    values: dict[int, Any] = {}
    consts: dict[int, Any] = {}
    for i in range(zc.Z3_model_get_num_consts(cref, m)):
        d = zc.Z3_model_get_const_decl(cref, m, i)
        c = z3.z3._to_expr_ref(zc.Z3_mk_app(cref, d, 0, None), ctx)  # holds a reference
        cid = c.get_id()
        a = zc.Z3_model_get_const_interp(cref, m, d)
        kind = zc.Z3_get_sort_kind(cref, zc.Z3_get_range(cref, d))
        if not a:  # no interpretation (as ``model[d]``: None)
            values[cid] = None
        elif kind == z3.Z3_INT_SORT and zc.Z3_is_numeral_ast(cref, a):
            values[cid] = int(zc.Z3_get_numeral_string(cref, a))
        elif kind == z3.Z3_BOOL_SORT and zc.Z3_get_bool_value(cref, a) != z3.Z3_L_UNDEF:
            values[cid] = zc.Z3_get_bool_value(cref, a) == z3.Z3_L_TRUE
        else:
            values[cid] = z3_to_py(z3.z3._to_expr_ref(a, ctx))
        consts[cid] = c
    return SolModel(values, consts, model)
