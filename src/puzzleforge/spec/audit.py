"""An independent audit of a spec puzzle's uniqueness: a fresh solver, no work budget.

Why: generation proves uniqueness inside the engine (finite evaluation, the LP
certificate, Z3 checks under a work budget, in a reused Z3 context). A mistake there,
or a check whose "no other answer" was a guess, would go unnoticed by a config replay,
which only repeats the same reasoning. The audit therefore

1. replays the record's config on the plain Z3 paths (the column, finite-term and LP
   modes off) and captures the problem the engine decided: the constraints as SMT-LIB
   text, the constants the answer depends on, the solutions (or the optimum and its
   configuration) the puzzle was made from;
2. parses that text into a *fresh* Z3 context and asks a new solver, bounded only by
   ``seconds`` of CPU time of the solving thread and the matching Z3 resource units
   (spec/auditfresh.py; not the attempt's budget), whether another solution exists
   (enumeration), or a better value, or, where the question reads the configuration
   (spec/argmax.py), another optimal configuration;
3. or, where every constant is a Boolean or a small bounded integer, tries every
   assignment (``method="brute"``), evaluating the constraints by Z3's simplifier.

Outcomes: ``pass`` (proved), ``ambiguous`` (another correct answer exists; the detail
shows it), ``wrong`` (the stored solution is not a solution, or a better optimum
exists), ``undecided`` (the solver ran out of its work: never counted as a pass), and
``error`` (the config does not replay). Only ``pass`` is a success.

The fresh context and the outcome record are spec/auditfresh.py; the brute-force way of
deciding is spec/auditbrute.py; this module holds the solver's and chooses between them.
"""

from __future__ import annotations

from typing import Any

import z3

from ..core.limits import is_limit
from .auditalgebra import audit_algebraic
from .auditbrute import brute
from .auditcapture import (  # noqa: F401 - REPLAY_* and capture_config: read as audit.X
    REPLAY_NET_SECONDS,
    REPLAY_SECONDS,
    Problem,
    _literal,
    _z3_value,
    capture_config,
    capture_problem,
)
from .auditfresh import NLSAT, STATUSES, AuditOutcome, Fresh, nonlinear_real, undecided
from .auditintbox import audit_int_box

__all__ = [
    "Problem",
    "AuditOutcome",
    "capture_problem",
    "capture_config",
    "audit_problem",
    "audit_puzzle",
    "STATUSES",
    "DEFAULT_SECONDS",
]

#: The default bound of one record's audit (``verify --audit-seconds``), in CPU seconds
#: of the solving thread (spec/auditfresh.py).
DEFAULT_SECONDS = 60.0
#: The rounds of ``audit_problem``: each plan's CPU share in the first round (seconds),
#: in the second (a fraction of the audit's seconds); the third splits what is left.
ROUNDS = 3
FIRST_SHARE = 1.0
SECOND_SHARE = 0.1
#: The share of ``seconds`` the algebraic audit (spec/auditalgebra.py) gets first, where
#: it applies; the solver rounds get the rest when it ends undecided.
ALGEBRA_SHARE = 0.5
#: Stored solutions up to which the audit re-enumerates model by model (beyond: one
#: check with every stored solution blocked, ``_audit_enumerate_blocked``).
INCREMENTAL_LIMIT = 50


def _audit_open(f: Fresh) -> AuditOutcome:
    """The replay could not finish its own uniqueness proof: count the solutions afresh.

    The record came from an attempt that proved its solution set complete; exactly one
    solution now proves the puzzle was made from it ("pass"); none is "wrong"; two or
    more cannot be matched to the set the puzzle was made from ("undecided", never a pass).
    """
    s = f.solver()
    consts = [c for c in f.consts if c is not None]
    r = f.check(s)
    if r == z3.unknown:
        return undecided("solving the constraints (the replay's own check was undecided)", s, f)
    if r == z3.unsat:
        return AuditOutcome("wrong", "the constraints have no solution")
    model = s.model()
    if not consts:
        return AuditOutcome("pass", "one solution (no constants to vary), proved by a fresh solver")
    s.add(z3.Or([c != model.eval(c, model_completion=True) for c in consts]))
    r = f.check(s)
    if r == z3.unknown:
        return undecided(
            "looking for a second solution (the replay's own check was undecided)", s, f
        )
    if r == z3.sat:
        return AuditOutcome(
            "undecided",
            "at least two solutions, and the replay ended undecided "
            "before saying how many the puzzle was made from",
        )
    return AuditOutcome(
        "pass",
        "exactly one solution, proved by a fresh solver (the replay's own check was undecided)",
    )


def _audit_enumerate(problem: Problem, f: Fresh) -> AuditOutcome:
    """Enumerate the solutions again with one incremental fresh solver and compare.

    Incremental on purpose: after a first model the solver has learned the problem, and
    "one more?" is then often immediate where a cold check with every stored solution
    blocked at once is not (37-equation's polynomial systems: unsat at once vs. no answer
    in 60 s).
    """
    n = len(problem.solutions)
    if n > INCREMENTAL_LIMIT:
        return _audit_enumerate_blocked(problem, f)
    stored = {tuple(sol) for sol in problem.solutions}
    seen: set = set()
    consts = [c for c in f.consts if c is not None]
    sorts = [srt for c, srt in zip(f.consts, problem.sorts, strict=False) if c is not None]
    s = f.solver()
    while True:
        r = f.check(s)
        if r == z3.unknown:
            return undecided(f"enumerating (found {len(seen)} of the {n} stored solutions)", s, f)
        if r == z3.unsat:
            break
        model = s.model()
        values = [model.eval(c, model_completion=True) for c in consts]
        try:
            key = tuple(_literal(srt, v) for srt, v in zip(sorts, values, strict=False))
        except ValueError:
            key = None
        if key not in stored:
            return AuditOutcome(
                "ambiguous",
                f"another solution exists beyond the {n} the puzzle was "
                f"made from: {f.show(model, consts)}",
            )
        seen.add(key)
        if len(seen) > n or not consts:
            break
        s.add(z3.Or([c != v for c, v in zip(consts, values, strict=False)]))
    if seen != stored:
        return AuditOutcome(
            "wrong", f"{len(stored - seen)} stored solution(s) do not satisfy the constraints"
        )
    return AuditOutcome("pass", f"exactly {n} solution(s), proved by a fresh solver")


def _audit_enumerate_blocked(problem: Problem, f: Fresh) -> AuditOutcome:
    """Many stored solutions: check a sample of them, then one check with all blocked.

    Re-enumerating thousands of solutions one model at a time costs a solve each
    (1-hamburger: 5040 of them did not fit in 60 s on a busy machine); blocking them all
    at once is one SAT-like check for the finite-domain problems that have so many.
    """
    n = len(problem.solutions)
    s = f.solver()
    for i, sol in enumerate(problem.solutions[:20]):
        s.push()
        s.add(f.eqs(sol))
        r = f.check(s)
        s.pop()
        if r == z3.unknown:
            return undecided(f"checking stored solution {i + 1}", s, f)
        if r == z3.unsat:
            return AuditOutcome(
                "wrong", f"stored solution {i + 1} does not satisfy the constraints"
            )
    for sol in problem.solutions:
        s.add(f.differs(sol))
    r = f.check(s)
    if r == z3.unknown:
        return undecided(f"looking for a solution beyond the {n} stored", s, f)
    if r == z3.sat:
        return AuditOutcome(
            "ambiguous",
            f"another solution exists beyond the {n} the puzzle was "
            f"made from: {f.show(s.model(), f.consts)}",
        )
    return AuditOutcome("pass", f"no solution beyond the {n} stored, proved by a fresh solver")


def _audit_optimize(problem: Problem, f: Fresh) -> AuditOutcome:
    """Optimum and (where it matters) argmax re-proved by one incremental fresh solver."""
    if f.objective is None or problem.value is None:
        return AuditOutcome("error", "the captured problem has no objective")
    value = _z3_value(problem.value, f.ctx)
    obj = f.objective
    s = f.solver()
    r = f.check(s)  # a first model: the later checks start from what the solver learned
    if r == z3.unknown:
        return undecided("solving the constraints", s, f)
    if r == z3.unsat:
        return AuditOutcome("wrong", "the constraints have no solution")
    s.push()
    if problem.solutions:
        s.add(f.eqs(problem.solutions[0]))
    s.add(obj == value)
    r = f.check(s)
    s.pop()
    if r == z3.unknown:
        return undecided("checking that the stored optimum is reached", s, f)
    if r == z3.unsat:
        what = (
            "the stored configuration does not reach"
            if problem.solutions
            else "no configuration reaches"
        )
        return AuditOutcome("wrong", f"{what} the stored optimum {problem.value[1]}")
    s.push()
    s.add(obj > value if problem.direction == "maximize" else obj < value)
    r = f.check(s)
    better = s.model() if r == z3.sat else None
    s.pop()
    if r == z3.unknown:
        return undecided("looking for a better value", s, f)
    if better is not None:
        return AuditOutcome(
            "wrong", f"a better value exists: {better.eval(obj)} ({f.show(better, f.consts)})"
        )
    if not problem.argmax:
        return AuditOutcome(
            "pass",
            f"optimum {problem.value[1]} proved by a fresh solver (the "
            f"question reads only the value)",
        )
    if not problem.solutions:
        return AuditOutcome(
            "error", "the question reads the optimal configuration, which the replay did not give"
        )
    s.add(obj == value)
    s.add(f.differs(problem.solutions[0]))
    r = f.check(s)
    if r == z3.unknown:
        return undecided("looking for another optimal configuration", s, f)
    if r == z3.sat:
        return AuditOutcome(
            "ambiguous",
            f"another configuration reaches the optimum "
            f"{problem.value[1]}: {f.show(s.model(), f.consts)}",
        )
    return AuditOutcome(
        "pass", f"optimum {problem.value[1]} and its configuration proved unique by a fresh solver"
    )


def audit_plans(problem: Problem) -> list[str | None]:
    """The fresh solvers an audit tries in turn (see ``audit_problem``).

    * nonlinear real arithmetic: Z3's nlsat tactic first (``NLSAT``: a complete
      procedure for polynomial real arithmetic), then the default SMT solver;
    * other problems over Real constants: the default solver, then ``SolverFor("QF_NRA")``;
    * everything else: the default solver.
    """
    if nonlinear_real(problem):
        return [NLSAT, None]
    return [None, "QF_NRA"] if "real" in problem.sorts else [None]


def audit_problem(
    problem: Problem,
    seconds: float = DEFAULT_SECONDS,
    *,
    method: str = "solver",
    brute_limit: int = 4096,
) -> AuditOutcome:
    """Re-check a captured problem in a fresh context (``method``: "solver" or "auto":
    brute force when the domain has at most ``brute_limit`` assignments, else solver).

    ``seconds`` is CPU time of the solving thread (spec/auditfresh.py ``CpuWatch``), not
    wall-clock time, so a loaded machine gives the same outcome. The solvers of
    ``audit_plans`` run in rounds (``ROUNDS``: first ``FIRST_SHARE`` CPU seconds each,
    then ``SECOND_SHARE`` of ``seconds`` each, then the rest split between them), each run
    in a fresh context of its own, until one decides; a plan is run again in a later round
    only when it stopped on its share (CPU or work units). Why several plans: which
    nonlinear checks Z3 decides is a lottery of its procedures: the default solver's
    nonlinear core gets stuck on some 37-equation "no other solution" checks (item 42 of
    the issue-23 sweep) that nlsat proves in 10 ms, and nlsat hangs on others (items 50
    and 63) that the default solver decides in 2-4 CPU seconds. Why rounds: a hanging
    plan then costs the other one second, not its whole share. The outcome says
    ``net_fired`` only when it stayed undecided and a wall-clock backstop fired.
    """
    if problem.kind == "none":
        return AuditOutcome(
            "pass", "nothing solved: the answer is computed from the drawn values", "none"
        )
    alg = audit_algebraic(problem, seconds * ALGEBRA_SHARE)
    if alg is None:  # all-Int polynomial systems: a bounded box (spec/auditintbox.py)
        alg = audit_int_box(problem, seconds * ALGEBRA_SHARE)
    if alg is None:
        return audit_rounds(problem, seconds, method, brute_limit)
    if alg.status != "undecided":
        return alg
    # the share counts as spent whether or not it was: the same plan every run
    out = audit_rounds(problem, seconds * (1 - ALGEBRA_SHARE), method, brute_limit)
    if out.status == "undecided":
        out.detail = f"{alg.detail}; {out.detail}"
        out.net_fired = out.net_fired or alg.net_fired
    return out


def audit_rounds(problem: Problem, seconds: float, method: str, brute_limit: int) -> AuditOutcome:
    """The solver plans of ``audit_plans`` in rounds of rising CPU shares (see
    ``audit_problem``)."""
    plans = audit_plans(problem)
    last: dict[int, AuditOutcome] = {}
    given: dict[int, float] = {}
    retry = list(range(len(plans)))
    left = seconds
    # one plan: nothing to starve, so one run with all the seconds
    for rnd in range(0 if len(plans) > 1 else ROUNDS - 1, ROUNDS):
        now = list(retry)
        for pos, k in enumerate(now):
            if rnd == ROUNDS - 1:
                want = left / (len(now) - pos)
            else:
                want = FIRST_SHARE if rnd == 0 else SECOND_SHARE * seconds
                want = min(want, left / (len(now) - pos))
            if want <= given.get(k, 0.0) or want <= 0:
                continue  # no larger share than it already had: it would stop the same way
            m = method if k == 0 else "solver"
            out = _audit_once(problem, want, plans[k], m, brute_limit)
            left -= want  # the share, not the CPU measured: the plan is the same every run
            given[k] = want
            if out.status != "undecided":
                return out
            last[k] = out
            if not out.budget_spent:
                retry.remove(k)  # undecided for another reason: more time would not help
    if not last:
        return AuditOutcome("undecided", f"no CPU seconds to audit with ({seconds:g})")
    outs = [last[k] for k in sorted(last)]
    if len(outs) == 1:
        return outs[0]
    detail = "; ".join(f"{plans[k] or 'default solver'}: {last[k].detail}" for k in sorted(last))
    return AuditOutcome("undecided", detail, net_fired=any(o.net_fired for o in outs))


def _audit_once(
    problem: Problem, seconds: float, logic: str | None, method: str, brute_limit: int
) -> AuditOutcome:
    """One plan in one fresh context with ``seconds`` of CPU."""
    f = Fresh(problem, seconds, logic)
    try:
        return _decide(problem, f, method, brute_limit)
    finally:
        f.close()
        # the fresh context and everything made in it go now, not at a later GC pass
        f.assertions = f.consts = f.all = []
        f.objective = None
        del f


def _decide(problem: Problem, f: Fresh, method: str, brute_limit: int) -> AuditOutcome:
    if not problem.complete:
        return _audit_open(f)
    if method == "auto":
        out = brute(problem, f, brute_limit)
        if out is not None:
            return out
    return (
        _audit_enumerate(problem, f) if problem.kind == "enumerate" else _audit_optimize(problem, f)
    )


def audit_puzzle(
    family: Any,
    puzzle: Any,
    seconds: float = DEFAULT_SECONDS,
    *,
    method: str = "solver",
    brute_limit: int = 4096,
) -> AuditOutcome:
    """Capture and re-check one spec puzzle (never raises: a failure is an ``error`` outcome)."""
    try:
        problem = capture_problem(family, puzzle)
    except Exception as exc:  # noqa: BLE001 - an audit reports, never raises...
        if is_limit(exc):
            raise  # ...except a limit (a CPU net): it fails loudly, it is no verdict
        return AuditOutcome("error", f"config replay failed: {type(exc).__name__}: {exc}", "none")
    try:
        return audit_problem(problem, seconds, method=method, brute_limit=brute_limit)
    except Exception as exc:  # noqa: BLE001
        return AuditOutcome("error", f"audit failed: {type(exc).__name__}: {exc}", "none")
