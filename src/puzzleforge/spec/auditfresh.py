"""The audit's fresh Z3 context and its outcome record, shared by both ways of deciding.

Why a module of its own (split from spec/audit.py): the solver audit (spec/audit.py) and
the brute-force audit (spec/auditbrute.py) both start from the captured problem parsed
into a *new* Z3 context under a work bound, and both answer with an ``AuditOutcome``;
keeping those here lets each way of deciding live in its own module without importing
the other.

Why work units, not seconds: ``puzzleforge verify`` of one file must print the same
report on a busy machine as on an idle one. Z3 counts its work deterministically
(``rlimit``, at spec/budget.py's idle-machine rate), so an audit that ends undecided does
so on every run. A wall-clock safety net of ``NET_FACTOR`` times the seconds stays,
because Z3's nonlinear procedures do not always stop at their rlimit (spec/budget.py);
when it fires the outcome says so (that outcome alone depends on the machine).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

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
    "NLSAT",
    "AuditOutcome",
    "Fresh",
    "undecided",
    "nonlinear_real",
]


#: Every outcome, in report order (only "pass" is a success).
STATUSES = ("pass", "ambiguous", "wrong", "undecided", "error")
#: The wall-clock safety net of an audit, as a multiple of its seconds (see the module doc).
NET_FACTOR = 3.0
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
    #: True when the wall-clock safety net ended the audit (the one load-dependent outcome).
    net_fired: bool = False


class Fresh:
    """The problem parsed into a new Z3 context, and the work bound of its checks.

    ``units`` is what the checks of this audit may still consume (Z3's resource count,
    read before and after each check); ``net`` is the wall-clock safety net's deadline.
    """

    def __init__(self, problem: Problem, seconds: float, logic: str | None = None) -> None:
        self.ctx = z3.Context()
        #: None (Z3's default solver), a logic name (``SolverFor``) or ``NLSAT``
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


def undecided(what: str, s: z3.Solver, f: Fresh) -> AuditOutcome:
    if f.net_fired:
        why = (
            f"the wall-clock safety net ({f.seconds * NET_FACTOR:g} s) fired: this outcome "
            f"depends on the machine's load"
        )
    else:
        why = f"within its {f.seconds:g} s of solver work ({s.reason_unknown()})"
    return AuditOutcome(
        "undecided", f"{what}: the fresh solver could not decide {why}", net_fired=f.net_fired
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
