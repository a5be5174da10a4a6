"""Counts of Booleans against a constant: the top-level cardinality rules.

Why a module of its own: a rule such as "exactly n shaded cells in each row" is the
most common grid rule and the one whose encoding matters most for speed. It skips the
value-map arithmetic of ``ints`` and goes straight to a cardinality encoding: pairwise
for at-most-one over a short list, a single clause where one suffices, otherwise the
core encoding named by ``card_encoding``, or (``"native"``) an at-most-k constraint kept
in ``Lowering.natives`` for a solver that propagates it natively (Minicard); clue-guarded
counts cannot be native and fall back to the sequential counter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.solver.encodings import at_least_k, at_most_k, exactly_k
from ..ground.nodes import gtype

if TYPE_CHECKING:
    from .lowering import Lowering

__all__ = ["count_form", "lower_count", "natives_as_clauses"]


def count_form(low: Lowering, g: tuple) -> tuple | None:
    """(op, lits, k) when ``g`` compares a count of Booleans with a constant."""
    op, a, b = g[1], g[2], g[3]
    if a[0] == "c" and b[0] != "c":
        a, b = b, a
        op = {"Lt": "Gt", "Le": "Ge", "Gt": "Lt", "Ge": "Le"}.get(op, op)
    if b[0] != "c" or isinstance(b[1], str):
        return None
    k = int(b[1])
    terms = a[1] if a[0] == "add" else (a,)
    lits = []
    for t in terms:
        if t[0] == "c":
            k -= int(t[1])
        elif gtype(t) == "bool":
            lits.append(low.lit(t))
        else:
            return None
    if len(lits) < 2 or op == "Ne":
        return None
    return (op, lits, k)


def lower_count(low: Lowering, form: tuple, guard: list[int]) -> None:
    """Emit the clauses (or native constraints) of ``form``, each clause with ``guard``."""
    op, lits, k = form
    n = len(lits)
    enc = low.card_encoding
    if op == "Lt":
        op, k = "Le", k - 1
    elif op == "Gt":
        op, k = "Ge", k + 1
    if op in ("Le", "Eq") and k == 1 and n <= 12:  # pairwise at-most-one (+ at-least-one)
        clauses = [[-lits[i], -lits[j]] for i in range(n) for j in range(i + 1, n)]
        if op == "Eq":
            clauses.append(list(lits))
    elif op == "Le" and k == n - 1:
        clauses = [[-lit for lit in lits]]
    elif op == "Ge" and k == 1:
        clauses = [list(lits)]
    elif enc == "native" and not guard and 0 < k < n:
        if op in ("Le", "Eq"):
            _native_atmost(low, lits, k)
        if op in ("Ge", "Eq"):
            _native_atmost(low, [-lit for lit in lits], n - k)
        return
    elif enc == "native":
        clauses = {"Le": at_most_k, "Ge": at_least_k}.get(op, exactly_k)(
            lits, k, low.pool, "seqcounter"
        )
    elif op == "Le":
        clauses = at_most_k(lits, k, low.pool, enc)
    elif op == "Ge":
        clauses = at_least_k(lits, k, low.pool, enc)
    else:
        clauses = exactly_k(lits, k, low.pool, enc)
    for c in clauses:
        low.emit(list(c) + guard)


def _native_atmost(low: Lowering, lits: list[int], k: int) -> None:
    """Record ``at most k of lits`` natively (constant literals folded into k)."""
    T = low.T
    k -= sum(1 for lit in lits if lit == T)
    rest = [lit for lit in lits if abs(lit) != T]
    if k < 0:
        low.emit([-T])
    elif k == 0:
        for lit in rest:
            low.emit([-lit])
    elif k < len(rest) and len({abs(lit) for lit in rest}) == len(rest):
        low.natives.append((rest, k))
    elif k < len(rest):  # a literal repeated (or with its negation): clauses count it right
        for c in at_most_k(rest, k, low.pool, "seqcounter"):
            low.emit(list(c))


def natives_as_clauses(natives: list[tuple[list[int], int]], pool: Any) -> list[list[int]]:
    """The native constraints as sequential-counter clauses (auxiliaries from ``pool``),
    for sessions without native cardinality (propagation copies, other backends)."""
    out: list[list[int]] = []
    for lits, k in natives:
        out.extend(list(c) for c in at_most_k(lits, k, pool, "seqcounter"))
    return out
