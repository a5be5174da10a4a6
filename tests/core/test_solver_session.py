"""Solver sessions: assumptions, incremental uniqueness, limits and time limits."""

from __future__ import annotations

import pytest

from puzzleforge.core.errors import BackendUnavailable
from puzzleforge.core.solver import Status, VarPool, exactly_one, open_session

BACKENDS = ["sat", "glucose", "z3"]


def pigeonhole(holes: int) -> list[list[int]]:
    """holes+1 pigeons in `holes` holes: unsatisfiable and exponentially hard for CDCL."""
    pool = VarPool()
    p = lambda i, j: pool.id((i, j))  # noqa: E731
    clauses = [[p(i, j) for j in range(holes)] for i in range(holes + 1)]
    for j in range(holes):
        for a in range(holes + 1):
            for b in range(a + 1, holes + 1):
                clauses.append([-p(a, j), -p(b, j)])
    return clauses


@pytest.mark.parametrize("backend", BACKENDS)
def test_assumptions_and_uniqueness(backend: str) -> None:
    pool = VarPool()
    xs = [pool.id(i) for i in range(4)]
    with open_session(backend, exactly_one(xs)) as session:
        assert session.is_unique(project=xs).status == "multiple"
        assert session.is_unique(project=xs, assumptions=[-xs[0], -xs[1], -xs[2]]).unique
        assert session.is_unique(project=xs, assumptions=[xs[0], xs[1]]).status == "none"
        # enumeration must not have changed the formula
        assert session.count(project=xs).count == 4
        result = session.solve(assumptions=[xs[2]])
        assert result.sat and result.value(xs[2]) and not result.value(xs[0])


@pytest.mark.parametrize("backend", BACKENDS)
def test_limit_stops_enumeration(backend: str) -> None:
    pool = VarPool()
    xs = [pool.id(i) for i in range(6)]
    with open_session(backend, [xs]) as session:  # 63 models
        capped = session.count(limit=10, project=xs)
        assert capped.count == 10 and not capped.exact
        full = session.count(project=xs)
        assert full.count == 63 and full.exact


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_is_a_reported_outcome(backend: str) -> None:
    clauses = pigeonhole(11)
    with open_session(backend, clauses) as session:
        # (that it returns at all is pytest-timeout's to enforce; no wall-clock assertion)
        result = session.solve(time_limit=0.5)
        assert result.status is Status.TIMEOUT and result.timed_out
        counted = session.count(time_limit=0.3)
        assert counted.timed_out and not counted.exact
        assert session.is_unique(time_limit=0.3).status == "timeout"


def test_unknown_backend_names_the_choices() -> None:
    with pytest.raises(BackendUnavailable, match="one of"):
        open_session("cplex")
    with pytest.raises(BackendUnavailable, match="SAT solver 'kissat'"):
        open_session("sat", solver="kissat")


def test_literal_zero_rejected() -> None:
    with open_session("sat") as session, pytest.raises(ValueError):
        session.add_clause([1, 0])
