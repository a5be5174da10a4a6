"""One incremental solver session over clauses, shared by every backend.

Why: generators ask "is it still unique?" hundreds of times per puzzle. The formula is
loaded once; clues sit behind selector literals switched on through assumptions;
enumeration blocks models under a fresh activation literal that is retired afterwards,
so the session stays usable for the next question. Backends only implement loading
clauses and one time-limited ``_check``.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence

from ..errors import BackendUnavailable
from .pool import VarPool
from .results import Count, Enumeration, Model, SolveResult, Status, Uniqueness

__all__ = ["Session", "open_session", "BACKENDS", "deadline_after"]

Clause = Sequence[int]

#: Backend name -> (module, class, default solver name).
BACKENDS: dict[str, tuple[str, str]] = {
    "sat": ("puzzleforge.core.solver.sat_backend", "SatSession"),
    "cadical": ("puzzleforge.core.solver.sat_backend", "SatSession"),
    "glucose": ("puzzleforge.core.solver.sat_backend", "SatSession"),
    "z3": ("puzzleforge.core.solver.z3_backend", "Z3Session"),
}


def deadline_after(time_limit: float | None) -> float | None:
    return None if time_limit is None else time.monotonic() + max(0.0, time_limit)


class Session(ABC):
    """Incremental satisfiability over integer literals (DIMACS convention)."""

    backend: str = "?"

    def __init__(self) -> None:
        self.num_vars = 0
        self.pool = None  # a VarPool shared with the caller, set by open_session
        self._closed = False

    # -- loading -----------------------------------------------------------------------
    def add_clause(self, clause: Clause) -> None:
        clause = [int(lit) for lit in clause]
        for lit in clause:
            if lit == 0:
                raise ValueError("literal 0 is not allowed in a clause")
            if abs(lit) > self.num_vars:
                self.num_vars = abs(lit)
        self._add(clause)

    def add_clauses(self, clauses: Iterable[Clause]) -> None:
        """Bulk load (validation per clause at C speed, one backend call): grid rule sets
        hold tens of thousands of clauses and are loaded once per puzzle."""
        batch = [[int(lit) for lit in clause] for clause in clauses]
        top = self.num_vars
        for clause in batch:
            if 0 in clause:
                raise ValueError("literal 0 is not allowed in a clause")
            if clause:
                top = max(top, max(clause), -min(clause))
        self.num_vars = top
        self._add_many(batch)

    def _add_many(self, clauses: list[list[int]]) -> None:
        for clause in clauses:
            self._add(clause)

    def new_var(self) -> int:
        """A fresh variable (for activation literals) that no named variable will reuse.

        With a pool the variable comes from it, so later ``pool.id(...)`` calls never
        collide with it; without one it is one above every variable seen so far.
        """
        if self.pool is not None:
            var = self.pool.fresh()
            self.num_vars = max(self.num_vars, var)
            return var
        self.num_vars += 1
        return self.num_vars

    #: True when ``add_atmost`` is a native constraint of the solver (no auxiliary variables).
    native_cardinality: bool = False

    def add_atmost(self, lits: Sequence[int], k: int) -> None:
        """At most ``k`` of ``lits`` are true.

        Backends with native cardinality constraints keep it as one constraint (counting
        propagation, no auxiliary variables: several times faster per assumption-heavy
        check than a clause encoding); the others get a sequential counter whose
        auxiliary variables come from the pool (or above every variable seen so far).
        """
        from .encodings import at_most_k

        lits = [int(lit) for lit in lits]
        self._note_vars(lits)
        pool = self.pool
        if pool is None:
            pool = VarPool()
            pool.reserve_upto(self.num_vars)
        else:
            pool.reserve_upto(self.num_vars)
        self.add_clauses(at_most_k(lits, k, pool))
        self.num_vars = max(self.num_vars, pool.top)

    def _note_vars(self, variables: Sequence[int]) -> None:
        for var in variables:
            if abs(var) > self.num_vars:
                self.num_vars = abs(var)

    # -- backend hooks -----------------------------------------------------------------
    @abstractmethod
    def _add(self, clause: list[int]) -> None: ...

    @abstractmethod
    def _check(self, assumptions: list[int], deadline: float | None) -> Status: ...

    @abstractmethod
    def _model(self, variables: Iterable[int]) -> Model: ...

    def propagate(self, assumptions: Sequence[int] = ()) -> tuple[bool, list[int]]:
        """Unit propagation only: (consistent, implied literals). Grading uses it to ask
        what follows from the clues without search. Backends that cannot: BackendUnavailable."""
        raise BackendUnavailable(
            f"backend {self.backend} cannot propagate without search", expected="the sat backend"
        )

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- operations --------------------------------------------------------------------
    def check(self, assumptions: Sequence[int] = (), time_limit: float | None = None) -> Status:
        """SAT / UNSAT / TIMEOUT without reading a model (the cheap form of a uniqueness
        check: reading a model of a large formula costs more than the check itself)."""
        return self._check(list(assumptions), deadline_after(time_limit))

    def solve(
        self,
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
        project: Sequence[int] | None = None,
    ) -> SolveResult:
        """One model (over ``project`` or all variables), UNSAT, or TIMEOUT."""
        status = self._check(list(assumptions), deadline_after(time_limit))
        if status is not Status.SAT:
            return SolveResult(status)
        variables = project if project is not None else range(1, self.num_vars + 1)
        return SolveResult(status, self._model(variables))

    def enumerate(
        self,
        project: Sequence[int] | None = None,
        limit: int | None = None,
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
    ) -> Enumeration:
        """Distinct models projected on ``project`` (default: all variables), up to ``limit``.

        Blocking clauses carry a fresh activation literal that is permanently falsified
        at the end, so they never affect later calls on this session.
        """
        deadline = deadline_after(time_limit)
        variables = list(project) if project is not None else list(range(1, self.num_vars + 1))
        self._note_vars(variables)
        self._note_vars(assumptions)
        act = self.new_var()
        models: list[Model] = []
        complete, timed_out = True, False
        try:
            while limit is None or len(models) < limit:
                status = self._check([*assumptions, act], deadline)
                if status is Status.TIMEOUT:
                    complete, timed_out = False, True
                    break
                if status is Status.UNSAT:
                    break
                model = self._model(variables)
                models.append(model)
                if not variables:
                    break  # the empty projection has exactly one model
                self.add_clause([-act] + [(-v if model[v] else v) for v in variables])
            else:
                complete = False  # stopped at the limit; more models may exist
        finally:
            self.add_clause([-act])
        return Enumeration(models, complete, timed_out)

    def count(
        self,
        limit: int | None = None,
        project: Sequence[int] | None = None,
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
    ) -> Count:
        """Number of projected models; stops at ``limit`` (then ``exact`` is False)."""
        found = self.enumerate(project, limit, assumptions, time_limit)
        return Count(len(found), exact=found.complete, timed_out=found.timed_out)

    def is_unique(
        self,
        project: Sequence[int] | None = None,
        assumptions: Sequence[int] = (),
        time_limit: float | None = None,
    ) -> Uniqueness:
        """Exactly one projected model? Decided by the exact solver, never a heuristic."""
        found = self.enumerate(project, 2, assumptions, time_limit)
        if found.timed_out:
            return Uniqueness("timeout", found.models)
        if len(found) == 0:
            return Uniqueness("none")
        if len(found) == 1:
            return Uniqueness("unique", found.models)
        return Uniqueness("multiple", found.models)


def open_session(
    backend: str = "sat",
    clauses: Iterable[Clause] = (),
    *,
    solver: str | None = None,
    pool: VarPool | None = None,
) -> Session:
    """Open a session on ``backend`` ("sat" = CaDiCaL, "glucose", "z3").

    ``solver`` picks the PySAT engine for the SAT backend ("cadical195", "glucose4", ...;
    "minicard" and "gluecard4" keep ``add_atmost`` constraints native).
    Pass the ``pool`` the clauses were built from so activation literals come from it.

    >>> with open_session("sat", [[1, 2], [-1]]) as s:
    ...     s.solve().value(2)
    True
    """
    import importlib

    try:
        module_name, class_name = BACKENDS[backend]
    except KeyError:
        raise BackendUnavailable(
            f"unknown solver backend '{backend}'", expected="one of " + ", ".join(BACKENDS)
        ) from None
    cls = getattr(importlib.import_module(module_name), class_name)
    if backend == "glucose" and solver is None:
        solver = "glucose4"
    session = cls(solver=solver) if cls.__name__ == "SatSession" else cls()
    session.pool = pool
    session.add_clauses(clauses)
    if pool is not None:
        session._note_vars([pool.top] if pool.top else [])
    return session
