"""Exact certification with a SAT solver: uniqueness and necessity of every clue.

Why SAT and not the deduction engine: the engine's propagators are sound but
incomplete, so "the engine solved it" proves the solution is forced only if every
propagator is sound; uniqueness is a promise to dataset users, so it is decided by an
exact solver (ARCHITECTURE.md: never by a heuristic alone).

Encoding: one variable per cell of the paper grid (pairing of object i of c1 with
object j of c2, c1 < c2); every row and column of every box has exactly one pairing;
pairings are transitive across every triple of categories. Each clue's clauses carry a
selector literal, so one incremental session answers "unique with this clue set?" and
"is clue c necessary?" through assumptions (STYLE habit 7).

Budget: every solver call may spend at most ``conflicts`` conflicts (a count of solver
work, never seconds, so a kept or rejected clue set is the same on any machine at any
load). A call that runs out is *undecided*: ``other_solution_exists`` answers None and
counts it in ``undecided``; the generator rejects such an attempt and names the reason
(a clue set is never certified on an undecided check). The default is far above what
an 8x8 grid needs (measured: one call needs at most a few hundred conflicts up to 7x7).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.solver import VarPool, exactly_one, open_session
from ..core.solver.results import Status
from ..core.solver.sat_backend import SatSession
from .clues import Clue, Obj

__all__ = ["ExactChecker", "CONFLICT_BUDGET"]

#: Conflicts one solver call may spend before it is undecided.
CONFLICT_BUDGET = 200_000


class ExactChecker:
    """One incremental SAT session over the grid variables and every clue's clauses."""

    def __init__(self, K: int, k: int, conflicts: int | None = None) -> None:
        self.K, self.k = K, k
        self.conflicts = CONFLICT_BUDGET if conflicts is None else conflicts
        #: solver calls that ran out of their conflict budget
        self.undecided = 0
        self.pool = VarPool()
        clauses: list[list[int]] = []
        for c1 in range(K):
            for c2 in range(c1 + 1, K):
                for i in range(k):
                    clauses += exactly_one([self.var(c1, i, c2, j) for j in range(k)])
                    clauses += exactly_one([self.var(c1, j, c2, i) for j in range(k)])
        for c1 in range(K):
            for c2 in range(c1 + 1, K):
                for c3 in range(c2 + 1, K):
                    for i in range(k):
                        for j in range(k):
                            ab = self.var(c1, i, c2, j)
                            for line in range(k):
                                ac, bc = self.var(c1, i, c3, line), self.var(c2, j, c3, line)
                                clauses += [[-ab, -bc, ac], [-ab, -ac, bc], [-ac, -bc, ab]]
        session = open_session("sat", pool=self.pool)
        assert isinstance(session, SatSession)
        self.session: SatSession = session
        self.session.add_clauses(clauses)
        self.selectors: dict[int, int] = {}
        self._blockers: dict[tuple, int] = {}
        self._enums = 0

    def _new_id(self, key: object) -> int:
        """A pool id that cannot collide with the session's own activation literals."""
        self.pool.reserve_upto(self.session.num_vars)
        var = self.pool.id(key)
        self.session.num_vars = max(self.session.num_vars, var)
        return var

    def var(self, c1: int, i1: int, c2: int, i2: int) -> int:
        if c1 > c2:
            c1, i1, c2, i2 = c2, i2, c1, i1
        return self.pool.id(("m", c1, i1, c2, i2))

    def atom(self, x: Obj, y: Obj) -> int | bool:
        if x[0] == y[0]:
            return x[1] == y[1]
        return self.var(x[0], x[1], y[0], y[1])

    def add_clue(self, clue: Clue, key: int) -> int:
        """Load a clue's clauses behind a fresh selector; returns the selector."""
        sel = self._new_id(("sel", key))
        self.selectors[key] = sel
        for clause in clue.cnf(self.atom):
            self.session.add_clause([-sel, *clause])
        return sel

    def _blocker(self, sol: Sequence[Sequence[int]]) -> int:
        key = tuple(tuple(r) for r in sol)
        act = self._blockers.get(key)
        if act is None:
            act = self._new_id(("block", key))
            self._blockers[key] = act
            lits = [-self.var(0, e, c, sol[c][e]) for c in range(1, self.K) for e in range(self.k)]
            self.session.add_clause([-act, *lits])
        return act

    def _check(self, assumptions: Sequence[int]) -> bool | None:
        """SAT (True) / UNSAT (False) under the conflict budget, None when undecided."""
        status = self.session.check_conflicts(assumptions, self.conflicts)
        if status is Status.TIMEOUT:
            self.undecided += 1
            return None
        return status is Status.SAT

    def other_solution_exists(
        self, keys: Sequence[int], sol: Sequence[Sequence[int]]
    ) -> bool | None:
        """Is there a solution of the clues ``keys`` other than ``sol``? None when the
        conflict budget runs out first."""
        return self._check([self.selectors[k] for k in keys] + [self._blocker(sol)])

    def _enumerate(self, keys: Sequence[int], limit: int) -> tuple[list[list[list[int]]], bool]:
        """Up to ``limit`` solutions as ``sol[c][e]``, and whether the enumeration was
        decided (False when a call ran out of budget: the list may be short).

        Each found solution is blocked under a fresh activation literal that is
        retired afterwards, so the session answers later questions unchanged."""
        project = [
            self.var(0, e, c, j)
            for c in range(1, self.K)
            for e in range(self.k)
            for j in range(self.k)
        ]
        self._enums += 1
        act = self._new_id(("enum", self._enums))
        assumptions = [self.selectors[k] for k in keys] + [act]
        out: list[list[list[int]]] = []
        decided = True
        try:
            while len(out) < limit:
                res = self._check(assumptions)
                if res is None:
                    decided = False
                    break
                if not res:
                    break
                model = self.session.model(project)
                sol = [list(range(self.k))]
                for c in range(1, self.K):
                    sol.append(
                        [
                            next(j for j in range(self.k) if model[self.var(0, e, c, j)])
                            for e in range(self.k)
                        ]
                    )
                out.append(sol)
                self.session.add_clause([-act] + [-v if model[v] else v for v in project])
        finally:
            self.session.add_clause([-act])
        return out, decided

    def count(self, keys: Sequence[int], limit: int = 2) -> int:
        """Number of solutions of the clues ``keys`` (stops at ``limit``)."""
        return len(self._enumerate(keys, limit)[0])

    def solutions(self, keys: Sequence[int], limit: int = 2) -> list[list[list[int]]]:
        """Up to ``limit`` solutions as ``sol[c][e]``."""
        return self._enumerate(keys, limit)[0]

    def certify(self, keys: Sequence[int], sol: Sequence[Sequence[int]]) -> dict[str, Any]:
        """Uniqueness of ``sol`` and necessity of every clue, as recorded in metadata.
        ``undecided`` is True when a call ran out of its conflict budget (then the set is
        neither unique nor all-necessary here: it is never certified on a guess)."""
        other = self.other_solution_exists(keys, sol)
        undecided = other is None
        necessary = []
        for key in keys:
            rest = [k for k in keys if k != key]
            res = self.other_solution_exists(rest, sol)
            undecided |= res is None
            necessary.append(res is True)
        out: dict[str, Any] = {
            "unique": other is False,
            "all_clues_necessary": all(necessary),
            "necessary": necessary,
            "solver": self.session.backend,
        }
        if undecided:
            out["undecided"] = True
        return out

    def close(self) -> None:
        self.session.close()
