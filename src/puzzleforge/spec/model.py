"""Stage 3 of an attempt: the Z3 constraint model, its early contradiction check, finite solutions.

The conditions stage (spec/conditions.py) builds the model either as Python terms
(spec/columnmode.py, the *term model*) or as Z3 assertions (``a.assertions``, the *Z3
model*); this module holds what belongs to the Z3 model: adding a formula's value as
assertions, the finite-domain pre-check that rejects contradictory condition sets at
once, and the solutions read off an exhaustive evaluation (both models' finite
backends produce them, spec/finite.py).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import z3

from .argmax import multiple_optima, needs_unique_optimum
from .budget import rlimit_count
from .operators import SolModel
from .outcome import ExprFailure, Rejection
from .safe import SafeCode
from .symbols import sort_kind
from .z3space import solver_for

if TYPE_CHECKING:
    from .attempt import Attempt

__all__ = [
    "add_assertion",
    "precheck",
    "finite_sols",
    "finite_optimum",
    "PRECHECK_MS",
    "PRECHECK_COST_KEY",
]

#: Work slice (idle-machine ms of Z3 work, spec/budget.py) of the finite-domain pre-check.
PRECHECK_MS = 2000
#: After this many pre-checks of a spec without one contradiction found, stop pre-checking it.
_PRECHECK_TRIAL = 40
#: ... or after this many, if the pre-checks cost more work than all the solving they preceded.
_PRECHECK_MIN = 5
#: Key of the pre-check statistics in the family's per-spec cache (a tuple: never a source string).
_PRECHECK_KEY = ("puzzleforge.spec.sampling", "precheck")
#: Key of [work units of the passed pre-checks, work units of the attempts' solving after them].
PRECHECK_COST_KEY = ("puzzleforge.spec.sampling", "precheck-cost")
#: After this many attempts, a spec whose models the finite evaluator took less than half
#: of the time stops offering them before the pre-check (counts: the same on every run).
_FINITE_TRIAL = 8
#: Key of [attempts offered to the finite evaluator, attempts it decided] in the family's cache.
_FINITE_KEY = ("puzzleforge.spec.model", "finite-first")
#: Key (with the thread's id) of the pre-check's own Z3 context in the family's cache.
_PRECHECK_CTX_KEY = ("puzzleforge.spec.model", "precheck-context")


def _precheck_context(cache: dict) -> Any:
    """The pre-check's Z3 context, owned by the family (its cache) and one per thread.

    Why owned by the family, not the thread: the work units a check spends depend on what
    its context checked before; a context shared by every family of a thread made the
    pre-check's cost (and so whether it stays on) depend on what else ran in the process.
    """
    key = (_PRECHECK_CTX_KEY, threading.get_ident())
    ctx = cache.get(key)
    if ctx is None:
        ctx = cache[key] = z3.Context()
    return ctx


def _flatten_assertions(value: Any, out: list, ctx: Any) -> None:
    if isinstance(value, (list, tuple)):
        for v in value:
            _flatten_assertions(v, out, ctx)
    elif isinstance(value, bool):
        out.append(z3.BoolVal(value, ctx))
    elif isinstance(value, z3.BoolRef):
        out.append(value)
    elif isinstance(value, z3.ExprRef):
        raise TypeError(f"condition is a {value.sort()} expression, not a Boolean: {value}")
    else:
        raise TypeError(
            f"condition evaluates to {type(value).__name__}, not a Z3 Boolean or list of them"
        )


def add_assertion(a: Attempt, value: Any, code: SafeCode) -> None:
    """Add a condition formula's value (a Boolean, a Z3 Boolean or nested lists of them)."""
    try:
        _flatten_assertions(value, a.assertions, a.z3s.ctx)
    except TypeError as exc:
        raise ExprFailure(code, exc) from None


def precheck(a: Attempt) -> None:
    """Reject at once an attempt whose constraints contradict each other.

    Why: in several specs (29-dining2, 19-hobby, 8-stone, 58-sugar...) most random
    condition sets are jointly unsatisfiable, and the general path (QF_LIA first, then
    the fallbacks) can spend a second or more proving it. Bit-blasting (Z3's QF_FD, a
    SAT solver over the bounded integers) usually proves it in milliseconds (29-dining2:
    ~20x faster). Only an unsat answer is used: every path of ``solve`` rejects such an
    attempt with "no solution" anyway, so no accepted puzzle changes (the check draws
    nothing from the attempt's random generator and its model is never used); "sat" or
    "unknown" (unbounded integers, a slow instance, the time slice) falls through to the
    normal solving. Specs that never solve (``calc_solution: false`` without optimize)
    are not checked, nor post_generation specs: their solving starts with one
    satisfiability check of the same assertions (the scenario ``_sol``), which rejects a
    contradiction as "no solution" itself, so a pre-check could only repeat it (11-wine's
    and 50-card3's cost 6-20 times their attempts' solving and found no contradiction)
    while holding a second Z3 context (~17 MB) next to the attempt's fresh one. A spec
    whose first checks found no
    contradiction stops being checked (pure overhead there): after _PRECHECK_TRIAL
    checks, or after _PRECHECK_MIN if the passed pre-checks cost more Z3 work units
    than all the solving of their attempts (11-wine, before post_generation specs were
    left out: a 65,000-unit pre-check before about 10,000 units of solving). Units, not
    the clock: like
    the check counts, the decision depends on what the process pre-checked before (the
    private context is shared), never on the machine's load. The attempt records its
    part (``precheck_units``, added up by spec/attempt.py).

    Where it runs: in the family's shared Z3 context (``Z3Space.shared``) when the
    attempt works in it, since no output there depends on the terms the context holds
    (spec/attempt.py ``SpecZ3Contexts``; an attempt whose checks the budget decides makes
    its call start over in a fresh context); a second context would cost ~17 MB of RSS.
    An attempt in a fresh context (budget-decided checks) translates its assertions into
    a private context instead: terms a
    solver creates in the attempt's context would shift which model Z3 returns later, so
    a pre-check there would make a puzzle depend on whether earlier attempts had switched
    the pre-check off.
    """
    spec = a.spec
    if not a.assertions or spec.post_generation is not None:
        return
    if not (spec.calc_solution or spec.optimize is not None):
        return
    stats = a.cache.setdefault(_PRECHECK_KEY, [0, 0])  # [checks, contradictions]
    if stats[1] == 0 and stats[0] >= _PRECHECK_MIN:
        cost = a.cache.get(PRECHECK_COST_KEY)
        if stats[0] >= _PRECHECK_TRIAL or (cost is not None and cost[0] > cost[1]):
            return
    kinds = {sort_kind(c) for c in a.sym_consts}
    if not kinds <= {z3.Z3_BOOL_SORT, z3.Z3_INT_SORT}:
        return
    if _finite_decides(a):
        return
    if a.budget.remaining() <= 0:
        return
    shared = a.z3s.shared
    ctx = a.z3s.ctx if shared else _precheck_context(a.cache)
    solver = solver_for("QF_FD", ctx)
    solver.set("random_seed", 0)
    try:
        solver.add(a.assertions if shared else [x.translate(ctx) for x in a.assertions])
        if a.sym_fix is not None:  # rotation-invariant (spec/rotation.py): unsat iff with x0 = 0
            fix = a.sym_fix if shared else a.sym_fix.translate(ctx)
            solver.add(fix == 0)
        before = rlimit_count(solver)
        result = a.budget.run(solver, PRECHECK_MS, charge=False)  # spec/budget.py
        spent = (rlimit_count(solver) - before) % (1 << 32)
    except z3.Z3Exception:
        return
    stats[0] += 1
    if result == z3.unsat:
        stats[1] += 1
        raise Rejection("no solution", "the constraints have no solution (finite-domain pre-check)")
    a.precheck_units = spent


def _finite_decides(a: Attempt) -> bool:
    """True when the exhaustive finite evaluator takes the model (solving will decide it
    without Z3): its first solution, or the proof that there is none, comes cheaper than
    the bit-blasting check. No solution rejects here as the check would."""
    from .finite import walk_finite

    if a.capture is not None or not a.sym_consts or a.spec.post_generation is not None:
        return False  # post_generation: its `_sol` is Z3's first model; leave that context be
    stats = a.cache.setdefault(_FINITE_KEY, [0, 0])  # [tries, decided]
    if stats[0] >= _FINITE_TRIAL and 2 * stats[1] < stats[0]:
        return False  # it took fewer than half of the models offered: walking them costs more
    stats[0] += 1
    walk = walk_finite(a.assertions, a.sym_consts)
    a.finite_walk = (a.assertions, len(a.assertions), walk)
    if walk is None:
        return False
    got = walk.evaluate(0)
    if got is None:
        return False
    stats[1] += 1
    if not len(got[0].rows):
        raise Rejection("no solution", "the constraints have no solution (finite evaluation)")
    return True


def finite_sols(prob: Any, consts: list, rows: Any) -> list[SolModel]:
    """Solutions (SolModel) from rows of an exhaustive evaluation (spec/finite.py)."""
    if not prob.used:
        return [SolModel({}, {}) for _ in range(len(rows))]
    ids = [consts[c].get_id() for c in prob.used]
    cmap = {i: consts[c] for i, c in zip(ids, prob.used, strict=False)}
    return [
        SolModel(dict(zip(ids, vals, strict=False)), cmap)
        for vals in zip(*prob.row_values(rows), strict=False)
    ]


def finite_optimum(a: Attempt, prob: Any, objv: Any, consts: list, kind: str, ctx: Any) -> None:
    """_value and _solutions from an exhaustive evaluation (or a rejection).

    Same outcome as the Z3 backends: the optimum, ``multiple optima`` when two
    assignments reach it and the question needs one (spec/argmax.py), ``no solution``
    when nothing satisfies the constraints.
    """
    if not len(prob.rows):
        raise Rejection("no solution", "the optimization constraints have no solution")
    best = int(objv.max() if kind == "maximize" else objv.min())
    hits = (objv == best).nonzero()[0]  # objv: numpy, 1-D (np.flatnonzero without np)
    if len(hits) > 1 and needs_unique_optimum(a.spec):
        raise multiple_optima(best)
    # several optima allowed: the rows are in canonical order, so hits[0] is the
    # canonical optimal configuration
    a.env["_value"] = z3.IntVal(best, ctx)
    a.env["_solutions"] = finite_sols(prob, consts, prob.rows[hits])[0]
