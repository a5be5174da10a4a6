"""Session.add_atmost: native on Minicard/Gluecard, a sequential counter elsewhere; the
model counts must be the binomial sums whichever way the constraint is kept."""

from __future__ import annotations

from math import comb

import pytest

from puzzleforge.core.solver import VarPool, open_session

CASES = [("sat", None), ("sat", "minicard"), ("sat", "gluecard4"), ("glucose", None), ("z3", None)]


@pytest.mark.parametrize("backend,solver", CASES)
@pytest.mark.parametrize("with_pool", [False, True])
def test_atmost_counts_are_binomial_sums(backend: str, solver: str | None, with_pool: bool) -> None:
    pool = VarPool() if with_pool else None
    xs = [pool.id(("x", i)) for i in range(6)] if pool is not None else list(range(1, 7))
    session = open_session(backend, [], solver=solver, pool=pool)
    session.add_atmost(xs, 2)  # at most 2 true
    session.add_atmost([-x for x in xs], 4)  # at least 2 true
    native = solver in ("minicard", "gluecard4")
    assert session.native_cardinality is native
    # enumeration allocates an activation literal: it must not collide with counter auxiliaries
    count = session.count(project=xs)
    assert count.exact and count.count == comb(6, 2)
    session.close()


def test_atmost_under_assumptions_on_minicard() -> None:
    session = open_session("sat", [], solver="minicard")
    session.add_atmost([1, 2, 3, 4], 1)
    assert session.check([1]).value == "sat"
    assert session.check([1, 2]).value == "unsat"
    ok, implied = session.propagate([3])
    assert ok and {-1, -2, -4} <= set(implied)
    with pytest.raises(ValueError):
        session.add_atmost([1, 0], 1)
