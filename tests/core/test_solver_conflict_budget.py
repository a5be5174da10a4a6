"""SatSession.check_conflicts: a per-call budget of solver work. Pigeonhole 8 -> 7 is
unsatisfiable and needs thousands of conflicts (CaDiCaL), so a budget of 100 is
undecided and a generous one decides it; the outcome does not depend on the clock."""

from __future__ import annotations

import itertools

from puzzleforge.core.solver import open_session
from puzzleforge.core.solver.results import Status
from puzzleforge.core.solver.sat_backend import SatSession


def _pigeonhole(n: int, m: int) -> list[list[int]]:
    def v(i: int, j: int) -> int:
        return i * m + j + 1

    clauses = [[v(i, j) for j in range(m)] for i in range(n)]
    for j in range(m):
        for a, b in itertools.combinations(range(n), 2):
            clauses.append([-v(a, j), -v(b, j)])
    return clauses


def test_budget_decides_or_reports_undecided() -> None:
    for budget, expected in ((100, Status.TIMEOUT), (1_000_000, Status.UNSAT)):
        session = open_session("sat", _pigeonhole(8, 7))
        try:
            assert isinstance(session, SatSession)
            assert session.check_conflicts([], budget) is expected
        finally:
            session.close()


def test_a_satisfiable_call_reads_its_model() -> None:
    session = open_session("sat", [[1, 2], [-1]])
    try:
        assert isinstance(session, SatSession)
        assert session.check_conflicts([], 10) is Status.SAT
        assert session.model([1, 2]) == {1: False, 2: True}
    finally:
        session.close()
