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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.solver import VarPool, exactly_one, open_session
from .clues import Clue, Obj

__all__ = ["ExactChecker"]


class ExactChecker:
    """One incremental SAT session over the grid variables and every clue's clauses."""

    def __init__(self, K: int, k: int, time_limit: float = 20.0) -> None:
        self.K, self.k = K, k
        self.time_limit = time_limit
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
        self.session = open_session("sat", pool=self.pool)
        self.session.add_clauses(clauses)
        self.selectors: dict[int, int] = {}
        self._blockers: dict[tuple, int] = {}

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

    def other_solution_exists(
        self, keys: Sequence[int], sol: Sequence[Sequence[int]]
    ) -> bool | None:
        """Is there a solution of the clues ``keys`` other than ``sol``? None on timeout."""
        assumptions = [self.selectors[k] for k in keys] + [self._blocker(sol)]
        res = self.session.solve(assumptions, time_limit=self.time_limit)
        if res.timed_out:
            return None
        return res.sat

    def count(self, keys: Sequence[int], limit: int = 2) -> int:
        """Number of solutions of the clues ``keys`` (stops at ``limit``)."""
        project = [
            self.var(0, e, c, j)
            for c in range(1, self.K)
            for e in range(self.k)
            for j in range(self.k)
        ]
        found = self.session.enumerate(
            project, limit, [self.selectors[k] for k in keys], time_limit=self.time_limit
        )
        return len(found)

    def solutions(self, keys: Sequence[int], limit: int = 2) -> list[list[list[int]]]:
        """Up to ``limit`` solutions as ``sol[c][e]``."""
        project = [
            self.var(0, e, c, j)
            for c in range(1, self.K)
            for e in range(self.k)
            for j in range(self.k)
        ]
        found = self.session.enumerate(
            project, limit, [self.selectors[k] for k in keys], time_limit=self.time_limit
        )
        out = []
        for model in found.models:
            sol = [list(range(self.k))]
            for c in range(1, self.K):
                sol.append(
                    [
                        next(j for j in range(self.k) if model[self.var(0, e, c, j)])
                        for e in range(self.k)
                    ]
                )
            out.append(sol)
        return out

    def certify(self, keys: Sequence[int], sol: Sequence[Sequence[int]]) -> dict[str, Any]:
        """Uniqueness of ``sol`` and necessity of every clue, as recorded in metadata."""
        other = self.other_solution_exists(keys, sol)
        unique = other is False
        necessary = []
        for key in keys:
            rest = [k for k in keys if k != key]
            necessary.append(self.other_solution_exists(rest, sol) is True)
        return {
            "unique": unique,
            "all_clues_necessary": all(necessary),
            "necessary": necessary,
            "solver": self.session.backend,
        }

    def close(self) -> None:
        self.session.close()
