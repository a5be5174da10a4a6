"""Solver API: model counts against closed forms, on every backend (real solvers)."""

from __future__ import annotations

import itertools
from math import comb

import pytest

from puzzleforge.core.solver import (
    VarPool,
    at_least_k,
    at_most_k,
    exactly_k,
    exactly_one,
    open_session,
)
from puzzleforge.core.solver.encodings import CARD_ENCODINGS

BACKENDS = ["sat", "glucose", "z3"]
QUEENS = {4: 2, 5: 10, 6: 4, 7: 40, 8: 92}


def queens(n: int, pool: VarPool) -> tuple[list[list[int]], list[int]]:
    x = lambda r, c: pool.id(("q", r, c))  # noqa: E731
    clauses: list[list[int]] = []
    for r in range(n):
        clauses += exactly_one([x(r, c) for c in range(n)])
    for c in range(n):
        col = [x(r, c) for r in range(n)]
        clauses += [[-a, -b] for a, b in itertools.combinations(col, 2)]
    cells = [(r, c) for r in range(n) for c in range(n)]
    for (r1, c1), (r2, c2) in itertools.combinations(cells, 2):
        if r1 != r2 and abs(r1 - r2) == abs(c1 - c2):
            clauses.append([-x(r1, c1), -x(r2, c2)])
    return clauses, [x(r, c) for r, c in cells]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", sorted(QUEENS))
def test_n_queens_counts(backend: str, n: int) -> None:
    pool = VarPool()
    clauses, project = queens(n, pool)
    with open_session(backend, clauses) as session:
        result = session.count(project=project)
    assert result.exact and result.count == QUEENS[n]


@pytest.mark.parametrize("backend", BACKENDS)
def test_enumerations_agree_across_backends(backend: str) -> None:
    pool = VarPool()
    clauses, project = queens(6, pool)
    with open_session(backend, clauses) as session:
        models = session.enumerate(project=project).models
    solutions = sorted(tuple(v for v in project if m[v]) for m in models)
    with open_session("sat", clauses) as reference:
        expected = sorted(
            tuple(v for v in project if m[v]) for m in reference.enumerate(project=project).models
        )
    assert solutions == expected and len(solutions) == 4


@pytest.mark.parametrize(
    "encoding", ["seqcounter", "totalizer", "sortnetwrk", "cardnetwrk", "mtotalizer"]
)
@pytest.mark.parametrize("n,k", [(5, 2), (6, 3), (7, 1), (6, 0), (4, 4)])
def test_cardinality_counts_match_binomial_sums(encoding: str, n: int, k: int) -> None:
    for kind, encode, expected in (
        ("atmost", at_most_k, sum(comb(n, i) for i in range(0, k + 1))),
        ("atleast", at_least_k, sum(comb(n, i) for i in range(k, n + 1))),
        ("equals", exactly_k, comb(n, k)),
    ):
        pool = VarPool()
        lits = [pool.id(("x", i)) for i in range(n)]
        clauses = encode(lits, k, pool, encoding)
        with open_session("sat", clauses) as session:
            result = session.count(project=lits)
        assert result.count == expected, (kind, encoding, n, k)


def test_cardinality_on_z3_matches_sat() -> None:
    pool = VarPool()
    lits = [pool.id(("x", i)) for i in range(7)]
    clauses = at_most_k(lits, 3, pool)
    with open_session("z3", clauses) as session:
        assert session.count(project=lits).count == sum(comb(7, i) for i in range(4))


def test_unknown_encoding_is_a_clear_error() -> None:
    pool = VarPool()
    lits = [pool.id(i) for i in range(5)]
    with pytest.raises(ValueError, match="unknown cardinality encoding"):
        at_most_k(lits, 2, pool, "nope")
    assert "seqcounter" in CARD_ENCODINGS
