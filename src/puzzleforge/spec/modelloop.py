"""The one loop every Z3 enumeration runs: model after model, each blocked, until none is left.

Why one helper: the general Z3 backend (spec/backends.py) and the nonlinear path
(spec/nonlinear.py) differ only in how they get the next model (which solvers, which work
slices); reading a model, completing the values Z3 eliminated, the ``max_solution``
limit, blocking, and what an undecided check means (issue 23: proof or nothing) must be
the same for both, so they live here once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3
import z3.z3core as zc

from .fastz3 import read_model
from .outcome import Rejection, undecided
from .solmodel import SolModel, ValuesModel, z3_to_py

__all__ = ["collect_models", "undecided_check"]


def undecided_check(found: int, why: str = "") -> Rejection:
    """The rejection of a check Z3 left undecided after ``found`` solutions.

    With a solution found, the question is whether another exists: undecided means no
    proof of uniqueness, so no puzzle (``uniqueness undecided``, its own reason). With
    none found yet the attempt has no model at all within its work: ``time limit``.
    """
    if found:
        return undecided(
            f"Z3 could not decide whether a solution beyond the {found} found "
            f"exists{f' ({why})' if why else ''}"
        )
    return Rejection("time limit", "solver time budget exhausted")


def collect_models(
    attempt: Any,
    consts: list,
    kinds: list,
    limit: int | None,
    next_model: Callable[[int], Any],
    block: Callable[[list, list], bool],
) -> list[SolModel]:
    """Every solution projected on ``consts``, in the order found.

    ``next_model(n)``: the next model after ``n`` solutions, None when the solver proved
    there is none (it raises ``undecided_check(n, ...)`` when it cannot decide).
    ``block(const_asts, raws)``: excludes the solution just read from every solver the
    loop uses; False when it cannot be excluded (then the set is complete as it is).
    Values Z3 eliminated as unconstrained are completed from the model, so the set is
    the complete projected solution set whatever models Z3 returns.
    """
    decl_asts = [c.decl().ast for c in consts]
    const_asts = [c.as_ast() for c in consts]
    ids = [c.get_id() for c in consts]
    all_consts = dict(zip(ids, consts, strict=False))
    sols: list[SolModel] = []
    # Int and Bool values are exact: a model rebuilt from them can stand in for Z3's
    exact = all(k in (z3.Z3_INT_SORT, z3.Z3_BOOL_SORT) for k in kinds)
    while True:
        attempt.check_time()
        model = next_model(len(sols))
        if model is None:
            return sols
        values, raws = read_model(model, consts, decl_asts, kinds)
        keep = []
        if None in values:
            for j, v in enumerate(values):
                if v is None:
                    e = model.eval(consts[j], model_completion=True)
                    keep.append(e)  # holds the AST alive until the block is asserted
                    raws[j] = e.as_ast()
                    values[j] = z3_to_py(e)
        vals = dict(zip(ids, values, strict=False))
        sols.append(SolModel(vals, all_consts, _kept(model, vals, all_consts, exact)))
        if limit is not None and len(sols) > limit:
            raise Rejection("too many solutions", f"more than max_solution = {limit}")
        if not block(const_asts, raws):
            return sols
        del keep


def _kept(model: Any, values: dict[int, Any], consts: dict[int, Any], exact: bool) -> Any:
    """What a solution keeps to evaluate expressions: ``model`` itself, or a
    ``ValuesModel`` where that evaluates identically (spec/solmodel.py) and frees the
    solver's model at once. Identical when the values are exact and the model (after
    the completion above) interprets exactly these constants and no function."""
    if not exact:
        return model
    cref, m = model.ctx.ref(), model.model
    if zc.Z3_model_get_num_funcs(cref, m) or zc.Z3_model_get_num_consts(cref, m) != len(consts):
        return model
    return ValuesModel(values, consts)
