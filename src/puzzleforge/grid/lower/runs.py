"""Run patterns (Nonogram lines) as a regular constraint over one line of Booleans.

Why a module of its own: ``runs_match`` is the one rule that is neither a formula nor a
count. It becomes a small automaton unrolled along the line (one state literal per
position and automaton state, forward transitions, exactly one state per position),
states pruned to those that can still reach the end, so a line with a pattern costs
clauses linear in its length times the pattern length.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.solver.encodings import at_most_k
from ..primitives import run_automaton

if TYPE_CHECKING:
    from .lowering import Lowering

__all__ = ["lower_runs"]


def lower_runs(low: Lowering, pattern: tuple, lits: list[int], guard: list[int]) -> None:
    """Regular constraint: state literals per position, forward transitions, exactly
    one state per position (states pruned to those that can still reach the end)."""
    L, delta = run_automaton(pattern)
    n = len(lits)
    states: list[dict] = []
    for i in range(n + 1):
        ok = {j for j in range(L + 1) if j <= i and (n - i) >= (L - j)}
        states.append({j: low.new() for j in sorted(ok)})
    if not states[0] or 0 not in states[0]:
        low.emit(list(guard))
        return
    low.emit([states[0][0]] + guard)
    for i in range(n):
        x = lits[i]
        for j, s in states[i].items():
            for bit, cond in ((1, x), (0, -x)):
                k = delta(j, bit)
                nxt = states[i + 1].get(k) if k is not None else None
                if nxt is None:
                    low.emit([-s, -cond] + guard)
                else:
                    low.emit([-s, -cond, nxt] + guard)
        cur = list(states[i + 1].values())
        for c in (
            at_most_k(cur, 1, low.pool, "seqcounter")
            if len(cur) > 5
            else [[-cur[a], -cur[b]] for a in range(len(cur)) for b in range(a + 1, len(cur))]
        ):
            low.emit(list(c) + guard)
    final = states[n].get(L)
    low.emit(([final] if final else []) + guard)
