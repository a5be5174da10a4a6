"""Z3 backend: the same session API over Z3 Booleans.

Why: the clause API lets tests compare Z3 and SAT on identical formulas. (The spec
engine, whose formulas are Z3 terms over Int/Real/Bool symbols, drives Z3 itself.)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

import z3

from .results import Model, Status
from .session import Session

__all__ = ["Z3Session"]


def _check_with_deadline(
    solver: z3.Solver, deadline: float | None, assumptions: Sequence[z3.BoolRef] = ()
) -> Status:
    """``solver.check`` with the remaining time as Z3's timeout; unknown at expiry -> TIMEOUT."""
    if deadline is not None:
        left_ms = int((deadline - time.monotonic()) * 1000)
        if left_ms <= 0:
            return Status.TIMEOUT
        solver.set("timeout", left_ms)
    result = solver.check(*assumptions)
    if deadline is not None:
        solver.set("timeout", 4294967295)
    if result == z3.sat:
        return Status.SAT
    if result == z3.unsat:
        return Status.UNSAT
    return Status.TIMEOUT


class Z3Session(Session):
    backend = "z3"

    def __init__(self, solver: str | None = None) -> None:
        super().__init__()
        self._ctx = z3.Context()
        self._solver = (
            z3.SolverFor("QF_FD", ctx=self._ctx) if solver == "qf_fd" else z3.Solver(ctx=self._ctx)
        )
        self._bools: dict[int, z3.BoolRef] = {}

    def _var(self, v: int) -> z3.BoolRef:
        b = self._bools.get(v)
        if b is None:
            b = z3.Bool(f"v{v}", self._ctx)
            self._bools[v] = b
        return b

    def _lit(self, lit: int) -> z3.BoolRef:
        return self._var(lit) if lit > 0 else z3.Not(self._var(-lit), self._ctx)

    def _add(self, clause: list[int]) -> None:
        if not clause:
            self._solver.add(z3.BoolVal(False, self._ctx))
        elif len(clause) == 1:
            self._solver.add(self._lit(clause[0]))
        else:
            self._solver.add(z3.Or([self._lit(lit) for lit in clause]))

    def _check(self, assumptions: list[int], deadline: float | None) -> Status:
        return _check_with_deadline(self._solver, deadline, [self._lit(lit) for lit in assumptions])

    def _model(self, variables: Iterable[int]) -> Model:
        m = self._solver.model()
        return {v: z3.is_true(m.eval(self._var(v), model_completion=True)) for v in variables}
