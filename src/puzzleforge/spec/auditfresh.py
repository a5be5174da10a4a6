"""The audit's fresh Z3 context and its outcome record, shared by both ways of deciding.

Why a module of its own (split from spec/audit.py): the solver audit (spec/audit.py) and
the brute-force audit (spec/auditbrute.py) both start from the captured problem parsed
into a *new* Z3 context under a wall-clock bound, and both answer with an
``AuditOutcome``; keeping those here lets each way of deciding live in its own module
without importing the other.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from .auditcapture import OBJECTIVE, Problem, _consts, _z3_value

__all__ = ["STATUSES", "AuditOutcome", "Fresh", "undecided"]


#: Every outcome, in report order (only "pass" is a success).
STATUSES = ("pass", "ambiguous", "wrong", "undecided", "error")


@dataclass
class AuditOutcome:
    """What an audit found: a status of ``STATUSES``, why in words, and how it decided."""

    status: str
    detail: str = ""
    method: str = "solver"


class Fresh:
    """The problem parsed into a new Z3 context, and the wall-clock bound of its checks."""

    def __init__(self, problem: Problem, seconds: float, logic: str | None = None) -> None:
        self.ctx = z3.Context()
        self.logic = logic
        self.seed = problem.seed
        self.deadline = time.monotonic() + seconds
        self.assertions = list(z3.parse_smt2_string(problem.smt2, ctx=self.ctx))
        by_name = {str(c): c for c in _consts(self.assertions)}
        self.consts = [by_name.get(n) for n in problem.names]
        self.objective = by_name.get(OBJECTIVE)
        self.all = [c for n, c in by_name.items() if n != OBJECTIVE]

    def solver(self) -> z3.Solver:
        s = z3.SolverFor(self.logic, ctx=self.ctx) if self.logic else z3.Solver(ctx=self.ctx)
        s.set("random_seed", self.seed)
        s.add(self.assertions)
        return s

    def check(self, s: z3.Solver) -> Any:
        left = self.deadline - time.monotonic()
        if left <= 0:
            return z3.unknown
        s.set("timeout", max(1, int(left * 1000)))
        return s.check()

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


def undecided(what: str, s: z3.Solver) -> AuditOutcome:
    return AuditOutcome("undecided", f"{what}: the fresh solver could not decide within the audit's "
                                     f"seconds ({s.reason_unknown()})")
