"""The Z3 optimum backends of an attempt: descent, Optimize, and the unique/canonical optimum.

Why apart from spec/backends.py (which orders them): each is a few Z3 calls whose
outcome rules (unattained bounds, multiple optima, a canonical configuration independent
of the reused context) are the subtle part, documented here once.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import z3

from .argmax import multiple_optima, needs_unique_optimum
from .fastz3 import collect_consts
from .operators import SolModel, z3_to_py
from .outcome import ExprFailure, Rejection, undecided
from .z3calls import new_solver, z3_check

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = ["descend", "finish_optimum", "optimize_with_z3", "attained", "number"]


def attained(objective: Any, value: Any) -> bool:
    """True when an Optimize objective's bound is a number that the model's value reaches."""
    bound, reached = number(objective.value()), number(value)
    return bound is not None and bound == reached


def unattained(objective: Any, kind: str) -> Rejection:
    """The rejection for an objective with no optimum (unbounded, or a bound not reached).

    Why reject: with a strict inequality active at the bound (``x < 3``), Z3 reports
    ``c - epsilon`` and a model at an arbitrary point short of the supremum; the original
    tool answers with that point's value (38-linearprog: 1-4 units off, e.g. -15638.92
    for an infimum of -15640.82), which is not "the maximum" the question asks for, and
    no configuration has the supremum either. Such an attempt defines a question without
    a right answer, so it is retried with fresh randomness like "no solution".
    """
    bound = str(objective.value())
    if "oo" in bound:
        return Rejection("unbounded objective", f"the objective has no {kind[:3]}imum: it is unbounded ({bound})")
    return Rejection("optimum not attained",
                     f"a strict inequality bounds the objective: its "
                     f"{'supremum' if kind == 'maximize' else 'infimum'} ({bound}) is approached but "
                     f"reached by no configuration, so the question has no exact answer")


def number(e: Any) -> Fraction | None:
    """The exact value of a Z3 integer or rational numeral (None for other terms)."""
    if z3.is_int_value(e):
        return Fraction(e.as_long())
    if z3.is_rational_value(e):
        return e.as_fraction()
    return None


def optimize_with_z3(a: Attempt, target: Any, kind: str) -> None:
    """The optimum by Z3's Optimize (any objective Z3 accepts)."""
    opt = z3.Optimize(ctx=a.z3s.ctx)
    opt.add(a.assertions)
    try:
        goal = (opt.minimize if kind == "minimize" else opt.maximize)(target)
    except z3.Z3Exception as exc:
        raise ExprFailure(a.spec.optimize["formula"], exc) from None  # type: ignore[index]
    r = a.budget.run(opt)
    if r == z3.unknown:
        raise Rejection("time limit", "optimizer gave up: " + opt.reason_unknown())
    if r != z3.sat:
        raise Rejection("no solution", "the optimization constraints have no solution")
    model = opt.model()
    value = model.evaluate(target, model_completion=True)
    if not attained(goal, value):
        raise unattained(goal, kind)
    finish_optimum(a, model, value, target, opt)


def descend(a: Attempt, target: Any, kind: str, max_steps: int = 500) -> tuple | None:
    """Optimise an integer objective by strict improvement with one incremental solver.

    Why: Z3's Optimize can stall for seconds on piecewise objectives built from nested
    If terms (corpus spec 46-elevator) that a plain solver settles in a few steps.
    The optimum is the same; None (too many steps) falls back to Optimize.
    """
    s = new_solver(a)
    s.add(a.assertions)
    if z3_check(a, s) != z3.sat:
        raise Rejection("no solution", "the optimization constraints have no solution")
    model = s.model()
    value = model.evaluate(target, model_completion=True)
    for _ in range(max_steps):
        s.push()
        s.add(target < value if kind == "minimize" else target > value)
        r = z3_check(a, s)
        if r != z3.sat:
            s.pop()
            return model, value
        model = s.model()
        value = model.evaluate(target, model_completion=True)
        s.pop()
    return None


def finish_optimum(a: Attempt, model: Any, value: Any, target: Any, holder: Any = None) -> None:
    """Store _value and one optimal configuration as _solutions.

    Several optimal configurations are a rejection (``multiple optima``) when the spec
    says ``max_solution: 1`` or its question reads the configuration (spec/argmax.py;
    stricter than the original, which only checks ``max_solution``), and a check Z3
    leaves undecided is ``uniqueness undecided``. Otherwise the configuration kept must
    not depend on the model Z3 returns in the reused context, so it is re-derived in
    a fresh context (``_canonical_optimum``).

    The value is the optimum that Optimize's bound states (a bound the model does not
    reach is rejected before, see ``unattained``). ``holder``: the solved Optimize, which
    already holds the assertions, runs the multiple-optima check (only its sat/unsat
    answer is used) instead of a new solver re-asserting them.
    """
    # projected on every constant of the problem, each with a value (model completion
    # for one Z3 eliminated), so the check does not depend on which model Z3 returned
    consts = collect_consts(list(a.assertions) + [target])
    vals = [model.eval(c, model_completion=True) for c in consts]
    sol = SolModel({c.get_id(): z3_to_py(v) for c, v in zip(consts, vals, strict=False)},
                   {c.get_id(): c for c in consts}, model)
    if holder is not None:
        check = holder
    else:
        check = new_solver(a)
        check.add(a.assertions)
    check.add(target == value)
    block = [c != v for c, v in zip(consts, vals, strict=False)]
    if block:
        check.add(z3.Or(block))
        r = a.budget.run(check)
        if r == z3.unknown:
            raise undecided(f"Z3 could not decide whether another configuration reaches the "
                            f"optimum {value} ({check.reason_unknown()})")
        if r == z3.sat:
            if needs_unique_optimum(a.spec):
                raise multiple_optima(value)
            sol = _canonical_optimum(a, consts, target, value)
    a.env["_value"] = value
    a.env["_solutions"] = sol


def _canonical_optimum(a: Attempt, consts: list, target: Any, value: Any) -> SolModel:
    """One optimal configuration that depends only on the attempt, not on context state.

    Why a fresh context: Z3's choice among several models depends on the terms its
    context already holds, and the family reuses one context across puzzles. A new
    context holding only this problem (translated), seeded with the attempt's Z3 seed,
    returns the same model whatever ran before.
    """
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("random_seed", a.z3_seed)
    solver.add([x.translate(ctx) for x in a.assertions])
    solver.add(target.translate(ctx) == value.translate(ctx))
    if z3_check(a, solver) != z3.sat:
        raise Rejection("solver gave up", "the optimum could not be re-derived")
    m = solver.model()
    vals = {c.get_id(): z3_to_py(m.eval(c.translate(ctx), model_completion=True)) for c in consts}
    return SolModel(vals, {c.get_id(): c for c in consts}, None)
