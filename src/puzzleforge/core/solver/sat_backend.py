"""SAT backend: PySAT with CaDiCaL 1.9.5 by default, Glucose 4 selectable, Minicard /
Gluecard when native cardinality constraints (``add_atmost``) are wanted.

Time limits: CaDiCaL in PySAT ignores ``interrupt()``, so a limited call runs the solver
in conflict-budget slices and checks the clock between them; learned clauses survive the
slices, so no work is lost. Kissat is refused: it aborts when clauses follow a solve.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

from pysat.solvers import Solver

from ..errors import BackendUnavailable
from .results import Model, Status
from .session import Session

__all__ = ["SatSession", "SAT_SOLVERS", "NATIVE_CARD_SOLVERS"]

SAT_SOLVERS = (
    "cadical195",
    "glucose4",
    "glucose42",
    "minisat22",
    "maplechrono",
    "lingeling",
    "minicard",
    "gluecard3",
    "gluecard4",
)

#: Solvers whose ``add_atmost`` is a native constraint.
NATIVE_CARD_SOLVERS = ("minicard", "gluecard3", "gluecard4")


class SatSession(Session):
    backend = "sat"

    def __init__(self, solver: str | None = None) -> None:
        super().__init__()
        name = solver or "cadical195"
        if name not in SAT_SOLVERS:
            raise BackendUnavailable(
                f"SAT solver '{name}' is not usable incrementally here",
                expected="one of " + ", ".join(SAT_SOLVERS),
            )
        self.solver_name = name
        self.backend = "sat:" + name
        self._solver = Solver(name=name)
        self.native_cardinality = name in NATIVE_CARD_SOLVERS

    def add_atmost(self, lits: Sequence[int], k: int) -> None:
        if not self.native_cardinality:
            super().add_atmost(lits, k)
            return
        lits = [int(lit) for lit in lits]
        if 0 in lits:
            raise ValueError("literal 0 is not allowed in a cardinality constraint")
        self._note_vars(lits)
        self._solver.add_atmost(lits, k)

    def _add(self, clause: list[int]) -> None:
        self._solver.add_clause(clause)

    def _add_many(self, clauses: list[list[int]]) -> None:
        self._solver.append_formula(clauses)

    def _check(self, assumptions: list[int], deadline: float | None) -> Status:
        if deadline is None:
            ok = self._solver.solve(assumptions=assumptions)
            return Status.SAT if ok else Status.UNSAT
        budget = 1000
        while True:
            if time.monotonic() >= deadline:
                return Status.TIMEOUT
            start = time.monotonic()
            self._solver.conf_budget(budget)
            ok = self._solver.solve_limited(assumptions=assumptions)
            if ok is not None:
                return Status.SAT if ok else Status.UNSAT
            spent = time.monotonic() - start
            left = deadline - time.monotonic()
            # grow the slice while it is cheap, shrink it near the deadline
            if spent < left / 8:
                budget = min(budget * 2, 1_000_000)
            elif spent > left and budget > 100:
                budget //= 4

    def check_conflicts(self, assumptions: Sequence[int], conflicts: int) -> Status:
        """SAT / UNSAT, or TIMEOUT when the solver spends ``conflicts`` conflicts without
        an answer. A work budget, not a clock: the same calls give the same outcomes on
        any machine at any load (the rule for budgets that decide kept/rejected)."""
        self._note_vars(assumptions)
        self._solver.conf_budget(max(1, int(conflicts)))
        ok = self._solver.solve_limited(assumptions=list(assumptions))
        if ok is None:
            return Status.TIMEOUT
        return Status.SAT if ok else Status.UNSAT

    def model(self, variables: Iterable[int]) -> Model:
        """The last SAT answer's values of ``variables``."""
        return self._model(variables)

    def _model(self, variables: Iterable[int]) -> Model:
        raw = self._solver.get_model() or []
        truth = {abs(lit): lit > 0 for lit in raw}
        return {v: truth.get(v, False) for v in variables}

    def propagate(self, assumptions: Sequence[int] = ()) -> tuple[bool, list[int]]:
        ok, lits = self._solver.propagate(assumptions=list(assumptions))
        return bool(ok), list(lits or [])

    def close(self) -> None:
        if not self._closed:
            self._solver.delete()
        super().close()
