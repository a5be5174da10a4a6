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
   ``seconds`` of solver work (Z3 resource units, spec/budget.py's idle-machine rate,
   never the attempt's budget), whether another solution exists (enumeration), or a
   better value, or, where the question reads the configuration (spec/argmax.py),
   another optimal configuration;
3. or, where every constant is a Boolean or a small bounded integer, tries every
   assignment (``method="brute"``), evaluating the constraints by Z3's simplifier.

Outcomes: ``pass`` (proved), ``ambiguous`` (another correct answer exists; the detail
shows it), ``wrong`` (the stored solution is not a solution, or a better optimum
exists), ``undecided`` (the solver ran out of its work: never counted as a pass), and
``error`` (the config does not replay). Only ``pass`` is a success.

Why work units, not seconds: ``puzzleforge verify`` of one file must print the same
report on a busy machine as on an idle one. Z3 counts its work deterministically, so an
audit that ends undecided does so on every run. A wall-clock safety net of
``NET_FACTOR`` times the seconds stays, because Z3's nonlinear procedures do not always
stop at their rlimit (spec/budget.py); when it fires the detail says so (that outcome
alone depends on the machine).
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from .auditcapture import (  # noqa: F401 - REPLAY_* and capture_config: read as audit.X
    OBJECTIVE,
    REPLAY_NET_SECONDS,
    REPLAY_SECONDS,
    Problem,
    _consts,
    _literal,
    _z3_value,
    capture_config,
    capture_problem,
)
from .budget import NONLINEAR_UNITS_PER_MS, UNITS_PER_MS, rlimit_count
from .termwalk import walk_terms

__all__ = ["Problem", "AuditOutcome", "capture_problem", "capture_config", "audit_problem", "audit_puzzle",
           "STATUSES", "DEFAULT_SECONDS"]

#: Every outcome, in report order (only "pass" is a success).
STATUSES = ("pass", "ambiguous", "wrong", "undecided", "error")
#: The default bound of one record's audit (``verify --audit-seconds``), in idle-machine
#: seconds of solver work (``UNITS_PER_MS`` resource units per ms).
DEFAULT_SECONDS = 60.0
#: The wall-clock safety net of an audit, as a multiple of its seconds (see the module doc).
NET_FACTOR = 3.0
#: The largest value Z3's ``rlimit`` takes.
_MAX_RLIMIT = (1 << 32) - 1
#: Stored solutions up to which the audit re-enumerates model by model (beyond: one
#: check with every stored solution blocked, ``_audit_enumerate_blocked``).
INCREMENTAL_LIMIT = 50


@dataclass
class AuditOutcome:
    status: str
    detail: str = ""
    method: str = "solver"
    #: True when the wall-clock safety net ended the audit (the one load-dependent outcome).
    net_fired: bool = False



class _Fresh:
    """The problem parsed into a new Z3 context, and the work bound of its checks.

    ``units`` is what every check of this audit may still consume (Z3's resource count,
    read before and after each check); ``net`` is the wall-clock safety net's deadline.
    """

    def __init__(self, problem: Problem, seconds: float, logic: str | None = None) -> None:
        self.ctx = z3.Context()
        self.logic = logic
        self.seed = problem.seed
        self.seconds = seconds
        self.net = time.monotonic() + seconds * NET_FACTOR
        self.net_fired = False
        self.assertions = list(z3.parse_smt2_string(problem.smt2, ctx=self.ctx))
        by_name = {str(c): c for c in _consts(self.assertions)}
        self.consts = [by_name.get(n) for n in problem.names]
        self.objective = by_name.get(OBJECTIVE)
        self.all = [c for n, c in by_name.items() if n != OBJECTIVE]
        # nonlinear real arithmetic counts ~8x fewer units per ms (spec/budget.py)
        nra = logic == "QF_NRA" or ("real" in problem.sorts and _nonlinear(self.assertions))
        self.units = int(seconds * 1000 * (NONLINEAR_UNITS_PER_MS if nra else UNITS_PER_MS))

    def solver(self) -> z3.Solver:
        s = z3.SolverFor(self.logic, ctx=self.ctx) if self.logic else z3.Solver(ctx=self.ctx)
        s.set("random_seed", self.seed)
        s.add(self.assertions)
        return s

    def out_of_time(self) -> bool:
        """True once the safety net's deadline passed (and remembers it for the detail)."""
        if time.monotonic() >= self.net:
            self.net_fired = True
        return self.net_fired

    def check(self, s: z3.Solver) -> Any:
        if self.units <= 0 or self.out_of_time():
            return z3.unknown
        s.set("rlimit", min(_MAX_RLIMIT, self.units))
        s.set("timeout", max(1, int((self.net - time.monotonic()) * 1000)))
        before = rlimit_count(s)
        r = s.check()
        self.units -= (rlimit_count(s) - before) % (1 << 32)
        if r == z3.unknown:
            self.out_of_time()
        return r

    def eqs(self, values: list[tuple[str, str]]) -> list:
        return [c == _z3_value(v, self.ctx) for c, v in zip(self.consts, values, strict=False) if c is not None]

    def differs(self, values: list[tuple[str, str]]) -> Any:
        return z3.Or([c != _z3_value(v, self.ctx) for c, v in zip(self.consts, values, strict=False) if c is not None]
                     + [z3.BoolVal(False, self.ctx)])

    def show(self, model: Any, consts: list) -> str:
        parts = []
        for c in consts:
            if c is None:
                continue
            v = model.eval(c, model_completion=True)
            parts.append(f"{c}={v}")
        return ", ".join(parts[:40]) + (" ..." if len(parts) > 40 else "")


def _undecided(what: str, s: z3.Solver, f: _Fresh) -> AuditOutcome:
    if f.net_fired:
        why = (f"the wall-clock safety net ({f.seconds * NET_FACTOR:g} s) fired: this outcome "
               f"depends on the machine's load")
    else:
        why = f"within its {f.seconds:g} s of solver work ({s.reason_unknown()})"
    return AuditOutcome("undecided", f"{what}: the fresh solver could not decide {why}",
                        net_fired=f.net_fired)


def _nonlinear(assertions: list) -> bool:
    """A product of two non-numeral terms, a power, or a division by a non-numeral."""
    for e in walk_terms(assertions):
        if not z3.is_app(e):
            continue
        k = e.decl().kind()
        if k == z3.Z3_OP_POWER:
            return True
        if k == z3.Z3_OP_MUL and sum(not _numeral(a) for a in e.children()) >= 2:
            return True
        if k in (z3.Z3_OP_DIV, z3.Z3_OP_IDIV, z3.Z3_OP_MOD) and not _numeral(e.arg(1)):
            return True
    return False


def _numeral(e: Any) -> bool:
    return z3.is_int_value(e) or z3.is_rational_value(e) or z3.is_algebraic_value(e)


def _audit_open(f: _Fresh) -> AuditOutcome:
    """The replay could not finish its own uniqueness proof: count the solutions afresh.

    The record came from an attempt that proved its solution set complete; exactly one
    solution now proves the puzzle was made from it ("pass"); none is "wrong"; two or
    more cannot be matched to the set the puzzle was made from ("undecided", never a pass).
    """
    s = f.solver()
    consts = [c for c in f.consts if c is not None]
    r = f.check(s)
    if r == z3.unknown:
        return _undecided("solving the constraints (the replay's own check was undecided)", s, f)
    if r == z3.unsat:
        return AuditOutcome("wrong", "the constraints have no solution")
    model = s.model()
    if not consts:
        return AuditOutcome("pass", "one solution (no constants to vary), proved by a fresh solver")
    s.add(z3.Or([c != model.eval(c, model_completion=True) for c in consts]))
    r = f.check(s)
    if r == z3.unknown:
        return _undecided("looking for a second solution (the replay's own check was undecided)", s, f)
    if r == z3.sat:
        return AuditOutcome("undecided", "at least two solutions, and the replay ended undecided "
                                         "before saying how many the puzzle was made from")
    return AuditOutcome("pass", "exactly one solution, proved by a fresh solver (the replay's own "
                                "check was undecided)")


def _audit_enumerate(problem: Problem, f: _Fresh) -> AuditOutcome:
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
            return _undecided(f"enumerating (found {len(seen)} of the {n} stored solutions)", s, f)
        if r == z3.unsat:
            break
        model = s.model()
        values = [model.eval(c, model_completion=True) for c in consts]
        try:
            key = tuple(_literal(srt, v) for srt, v in zip(sorts, values, strict=False))
        except ValueError:
            key = None
        if key not in stored:
            return AuditOutcome("ambiguous", f"another solution exists beyond the {n} the puzzle was "
                                             f"made from: {f.show(model, consts)}")
        seen.add(key)
        if len(seen) > n or not consts:
            break
        s.add(z3.Or([c != v for c, v in zip(consts, values, strict=False)]))
    if seen != stored:
        return AuditOutcome("wrong", f"{len(stored - seen)} stored solution(s) do not satisfy the "
                                     f"constraints")
    return AuditOutcome("pass", f"exactly {n} solution(s), proved by a fresh solver")


def _audit_enumerate_blocked(problem: Problem, f: _Fresh) -> AuditOutcome:
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
            return _undecided(f"checking stored solution {i + 1}", s, f)
        if r == z3.unsat:
            return AuditOutcome("wrong", f"stored solution {i + 1} does not satisfy the constraints")
    for sol in problem.solutions:
        s.add(f.differs(sol))
    r = f.check(s)
    if r == z3.unknown:
        return _undecided(f"looking for a solution beyond the {n} stored", s, f)
    if r == z3.sat:
        return AuditOutcome("ambiguous", f"another solution exists beyond the {n} the puzzle was "
                                         f"made from: {f.show(s.model(), f.consts)}")
    return AuditOutcome("pass", f"no solution beyond the {n} stored, proved by a fresh solver")


def _audit_optimize(problem: Problem, f: _Fresh) -> AuditOutcome:
    """Optimum and (where it matters) argmax re-proved by one incremental fresh solver."""
    if f.objective is None or problem.value is None:
        return AuditOutcome("error", "the captured problem has no objective")
    value = _z3_value(problem.value, f.ctx)
    obj = f.objective
    s = f.solver()
    r = f.check(s)  # a first model: the later checks start from what the solver learned
    if r == z3.unknown:
        return _undecided("solving the constraints", s, f)
    if r == z3.unsat:
        return AuditOutcome("wrong", "the constraints have no solution")
    s.push()
    if problem.solutions:
        s.add(f.eqs(problem.solutions[0]))
    s.add(obj == value)
    r = f.check(s)
    s.pop()
    if r == z3.unknown:
        return _undecided("checking that the stored optimum is reached", s, f)
    if r == z3.unsat:
        what = "the stored configuration does not reach" if problem.solutions else "no configuration reaches"
        return AuditOutcome("wrong", f"{what} the stored optimum {problem.value[1]}")
    s.push()
    s.add(obj > value if problem.direction == "maximize" else obj < value)
    r = f.check(s)
    better = s.model() if r == z3.sat else None
    s.pop()
    if r == z3.unknown:
        return _undecided("looking for a better value", s, f)
    if better is not None:
        return AuditOutcome("wrong", f"a better value exists: {better.eval(obj)} "
                                     f"({f.show(better, f.consts)})")
    if not problem.argmax:
        return AuditOutcome("pass", f"optimum {problem.value[1]} proved by a fresh solver (the "
                                    f"question reads only the value)")
    if not problem.solutions:
        return AuditOutcome("error", "the question reads the optimal configuration, which the "
                                     "replay did not give")
    s.add(obj == value)
    s.add(f.differs(problem.solutions[0]))
    r = f.check(s)
    if r == z3.unknown:
        return _undecided("looking for another optimal configuration", s, f)
    if r == z3.sat:
        return AuditOutcome("ambiguous", f"another configuration reaches the optimum "
                                         f"{problem.value[1]}: {f.show(s.model(), f.consts)}")
    return AuditOutcome("pass", f"optimum {problem.value[1]} and its configuration proved unique "
                                f"by a fresh solver")


# ---- brute force -------------------------------------------------------------------------
def _int_bounds(assertions: list, consts: list) -> dict[int, list]:
    """Numeric bounds of integer constants from top-level atoms ``c <= k``, ``k < c`` ..."""
    ids = {c.get_id(): c for c in consts}
    lo: dict[int, int] = {}
    hi: dict[int, int] = {}
    stack = list(assertions)
    while stack:
        e = stack.pop()
        if z3.is_and(e):
            stack.extend(e.children())
            continue
        if not z3.is_app(e) or e.num_args() != 2:
            continue
        k = e.decl().kind()
        a, b = e.arg(0), e.arg(1)
        flip = {z3.Z3_OP_LE: z3.Z3_OP_GE, z3.Z3_OP_GE: z3.Z3_OP_LE, z3.Z3_OP_LT: z3.Z3_OP_GT,
                z3.Z3_OP_GT: z3.Z3_OP_LT, z3.Z3_OP_EQ: z3.Z3_OP_EQ}
        if k not in flip:
            continue
        if z3.is_int_value(a) and b.get_id() in ids:
            a, b, k = b, a, flip[k]
        if a.get_id() not in ids or not z3.is_int_value(b):
            continue
        i, v = a.get_id(), b.as_long()
        if k in (z3.Z3_OP_LE, z3.Z3_OP_EQ):
            hi[i] = min(hi.get(i, v), v)
        if k == z3.Z3_OP_LT:
            hi[i] = min(hi.get(i, v - 1), v - 1)
        if k in (z3.Z3_OP_GE, z3.Z3_OP_EQ):
            lo[i] = max(lo.get(i, v), v)
        if k == z3.Z3_OP_GT:
            lo[i] = max(lo.get(i, v + 1), v + 1)
    return {i: list(range(lo[i], hi[i] + 1)) for i in ids if i in lo and i in hi}


def _brute_domains(f: _Fresh, limit: int) -> list[list] | None:
    """Every constant's candidate values (Z3 numerals), or None if not small and finite."""
    if any(c is None for c in f.consts) or {c.get_id() for c in f.all} - {c.get_id() for c in f.consts}:
        return None  # the constraints hold constants outside the answer's projection
    bounds = _int_bounds(f.assertions, f.consts)
    domains, size = [], 1
    for c in f.consts:
        if z3.is_bool(c):
            dom = [z3.BoolVal(False, f.ctx), z3.BoolVal(True, f.ctx)]
        elif z3.is_int(c) and c.get_id() in bounds:
            dom = [z3.IntVal(v, f.ctx) for v in bounds[c.get_id()]]
        else:
            return None
        size *= max(1, len(dom))
        if size > limit:
            return None
        domains.append(dom)
    return domains


def _brute(problem: Problem, f: _Fresh, limit: int) -> AuditOutcome | None:
    """All assignments evaluated by Z3's simplifier; None when the domain is not small."""
    domains = _brute_domains(f, limit)
    if domains is None:
        return None
    conj = z3.And(f.assertions + [z3.BoolVal(True, f.ctx)])
    objective = None
    if problem.kind == "optimize":
        # the definition ``objective == target`` (Z3 may print it either way round)
        eq = [a for a in f.assertions if z3.is_eq(a)
              and any(z3.eq(x, f.objective) for x in a.children())]
        if len(eq) != 1:
            return None
        left, right = eq[0].children()
        objective = right if z3.eq(left, f.objective) else left
        conj = z3.And([a for a in f.assertions if not z3.eq(a, eq[0])] + [z3.BoolVal(True, f.ctx)])
    found: list[tuple] = []
    for combo in itertools.product(*domains):
        if f.out_of_time():
            return AuditOutcome("undecided", f"brute force: the wall-clock safety net "
                                             f"({f.seconds * NET_FACTOR:g} s) fired", "brute", True)
        pairs = list(zip(f.consts, combo, strict=False))
        if not z3.is_true(z3.simplify(z3.substitute(conj, *pairs) if pairs else conj)):
            continue
        key = tuple(_literal(s, v) for s, v in zip(problem.sorts, combo, strict=False))
        if objective is None:
            found.append((key, None))
        else:
            val = z3.simplify(z3.substitute(objective, *pairs) if pairs else objective)
            found.append((key, _as_fraction(val)))
    names = problem.names
    if problem.kind == "enumerate":
        stored = {tuple(s) for s in problem.solutions}
        got = {k for k, _ in found}
        extra = sorted(got - stored)
        if extra:
            return AuditOutcome("ambiguous", f"{len(got)} solutions by brute force, {len(stored)} stored; "
                                             f"another: {_show_key(names, extra[0])}", "brute")
        if stored - got:
            return AuditOutcome("wrong", "a stored solution is not a solution (brute force)", "brute")
        return AuditOutcome("pass", f"exactly {len(got)} solution(s) by brute force over "
                                    f"{_count(domains)} assignments", "brute")
    if not found:
        return AuditOutcome("wrong", "no assignment satisfies the constraints (brute force)", "brute")
    vals = [v for _, v in found]
    best = max(vals) if problem.direction == "maximize" else min(vals)
    stored = _as_fraction(_z3_value(problem.value, f.ctx))
    if best != stored:
        return AuditOutcome("wrong", f"the optimum is {best} by brute force, stored {stored}", "brute")
    argmax = [k for k, v in found if v == best]
    if problem.argmax and len(argmax) > 1:
        other = next((k for k in argmax if [tuple(x) for x in problem.solutions[:1]] != [k]), argmax[0])
        return AuditOutcome("ambiguous", f"{len(argmax)} configurations reach the optimum {best}; "
                                         f"another: {_show_key(names, other)}", "brute")
    if problem.argmax and problem.solutions and tuple(problem.solutions[0]) != argmax[0]:
        return AuditOutcome("wrong", "the stored configuration is not the optimal one (brute force)", "brute")
    return AuditOutcome("pass", f"optimum {best} by brute force over {_count(domains)} assignments"
                                + (" (unique configuration)" if problem.argmax else ""), "brute")


def _as_fraction(v: Any) -> Fraction:
    if z3.is_int_value(v):
        return Fraction(v.as_long())
    if z3.is_rational_value(v):
        return v.as_fraction()
    raise ValueError(f"not a number: {v}")


def _count(domains: list) -> int:
    n = 1
    for d in domains:
        n *= len(d)
    return n


def _show_key(names: list[str], key: tuple) -> str:
    return ", ".join(f"{n}={v[1]}" for n, v in zip(names, key, strict=False))


def audit_problem(problem: Problem, seconds: float = DEFAULT_SECONDS, *, method: str = "solver",
                  brute_limit: int = 4096) -> AuditOutcome:
    """Re-check a captured problem in a fresh context (``method``: "solver" or "auto":
    brute force when the domain has at most ``brute_limit`` assignments, else solver).

    Problems over Real constants get a second try with Z3's nlsat procedure
    (``QF_NRA``, complete for polynomial real arithmetic) when the default solver leaves
    them undecided in half the seconds of work: its incomplete nonlinear core misses some of
    37-equation's "no other solution" proofs that nlsat makes in milliseconds.
    """
    if problem.kind == "none":
        return AuditOutcome("pass", "nothing solved: the answer is computed from the drawn values", "none")
    plans: list[str | None] = [None, "QF_NRA"] if "real" in problem.sorts else [None]
    out = AuditOutcome("undecided", "not run")
    share = seconds / len(plans)  # in work, so the split is the same on every machine
    for k, logic in enumerate(plans):
        out = _audit_once(problem, share, logic, method if k == 0 else "solver", brute_limit)
        if out.status != "undecided" or out.net_fired:
            return out
    return out


def _audit_once(problem: Problem, seconds: float, logic: str | None, method: str,
                brute_limit: int) -> AuditOutcome:
    f = _Fresh(problem, seconds, logic)
    try:
        if not problem.complete:
            return _audit_open(f)
        if method == "auto":
            out = _brute(problem, f, brute_limit)
            if out is not None:
                return out
        return _audit_enumerate(problem, f) if problem.kind == "enumerate" else _audit_optimize(problem, f)
    finally:
        # the fresh context and everything made in it go now, not at a later GC pass
        f.assertions = f.consts = f.all = []
        f.objective = None
        del f


def audit_puzzle(family: Any, puzzle: Any, seconds: float = DEFAULT_SECONDS, *,
                 method: str = "solver", brute_limit: int = 4096) -> AuditOutcome:
    """Capture and re-check one spec puzzle (never raises: a failure is an ``error`` outcome)."""
    try:
        problem = capture_problem(family, puzzle)
    except Exception as exc:  # noqa: BLE001 - an audit reports, never raises
        return AuditOutcome("error", f"config replay failed: {type(exc).__name__}: {exc}", "none")
    try:
        return audit_problem(problem, seconds, method=method, brute_limit=brute_limit)
    except Exception as exc:  # noqa: BLE001
        return AuditOutcome("error", f"audit failed: {type(exc).__name__}: {exc}", "none")
