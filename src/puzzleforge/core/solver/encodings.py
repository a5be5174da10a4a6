"""Pure clause encodings: ``(literals, bound, pool) -> clauses``. They never own a solver.

Why pure: the same clauses go to CaDiCaL, Glucose or Z3, and tests can count their
models against closed forms (binomial sums) independently of any solver session.
"""

from __future__ import annotations

from collections.abc import Sequence

from pysat.card import CardEnc, EncType

from .pool import VarPool

__all__ = [
    "at_most_one",
    "at_least_one",
    "exactly_one",
    "at_most_k",
    "at_least_k",
    "exactly_k",
    "CARD_ENCODINGS",
]

Clause = list[int]

#: Names users may choose for cardinality constraints.
CARD_ENCODINGS = {
    "seqcounter": EncType.seqcounter,
    "totalizer": EncType.totalizer,
    "sortnetwrk": EncType.sortnetwrk,
    "cardnetwrk": EncType.cardnetwrk,
    "mtotalizer": EncType.mtotalizer,
    "kmtotalizer": EncType.kmtotalizer,
}


def at_least_one(lits: Sequence[int]) -> list[Clause]:
    return [list(lits)]


def at_most_one(lits: Sequence[int]) -> list[Clause]:
    """Pairwise at-most-one: best for the short lists grid puzzles produce."""
    lits = list(lits)
    return [[-lits[i], -lits[j]] for i in range(len(lits)) for j in range(i + 1, len(lits))]


def exactly_one(lits: Sequence[int]) -> list[Clause]:
    return at_least_one(lits) + at_most_one(lits)


def _card(kind: str, lits: Sequence[int], k: int, pool: VarPool, encoding: str) -> list[Clause]:
    lits = list(lits)
    n = len(lits)
    if k < 0:
        return [[]] if kind in ("atmost", "equals") else []
    if kind == "atleast" and k == 0:
        return []
    if kind in ("atleast", "equals") and k > n:
        return [[]]
    if kind == "atmost" and k >= n:
        return []
    if kind == "atmost" and k == 0:
        return [[-lit] for lit in lits]
    if kind == "equals" and k == 0:
        return [[-lit] for lit in lits]
    if kind == "atleast" and k == n or kind == "equals" and k == n:
        return [[lit] for lit in lits]
    if kind == "atleast" and k == 1:
        return [lits]
    if kind == "atmost" and k == 1 and n <= 6:
        return at_most_one(lits)
    if kind == "equals" and k == 1 and n <= 6:
        return exactly_one(lits)
    try:
        enc = CARD_ENCODINGS[encoding]
    except KeyError:
        raise ValueError(
            f"unknown cardinality encoding {encoding!r}; choose one of {', '.join(CARD_ENCODINGS)}"
        ) from None
    method = getattr(CardEnc, kind)
    cnf = method(lits=lits, bound=k, top_id=pool.top, encoding=enc)
    if cnf.nv > pool.top:
        pool.reserve_upto(cnf.nv)
    return [list(c) for c in cnf.clauses]


def at_most_k(
    lits: Sequence[int], k: int, pool: VarPool, encoding: str = "seqcounter"
) -> list[Clause]:
    """Clauses true exactly when at most ``k`` of ``lits`` are true (aux vars from ``pool``)."""
    return _card("atmost", lits, k, pool, encoding)


def at_least_k(
    lits: Sequence[int], k: int, pool: VarPool, encoding: str = "seqcounter"
) -> list[Clause]:
    return _card("atleast", lits, k, pool, encoding)


def exactly_k(
    lits: Sequence[int], k: int, pool: VarPool, encoding: str = "seqcounter"
) -> list[Clause]:
    return _card("equals", lits, k, pool, encoding)
