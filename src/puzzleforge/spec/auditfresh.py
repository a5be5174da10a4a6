"""The audit's fresh Z3 context and its outcome record, shared by both ways of deciding.

Why a module of its own (split from spec/audit.py): the solver audit (spec/audit.py) and
the brute-force audit (spec/auditbrute.py) both start from the captured problem parsed
into a *new* Z3 context under a work bound, and both answer with an ``AuditOutcome``;
keeping those here lets each way of deciding live in its own module without importing
the other.

Why CPU time and work units, not wall-clock seconds: ``puzzleforge verify`` of one file
must print the same report on a busy machine as on an idle one. Z3 counts its work
(``rlimit``, at spec/budget.py's idle-machine rate), but its nonlinear procedures do not
always count it (spec/budget.py), so each fresh context also gets a CPU-time share: a
watcher thread (``CpuWatch``) reads the solving thread's own CPU clock and interrupts the
context once the share is spent. CPU time of one thread barely moves with the machine's
load, where wall-clock time moved with it (the same record passed idle and ended
undecided under load). A generous backstop (``NET_FACTOR`` times the share plus
``NET_SLACK`` seconds) stays only against a stuck process; when it fires the outcome says
so. The backstop counts the solving thread's *awake* time: wall-clock time minus the time
the thread sat runnable in the kernel's run queue waiting for a core
(``/proc/self/task/TID/schedstat``). Why: a thread starved of CPU by a loaded machine is
not stuck, and a plain wall-clock net fired on it (``verify`` of the same 90 records gave
90 pass at load 19 and one undecided 37-equation record at load 39, session 12); a thread
blocked on a lock or in a stuck call does not wait in the run queue, so its awake time
still grows and the net still catches it.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any

import z3

from ..core.cputime import AwakeClock
from .auditcapture import OBJECTIVE, Problem, _consts, _z3_value
from .budget import (
    NONLINEAR_SOLVER_PARAMS,
    NONLINEAR_UNITS_PER_MS,
    UNITS_PER_MS,
    rlimit_count,
)
from .termwalk import walk_terms
from .z3space import solver_for

__all__ = [
    "STATUSES",
    "NET_FACTOR",
    "NET_SLACK",
    "CpuWatch",
    "NLSAT",
    "AuditOutcome",
    "Fresh",
    "undecided",
    "nonlinear_real",
]


#: Every outcome, in report order (only "pass" is a success).
STATUSES = ("pass", "ambiguous", "wrong", "undecided", "error")
#: The backstop of a fresh context (awake time: wall clock minus run-queue wait): this
#: multiple of its CPU share plus
#: ``NET_SLACK`` seconds (only against a stuck process: see the module doc).
NET_FACTOR = 10.0
NET_SLACK = 30.0
#: How often the watcher reads the solving thread's CPU clock, in seconds.
POLL = 0.005
#: The largest value Z3's ``rlimit`` takes.
_MAX_RLIMIT = (1 << 32) - 1
#: The plan name of Z3's nlsat tactic (``qfnra-nlsat``: simplification, equation solving,
#: then the complete nlsat procedure for polynomial real arithmetic, run afresh on every
#: check). Why a plan of its own and not ``SolverFor("QF_NRA")``: that solver runs the
#: incremental SMT core once a check was made, and the core's nonlinear module gets stuck
#: on some 37-equation "no other solution" checks (156k units, then no more counted, until
#: the safety net) where the tactic proves unsat in 10 ms.
NLSAT = "qfnra-nlsat"


@dataclass
class AuditOutcome:
    """What an audit found: a status of ``STATUSES``, why in words, and how it decided."""

    status: str
    detail: str = ""
    method: str = "solver"
    #: True when the backstop ended the audit (the process looked stuck).
    net_fired: bool = False
    #: True when it ended undecided because its CPU share or work units ran out (a larger
    #: share in a later round may decide it; spec/audit.py ``audit_problem``).
    budget_spent: bool = False


class CpuWatch:
    """Interrupts a Z3 context once the creating thread spent ``cpu`` seconds of CPU time.

    Why a thread: Z3's nonlinear procedures do not count ``rlimit`` work, and Z3's own
    ``timeout`` is wall-clock. The watcher polls the solving thread's CPU clock
    (``pthread_getcpuclockid``; the ctypes calls into Z3 release the GIL) and calls the
    context's ``interrupt()``; it also interrupts once the thread's awake time (wall-clock
    time minus its run-queue wait, core/cputime.py ``AwakeClock``) passes the ``backstop``.
    """

    def __init__(self, ctx: Any, cpu: float, backstop: float) -> None:
        # ctx: anything with ``interrupt()`` (a Z3 context; spec/auditalgebra.py's kick)
        self.ctx = ctx
        self.cpu = cpu
        self.clock = time.pthread_getcpuclockid(threading.get_ident())
        self.start = time.clock_gettime(self.clock)
        self.awake = AwakeClock(os.getpid(), threading.get_native_id())
        self.deadline = time.monotonic() + backstop
        #: set by the watcher: the CPU share was spent / the wall-clock backstop fired
        self.cpu_spent = False
        self.net_fired = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="audit-cpu-watch", daemon=True)
        self._thread.start()

    def used(self) -> float:
        """CPU seconds the solving thread spent since the watch started."""
        return time.clock_gettime(self.clock) - self.start

    def _watch(self) -> None:
        while not self._stop.wait(POLL):
            if self.used() >= self.cpu:
                self.cpu_spent = True
            elif self._net_due():
                self.net_fired = True
            else:
                continue
            self.ctx.interrupt()
            return

    def spent(self) -> bool:
        """True once the share or the backstop ran out (also read between checks)."""
        if not (self.cpu_spent or self.net_fired):
            if self.used() >= self.cpu:
                self.cpu_spent = True
            elif self._net_due():
                self.net_fired = True
        return self.cpu_spent or self.net_fired

    def _net_due(self) -> bool:
        """True once the thread's awake time (wall minus run-queue wait) passed the backstop.

        The run queue is read only after the plain wall-clock deadline passed, so an idle
        machine pays nothing for it.
        """
        return self.awake.past(self.deadline)

    def close(self) -> float:
        """Stop the watcher; return the CPU seconds used."""
        used = self.used()
        self._stop.set()
        self._thread.join()
        return used


class Fresh:
    """The problem parsed into a new Z3 context, and the work bound of its checks.

    ``units`` is what the checks of this audit may still consume (Z3's resource count,
    read before and after each check); ``watch`` interrupts the checks once ``seconds``
    of the thread's CPU time are spent (or the wall-clock backstop fires). ``close()``
    stops the watcher and gives the CPU seconds used.
    """

    def __init__(self, problem: Problem, seconds: float, logic: str | None = None) -> None:
        self.ctx = z3.Context()
        #: None (Z3's default solver), a logic name (``SolverFor``) or ``NLSAT``
        self.logic = logic
        self.seed = problem.seed
        self.seconds = seconds
        self.backstop = seconds * NET_FACTOR + NET_SLACK
        self.watch = CpuWatch(self.ctx, seconds, self.backstop)
        self.assertions = list(z3.parse_smt2_string(problem.smt2, ctx=self.ctx))
        by_name = {str(c): c for c in _consts(self.assertions)}
        self.consts = [by_name.get(n) for n in problem.names]
        self.objective = by_name.get(OBJECTIVE)
        self.all = [c for n, c in by_name.items() if n != OBJECTIVE]
        # nonlinear real arithmetic counts ~8x fewer units per ms (spec/budget.py)
        self.nra = logic in ("QF_NRA", NLSAT) or (
            "real" in problem.sorts and _nonlinear(self.assertions)
        )
        rate = NONLINEAR_UNITS_PER_MS if self.nra else UNITS_PER_MS
        self.units = int(seconds * 1000 * rate)

    def solver(self) -> z3.Solver:
        if self.logic == NLSAT:
            s = z3.Tactic(NLSAT, ctx=self.ctx).solver()
        else:
            s = solver_for(self.logic, self.ctx) if self.logic else z3.Solver(ctx=self.ctx)
            s.set("random_seed", self.seed)
            if self.nra:  # as generation's checks (spec/budget.py): Groebner ignores rlimit
                for key, value in NONLINEAR_SOLVER_PARAMS.items():
                    s.set(key, value)
        s.add(self.assertions)
        return s

    @property
    def net_fired(self) -> bool:
        return self.watch.net_fired

    def budget_spent(self) -> bool:
        """True when the CPU share or the work units ran out (not the backstop)."""
        return self.watch.cpu_spent or self.units <= 0

    def out_of_time(self) -> bool:
        """True once the CPU share was spent or the wall-clock backstop fired."""
        return self.watch.spent()

    def close(self) -> float:
        return self.watch.close()

    def check(self, s: z3.Solver) -> Any:
        if self.units <= 0 or self.out_of_time():
            return z3.unknown
        s.set("rlimit", min(_MAX_RLIMIT, self.units))
        before = rlimit_count(s)
        r = s.check()
        self.units -= (rlimit_count(s) - before) % (1 << 32)
        return r

    def eqs(self, values: list[tuple[str, str]]) -> list:
        return [
            c == _z3_value(v, self.ctx)
            for c, v in zip(self.consts, values, strict=False)
            if c is not None
        ]

    def differs(self, values: list[tuple[str, str]]) -> Any:
        return z3.Or(
            [
                c != _z3_value(v, self.ctx)
                for c, v in zip(self.consts, values, strict=False)
                if c is not None
            ]
            + [z3.BoolVal(False, self.ctx)]
        )

    def show(self, model: Any, consts: list) -> str:
        parts = []
        for c in consts:
            if c is None:
                continue
            v = model.eval(c, model_completion=True)
            parts.append(f"{c}={v}")
        return ", ".join(parts[:40]) + (" ..." if len(parts) > 40 else "")


def undecided(what: str, s: z3.Solver | None, f: Fresh) -> AuditOutcome:
    if f.net_fired:
        why = (
            f"the backstop ({f.backstop:g} s awake without using its CPU share) fired: the "
            f"process looked stuck"
        )
    elif f.units <= 0:
        why = f"within its {f.seconds:g} CPU seconds (its work units ran out)"
    elif f.watch.cpu_spent:
        why = f"within its {f.seconds:g} CPU seconds"
    else:
        reason = s.reason_unknown() if s is not None else "no reason"
        why = f"within its {f.seconds:g} s of solver work ({reason})"
    return AuditOutcome(
        "undecided",
        f"{what}: the fresh solver could not decide {why}",
        net_fired=f.net_fired,
        budget_spent=f.budget_spent() and not f.net_fired,
    )


def nonlinear_real(problem: Problem) -> bool:
    """True when the problem has Real constants and a nonlinear term (parsed in a
    throwaway context: the plans of an audit are chosen before its first fresh context)."""
    if "real" not in problem.sorts:
        return False
    ctx = z3.Context()
    return _nonlinear(list(z3.parse_smt2_string(problem.smt2, ctx=ctx)))


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
