"""Stage 4b of an attempt: the ordered backend lists that decide a constraint model.

Why one ordered list per question: a reader finds here, in one place, every way an
attempt's constraints can be decided and the test that says when each applies. The
first backend whose test passes and that reaches a decision wins; a backend that does
not apply (or gives up without deciding) returns None and the next one is tried. Every
backend returns the same answer (the complete projected solution set in canonical order,
or the optimum); they differ only in speed. No backend that uses floating point decides
anything: the exact LP certifies its optimum in rationals (spec/lp.py), the finite
backends evaluate integers exhaustively, and Z3 is exact.

The constraint model has two representations (spec/columnmode.py): the *term model*
(Python-built terms, for finite-domain or linear Real problems, made while the
conditions are evaluated) and the *Z3 model* (``a.assertions``). A term backend that
cannot decide turns the term model into the Z3 model (the formulas are evaluated again
as Z3 terms) before the Z3 backends run.

Where each operator is evaluated, one place per backend:

========================  ======================================================
backend                    operator table
========================  ======================================================
finite (terms)             spec/terms.py ``DISPATCH`` -> spec/finite.py evaluator
exact LP (terms)           spec/linear.py ``LIN_DISPATCH`` -> spec/lp.py
finite (Z3 terms)          spec/finite.py ``_compile`` (Z3 AST walk) -> evaluator
Z3 (nonlinear, LIA, FD)    spec/operators.py ``Z3_EXPORTS`` (Z3's own operators)
========================  ======================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import z3

from . import columnmode, lpmode, optimum
from .algebraic import enumerate_algebraic
from .budget import (
    BUDGET_DECIDES_KEY,
    NONLINEAR_CHECK_MS,
    NONLINEAR_SOLVER_PARAMS,
    NONLINEAR_UNITS_PER_MS,
    UNITS_PER_MS,
    FreshContextNeeded,
)
from .fastz3 import (
    add_block,
    collect_consts,
    const_ids,
    is_lia,
    is_nonlinear_int,
    is_nonlinear_real,
)
from .finite import FiniteWalk, compile_finite, walk_finite
from .intbound import enumerate_int_bound
from .linearise import linearise_products
from .model import finite_optimum, finite_sols
from .modelloop import collect_models, undecided_check
from .nonlinear import LATER_CHECK_MS, ProbeDecided, enumerate_nonlinear
from .operators import SolModel
from .operators import solution_order_key as _order_key
from .outcome import Rejection
from .satenum import sat_solutions
from .z3space import solver_for

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = [
    "Backend",
    "ENUMERATE",
    "Projection",
    "enumerate_solutions",
    "optimize_terms",
    "optimize_z3",
    "budget_rate",
]

#: Work kept back from a nonlinear "one more?" check (it ends the attempt either way now:
#: undecided is a rejection; the reserve only keeps such attempts from using the last
#: units, so their cost stays what it was).
LATER_RESERVE_MS = 1500
#: Work slice of the first check of a Z3 logic that has a fallback after it.
FIRST_CHECK_MS = 2000


@dataclass(frozen=True)
class Backend:
    """One way to decide a model: its name, when it applies (documented), the function."""

    name: str
    applies: str
    run: Callable[..., Any]


@dataclass
class Projection:
    """The Z3 model to enumerate, projected on the symbol constants that occur in it.

    ``walk``: the finite evaluator's compiled form when spec/finite.py accepts the
    assertions (found while looking for the constants that occur); ``linear``: every
    constant Bool/Int and the arithmetic linear (QF_LIA); ``int_only``: Bool/Int only.
    """

    assertions: list
    consts: list
    kinds: list
    walk: FiniteWalk | None
    linear: bool
    int_only: bool
    #: the nonlinear backend's probe, when it decided the first check: the general Z3
    #: backend continues from it (nonlinear.ProbeDecided)
    warm: ProbeDecided | None = None
    #: the number of distinct real solutions, when the algebraic backend proved only that:
    #: the Z3 enumeration ends once it has found that many (no last "one more?" check)
    count: int | None = None


class _FallBack(Exception):
    """The specialised Z3 logic could not decide; use the next backend."""


# ---- enumeration: all solutions ------------------------------------------------------------
def project(a: Attempt, assertions: list) -> Projection:
    """The constants of ``assertions`` among the symbols' (every one gets a value, with
    model completion where Z3 eliminated it, so the set is the complete projected
    solution set whatever models Z3 returns)."""
    seen = a.finite_walk  # the pre-check's walk of these very assertions (spec/model.py)
    if seen is not None and seen[0] is assertions and seen[1] == len(assertions):
        walk = seen[2]
    else:
        walk = walk_finite(assertions, a.sym_consts) if a.sym_consts else None
    if walk is not None:
        consts, kinds = walk.consts, walk.kinds
    else:
        present = const_ids(assertions)
        consts = (
            [c for c in a.sym_consts if c.get_id() in present]
            if a.sym_consts
            else collect_consts(assertions)
        )
        kinds = [c.sort().kind() for c in consts]
    int_only = all(k in (z3.Z3_BOOL_SORT, z3.Z3_INT_SORT) for k in kinds)
    return Projection(assertions, consts, kinds, walk, int_only and is_lia(assertions), int_only)


def _finite_z3(a: Attempt, p: Projection, limit: int | None) -> list[SolModel] | None:
    a.check_time()
    if p.walk is not None:
        res = p.walk.evaluate(limit)
    else:
        res = compile_finite(p.assertions, p.consts, p.kinds, limit=limit)
    if res is None:
        return None
    prob, _ = res
    if prob.too_many or (limit is not None and len(prob.rows) > limit):
        raise Rejection("too many solutions", f"more than max_solution = {limit}")
    return finite_sols(prob, p.consts, prob.rows)


def _sat(a: Attempt, p: Projection, limit: int | None) -> list[SolModel] | None:
    if not p.int_only:
        return None
    a.check_time()
    return sat_solutions(p.assertions, p.consts, p.kinds, limit)


def _linearise(a: Attempt, p: Projection, limit: int | None) -> None:
    """Not a decision: the Z3 backends after it get the linear form (spec/linearise.py)."""
    if p.int_only and not p.linear:
        lin = linearise_products(p.assertions, p.consts, p.kinds)
        if lin is not None:
            p.assertions, p.linear = lin, True
    return None


def _algebraic(a: Attempt, p: Projection, limit: int | None) -> list[SolModel] | None:
    if p.linear:
        return None
    a.check_time()
    got = enumerate_algebraic(p.assertions, p.consts, limit)
    if isinstance(got, int):
        p.count = got
        return None
    return got


def _int_bound(a: Attempt, p: Projection, limit: int | None) -> list[SolModel] | None:
    if p.linear or not p.int_only:
        return None
    a.check_time()
    return enumerate_int_bound(p.assertions, p.consts, limit)


def _nonlinear(a: Attempt, p: Projection, limit: int | None) -> list[SolModel] | None:
    if p.linear:
        return None
    got = enumerate_nonlinear(a, p.assertions, limit, p.consts, p.kinds)
    if isinstance(got, ProbeDecided):
        p.warm = got
        return None
    return got


def _z3_logic(logic: str | None) -> Callable[..., Any]:
    def run(a: Attempt, p: Projection, limit: int | None) -> list[SolModel] | None:
        if logic is not None and not p.linear:
            return None
        later = LATER_RESERVE_MS if not p.linear and p.int_only else None
        try:
            sols = _enumerate_z3(
                a,
                p,
                limit,
                logic,
                FIRST_CHECK_MS if logic else None,
                later,
                None if logic else p.warm,
            )
        except _FallBack:
            return None
        ids = [c.get_id() for c in p.consts]
        sols.sort(key=lambda sol: [_order_key(sol.values.get(k)) for k in ids])
        return sols

    return run


#: The backends that enumerate a Z3 model, in order (the term model's backends,
#: ``columnmode.enumerate_terms``: exhaustive finite evaluation, else SAT from the terms
#: (spec/termsat.py), run before them: see ``enumerate_solutions``).
ENUMERATE: tuple[Backend, ...] = (
    Backend(
        "finite",
        "every constant Bool/Int, every operator one spec/finite.py models, and each "
        "Int bounded by the constraints to a domain small enough to evaluate exhaustively "
        "(the compile itself is the test)",
        _finite_z3,
    ),
    Backend(
        "sat",
        "every constant Bool, or Int with at most satenum.MAX_DOMAIN values from top-level "
        "bounds, each Int compared only with a number or another such Int (= != < <= > >= "
        "Distinct), inside Boolean structure and cardinality sums (spec/satenum.py: CNF once, a "
        "SAT solver enumerates with blocking clauses; a spent conflict budget passes on)",
        _sat,
    ),
    Backend(
        "linearise",
        "never decides: Bool/Int constants, nonlinear only through products each "
        "of which has a factor with at most linearise.MAX_FACTOR_DOMAIN values from top-level "
        "bounds; the products become linear case splits (Sum of If(y == d, d * rest, 0)) "
        "and the backends below see linear arithmetic",
        _linearise,
    ),
    Backend(
        "algebraic",
        "Int/Real constants, the constraints a conjunction of polynomial equations with "
        "rational coefficients and some product or power of unknowns (spec/polysystem.py), "
        "a Groebner basis within realsolve.GB_LIMITS, a finite solution set of at most "
        "realsolve.MAX_QUOTIENT complex points (spec/realsolve.py: exact; irrational real "
        "solutions built by spec/realpoints.py within its work limits; past them only "
        "their count is passed on and the Z3 enumeration ends when it has found that many)",
        _algebraic,
    ),
    Backend(
        "int-bound",
        "Int constants, the equations polynomial with some product or power of unknowns "
        "(other conjuncts are checked point by point), and after eliminating variables that "
        "occur linearly every unknown bounded: by a relation F(x, y) = C (F a binary form with "
        "a rational linear factor, C != 0: the factor divides C; or F with no zero direction: "
        "a box), by a univariate polynomial, "
        "or by numbers on both sides; within intbound.MAX_WORK candidates (spec/intbound.py)",
        _int_bound,
    ),
    Backend(
        "z3-nonlinear",
        "Bool/Int constants, a product, power or division of unknowns, and Z3's "
        "default solver cannot decide the first check within nonlinear.PROBE_MS",
        _nonlinear,
    ),
    Backend(
        "z3-QF_LIA",
        "Bool/Int constants and linear arithmetic; gives way to the next backend "
        "when its first check is undecided within FIRST_CHECK_MS",
        _z3_logic("QF_LIA"),
    ),
    Backend(
        "z3-QF_FD",
        "the same shape; bit-blasting decides some bounded instances QF_LIA does not",
        _z3_logic("QF_FD"),
    ),
    Backend(
        "z3",
        "always (the general solver; undecided is a rejection, never a guess)",
        _z3_logic(None),
    ),
)


def enumerate_solutions(a: Attempt, assertions: list | None, limit: int | None) -> list[SolModel]:
    """All solutions of the model (the term model first when there is one, else ``assertions``)."""
    if assertions is None:  # the attempt's own model: the term backend may decide it
        sols = columnmode.enumerate_terms(a, limit)
        if sols is not None:
            return sols
        assertions = a.assertions
    p = project(a, assertions)
    if a.capture is not None:  # spec/audit.py re-checks this problem independently
        a.capture.update(
            kind="enumerate", assertions=list(assertions), consts=list(p.consts), limit=limit
        )
    for backend in ENUMERATE:
        sols = backend.run(a, p, limit)
        if sols is not None:
            return sols
    raise Rejection("solver gave up", "no solver decided the constraints")


def _enumerate_z3(
    a: Attempt,
    p: Projection,
    limit: int | None,
    logic: str | None,
    first_timeout: int | None,
    later_reserve: int | None,
    warm: ProbeDecided | None = None,
) -> list[SolModel]:
    """Model after model, each blocked on the projection, until unsat (or a rejection).

    ``warm``: a default solver over the same assertions whose first check is already
    decided (the nonlinear probe); the enumeration starts from its answer.
    """
    first = None
    if warm is not None:
        solver, first = warm
    else:
        ctx = a.z3s.ctx
        solver = solver_for(logic, ctx) if logic else z3.Solver(ctx=ctx)
        solver.set("random_seed", a.z3_seed)
        solver.add(p.assertions)

    def next_model(found: int) -> Any:
        nonlocal first
        budget = a.budget.remaining_ms()
        if first_timeout and not found:
            budget = min(budget, first_timeout)
        if later_reserve is not None and found:
            budget = max(min(budget, LATER_CHECK_MS), budget - later_reserve)
        if p.count is not None and found >= p.count:
            return None  # every real solution found: their number is proven (algebraic)
        if first is not None:
            r, first = first, None
        else:
            r = a.budget.run(solver, budget)
        if r == z3.unknown:
            if (
                logic
                and (first_timeout and not found or not a.budget.exhausted)
                and a.budget.remaining() > 0
            ):
                raise _FallBack()
            # the original ends its enumeration here and keeps the puzzle; without the
            # proof that no other solution exists there is no puzzle (issue 23)
            raise undecided_check(found, solver.reason_unknown())
        return solver.model() if r == z3.sat else None

    return collect_models(
        a,
        p.consts,
        p.kinds,
        limit,
        next_model,
        lambda const_asts, raws: add_block(solver, const_asts, raws),
    )


# ---- optimisation ----------------------------------------------------------------------------
def optimize_terms(a: Attempt, kind: str) -> bool:
    """The term model's optimum backends, in order; False once the Z3 model is made instead.

    * exact LP (spec/lpmode.py): every symbol Real, every condition and the objective
      linear (spec/linear.py rows); decides when spec/lp.py certifies the optimum in
      rationals (and its uniqueness where the question needs it);
    * finite (spec/columnmode.py): every symbol Bool/Int, an Int objective and domains
      bounded by the constraints (spec/finite.py ``compile_terms`` is the test).
    """
    st = a.col
    if st is None:
        return False
    if st.linear:
        return lpmode.linear_optimize(a, kind)
    return columnmode.optimize_terms(a, kind)


def optimize_z3(a: Attempt, target: Any, kind: str) -> None:
    """The Z3 model's optimum backends, in order (spec/optimum.py holds the Z3 steps):

    * finite: an Int objective over Bool/Int constants that spec/finite.py evaluates;
    * descent: an Int objective; strict improvement with one incremental solver (at most
      500 steps), then Z3's Optimize;
    * Z3 Optimize: always (any objective Z3 accepts).
    """
    is_int = z3.is_expr(target) and z3.is_int(target)
    if is_int and _optimize_finite(a, target, kind):
        return
    found = optimum.descend(a, target, kind) if is_int else None
    if found is not None:
        model, value = found
        optimum.finish_optimum(a, model, value, target)
        return
    optimum.optimize_with_z3(a, target, kind)


def _optimize_finite(a: Attempt, target: Any, kind: str) -> bool:
    """Optimum by exhaustive evaluation (spec/finite.py); False when it does not apply."""
    a.check_time()
    consts = a.sym_consts if a.sym_consts else collect_consts(list(a.assertions) + [target])
    kinds = [c.sort().kind() for c in consts]
    res = compile_finite(a.assertions, consts, kinds, objective=target)
    if res is None:
        return False
    prob, objv = res
    finite_optimum(a, prob, objv, consts, kind, target.ctx)
    return True


def budget_rate(a: Attempt) -> None:
    """Nonlinear problems count their checks at their own rate, each capped (spec/budget.py).

    Decided on the Z3 assertions present when solving starts. An attempt still in the
    term model has none; if it then falls back to Z3 it keeps the default rate. The cap
    (``NONLINEAR_CHECK_MS``) is work, not time: a check that reaches it is undecided, and
    an undecided uniqueness check rejects the attempt (``uniqueness undecided``).
    """
    if not a.assertions:
        return
    kinds = {c.sort().kind() for c in a.sym_consts}
    if z3.Z3_REAL_SORT in kinds and is_nonlinear_real(a.assertions):
        a.budget.use_rate(NONLINEAR_UNITS_PER_MS, NONLINEAR_CHECK_MS, NONLINEAR_SOLVER_PARAMS)
    elif z3.Z3_INT_SORT in kinds and is_nonlinear_int(a.assertions):
        a.budget.use_rate(UNITS_PER_MS, NONLINEAR_CHECK_MS)
    else:
        return
    a.cache[BUDGET_DECIDES_KEY] = True  # later calls of the family: a fresh Z3 context
    if a.z3s.shared:  # this call too: made again from its start in a fresh context
        raise FreshContextNeeded()
