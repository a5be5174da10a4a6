"""Deterministic work budgets for the spec engine's Z3 calls (one place for all of them).

Why: a puzzle must be a function of its spec and seed. Wall-clock Z3 timeouts made the
result depend on machine load: under load a check that succeeds on an idle machine ran
out of time, the attempt was rejected and the next seed's puzzle came out instead (seen
on 37-equation and 25-piano), so ``puzzleforge verify`` could fail on a busy machine.
Budgets are therefore counted in Z3's resource units (the ``rlimit`` parameter: a count
of elementary solver steps that does not depend on the clock). ``UNITS_PER_MS`` converts
the engine's familiar millisecond figures to units; it was calibrated so that a budget
is about as long as its millisecond figure on an idle machine of 2026 (see docs/spec.md,
"Budgets are deterministic", and bench/spec_budget_calibrate.py).

How Z3 counts (checked on Z3 4.x/5.4): the counter belongs to the context and only
grows; ``rlimit`` set on a solver (plain, tactic-based, ``SolverFor`` or ``Optimize``)
limits each ``check`` to that many units *beyond the count at its start*. A check that
runs out returns ``unknown`` with reason "canceled" (SMT) or "no reason given" (QF_FD),
so exhaustion is recognised by the units it consumed, read from the solver statistics.

An attempt owns one ``WorkBudget``: the pool of units of ``attempt_seconds`` that every
check draws from, each check optionally capped by its own slice. The only wall-clock
limit left is the safety net (``--max-seconds`` per puzzle): when it fires, generation
stops with ``SafetyNetFired`` instead of quietly trying another seed, because what would
come out next depends on the load.
"""

from __future__ import annotations

import time
from typing import Any

import z3
from z3 import z3core as zc

from .outcome import Rejection

__all__ = [
    "UNITS_PER_MS",
    "NONLINEAR_UNITS_PER_MS",
    "NONLINEAR_CHECK_MS",
    "NONLINEAR_SOLVER_PARAMS",
    "BUDGET_DECIDES_KEY",
    "FreshContextNeeded",
    "units",
    "WorkBudget",
    "SafetyNetFired",
    "rlimit_count",
]

#: Z3 resource units per millisecond of Z3 work on an idle machine (calibrated on the
#: corpus, see the module doc).
UNITS_PER_MS = 4000
#: The same for nonlinear real arithmetic, whose procedures (nlsat: polynomial projections,
#: root isolation) count far fewer units per ms than the SMT core: 37-equation's long
#: checks measured 150-250 units per CPU-ms (bench/spec_budget_calibrate.py, session 9;
#: 500 was measured with the wall clock still cutting the long checks short).
NONLINEAR_UNITS_PER_MS = 200
#: Work cap of every check of a nonlinear problem (idle-machine ms at its rate). Why a cap
#: and not the attempt's whole pool: nonlinear checks that do not decide early rarely
#: decide late, and their units-per-ms rate falls the longer they run (a 37-equation check
#: limited to 400k units stopped after 1.7 s CPU, the same check limited to 7.4M ran past
#: 100 s: the count grows only between algebraic steps). Before session 9 these checks
#: kept a wall-clock timeout instead, so whether an attempt was kept depended on load.
NONLINEAR_CHECK_MS = 1000
#: Z3 parameters of every check of a nonlinear real problem. Why: an incremental check
#: (a solver checked again after a blocking clause, as the uniqueness check is) runs in
#: the SMT core, whose nonlinear module calls a Groebner-basis completion that counts
#: almost no rlimit units and does not poll for cancellation: a 37-equation uniqueness
#: check (seed 1, item 0) spent 12.8k units in 21 s CPU there and ignored its timeout,
#: so the rlimit cap never stopped it and only the safety net did. Without Groebner the
#: same check is proved unsat in milliseconds by the nlsat-based nra module (whose work
#: rlimit counts). Deterministic: a parameter, no clock.
NONLINEAR_SOLVER_PARAMS: dict[str, Any] = {"smt.arith.nl.grobner": False}
#: Key in the family's cache set once an attempt of the spec had its checks capped as
#: nonlinear: from then on every ``generate`` call gets a fresh Z3 context (spec/attempt.py
#: ``SpecZ3Contexts``), because where such a check stops (proved, or undecided at its cap)
#: depends on the units it spends, and those depend on the terms its context already holds.
BUDGET_DECIDES_KEY = ("puzzleforge.spec.budget", "budget-decides")


class FreshContextNeeded(Exception):
    """Raised when an attempt in the family's shared Z3 context turns out to be one whose
    checks the budget decides: the ``generate`` call starts over, from its first attempt
    and its random state, in a fresh context (spec/family.py ``generate_in_process``).

    Why start over: the call's earlier attempts left terms (and pre-checks, spec/model.py)
    in the shared context, so where this attempt's capped checks stop would depend on what
    ran before in the process; the call made again in a fresh context gives what any later
    call of the family gives (they all get fresh contexts once ``BUDGET_DECIDES_KEY`` is
    set), whatever ran before.
    """


#: The largest value Z3's ``rlimit`` parameter takes (an unsigned 32-bit integer).
_MAX_RLIMIT = (1 << 32) - 1
_U32 = 1 << 32


def units(ms: float) -> int:
    """Resource units equivalent to ``ms`` idle-machine milliseconds (at least 1)."""
    return max(1, min(_MAX_RLIMIT, int(ms * UNITS_PER_MS)))


class SafetyNetFired(BaseException):
    """The wall-clock safety net (``--max-seconds``) fired; the result would depend on load.

    A BaseException, like KeyboardInterrupt: the ``except Exception`` clauses that turn
    user-code errors into rejections must not swallow it (SIGALRM raises it anywhere).
    """

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds
        super().__init__("the wall-clock safety net fired")


def rlimit_count(obj: Any) -> int:
    """Z3's resource counter of the context of ``obj`` (a Solver or an Optimize).

    Read through the C API from the back of the statistics (where Z3 puts the key), since
    ``statistics().get_key_value`` walks every key through the Python wrappers.
    """
    ctx = obj.ctx.ref()
    if isinstance(obj, z3.Optimize):
        st = zc.Z3_optimize_get_statistics(ctx, obj.optimize)
    else:
        st = zc.Z3_solver_get_statistics(ctx, obj.solver)
    zc.Z3_stats_inc_ref(ctx, st)
    try:
        for i in range(zc.Z3_stats_size(ctx, st) - 1, -1, -1):
            if zc.Z3_stats_get_key(ctx, st, i) == "rlimit count":
                if zc.Z3_stats_is_uint(ctx, st, i):
                    return zc.Z3_stats_get_uint_value(ctx, st, i)
                return int(zc.Z3_stats_get_double_value(ctx, st, i))
    finally:
        zc.Z3_stats_dec_ref(ctx, st)
    return 0


class WorkBudget:
    """The Z3 work an attempt may still do, and the wall-clock safety net over it.

    ``total`` units for the whole attempt; ``used`` grows by what each check consumed.
    ``net_deadline`` (``time.monotonic()`` value, None for none) is the safety net.
    """

    def __init__(self, total: int, net_deadline: float | None = None) -> None:
        self.total = total
        self.used = 0
        self.net_deadline = net_deadline
        #: Set by ``run``: True when the last check returned unknown for lack of units.
        self.exhausted = False
        #: Units per idle-machine ms of the attempt's checks (``use_rate``): ``total`` and
        #: ``used`` are counted at ``UNITS_PER_MS``; a check at another rate is limited and
        #: charged in proportion, so the budget means the same time for every theory.
        self.rate = UNITS_PER_MS
        #: Work cap of every check in idle-machine ms (``use_rate``), None for none.
        self.check_cap_ms: float | None = None
        #: Z3 parameters set on every following check (``use_rate``), see
        #: ``NONLINEAR_SOLVER_PARAMS``.
        self.solver_params: dict[str, Any] = {}

    def use_rate(
        self,
        rate: int,
        check_cap_ms: float | None = None,
        solver_params: dict[str, Any] | None = None,
    ) -> None:
        """Count the following checks at ``rate`` units per ms (a property of the problem).

        ``check_cap_ms``: every following check is also capped at that much work (nonlinear
        arithmetic, see ``NONLINEAR_CHECK_MS``). Both are counted in units: no clock.
        ``solver_params``: Z3 parameters set on every following check
        (``NONLINEAR_SOLVER_PARAMS``).
        """
        self.rate = rate
        self.check_cap_ms = check_cap_ms
        self.solver_params = dict(solver_params or {})

    @classmethod
    def for_seconds(cls, seconds: float, net_deadline: float | None = None) -> WorkBudget:
        """The budget of ``seconds`` of idle-machine Z3 work (``attempt_seconds``)."""
        return cls(units(seconds * 1000), net_deadline)

    def remaining(self) -> int:
        return max(0, self.total - self.used)

    def remaining_ms(self) -> float:
        """The remaining units in idle-machine milliseconds (for slices given in ms)."""
        return self.remaining() / UNITS_PER_MS

    def check_net(self) -> None:
        if self.net_deadline is not None and time.monotonic() > self.net_deadline:
            raise SafetyNetFired()

    def check(self) -> None:
        """Reject an attempt whose work is used up; stop everything when the net fired."""
        self.check_net()
        if self.remaining() <= 0:
            raise Rejection("time limit", "the attempt used up its solver work budget")

    def run(self, solver: Any, cap_ms: float | None = None, *, charge: bool = True) -> Any:
        """``solver.check()`` limited to the remaining units (and to the cap, if given).

        Returns Z3's result; ``self.exhausted`` says whether an ``unknown`` came from the
        units running out (deterministic) rather than from Z3 giving up for another
        reason. Raises ``SafetyNetFired`` if the wall-clock net interrupted the check.
        ``charge=False`` (the pre-check in its private context, an accelerator whose
        "unknown" changes nothing) does not draw the units from the attempt's pool.
        """
        self.check_net()
        limit = self.remaining()
        if limit <= 0:  # nothing left (an rlimit of 0 would mean no limit): undecided
            self.exhausted = True
            return z3.unknown
        scale = self.rate / UNITS_PER_MS
        limit = max(1, min(_MAX_RLIMIT, int(limit * scale)))
        if self.check_cap_ms is not None:
            cap_ms = self.check_cap_ms if cap_ms is None else min(cap_ms, self.check_cap_ms)
        if cap_ms is not None:
            limit = min(limit, max(1, min(_MAX_RLIMIT, int(cap_ms * self.rate))))
        solver.set("rlimit", limit)
        for key, value in self.solver_params.items():
            solver.set(key, value)
        net_end = None
        if self.net_deadline is not None:
            # the safety net only: a check it interrupts raises SafetyNetFired below
            timeout_ms = max(1, int((self.net_deadline - time.monotonic()) * 1000))
            solver.set("timeout", timeout_ms)
            net_end = time.monotonic() + timeout_ms / 1000
        before = rlimit_count(solver)
        r = solver.check()
        spent = (rlimit_count(solver) - before) % _U32
        if charge:
            self.used += int(spent / scale)
        self.exhausted = r == z3.unknown and spent >= limit
        if (
            r == z3.unknown
            and not self.exhausted
            and net_end is not None
            and time.monotonic() >= net_end
        ):
            raise SafetyNetFired()  # the timeout we set (the net) stopped it: never a rejection
        return r
