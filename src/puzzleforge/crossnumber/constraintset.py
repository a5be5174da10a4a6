"""The constraints one cross-number model brings, in the order the solver queues them.

Why a list built once per solver: the work queue, the watch lists and the final check of
every leaf all run over the same constraints; what each one means lives in
constraints.py (digitcon.py for single digits in words, gridprop.py for whole-grid
rules, hooks.py for puzzle hooks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import kinds as nb
from .constraints import (
    AllDiff,
    AltCon,
    Con,
    ExprCon,
    FinalCheck,
    GridDigitSum,
    LinkCon,
    Matching,
    Ordered,
    ValuesOnce,
)
from .digitcon import digit_con
from .model import DIRECTIONS, Model

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["build_constraints"]


def build_constraints(s: Solver) -> list[Con]:
    """Every constraint of ``s.model``: each clue's parts and its link to its cells, then
    the puzzle-wide rules (the order decides the order of the step log)."""
    m = s.model
    cons: list[Con] = []
    for clue in m.clues.values():
        for part in clue.parts:
            if part.kind in ("value", "cond"):
                cons.append(ExprCon(s, clue, part))
            elif part.kind == "alt":
                cons.append(AltCon(s, clue, part))
            elif part.kind == "griddigits":
                cons.append(GridDigitSum(s, ("c", clue.name)))
            elif part.kind == "digits" and (dc := digit_con(s, clue, part)) is not None:
                cons.append(dc)  # "all digits odd" on the cells (digitcon.py)
        cons.append(LinkCon(s, clue))
    if m.rules.distinct:
        cons.append(AllDiff([("c", c) for c in m.clues], "answers are all different"))
    if m.variables.names and m.variables.distinct:
        cons.append(AllDiff([("v", v) for v in m.variables.names], "variables are all different"))
    for chain in m.variables.order:
        cons.append(Ordered([("v", v) for v in chain], " < ".join(chain)))
    if not m.mapped:
        for d in DIRECTIONS:
            keys = [("m", c.name) for c in m.clues.values() if c.direction == d]
            if not keys:
                continue
            cons.append(AllDiff(keys, f"each {d} entry holds one clue"))
            cons.append(Matching(keys, f"each {d} entry holds one clue"))
    if m.rules.clue_order:
        for d in DIRECTIONS:
            keys = [("c", c.name) for c in m.clues.values() if c.direction == d]
            if m.rules.clue_order == "descending":
                keys.reverse()
            cons.append(Ordered(keys, f"{d} clues are listed in {m.rules.clue_order} order"))
    if m.rules.grid_digit_sum is not None:
        cons.append(GridDigitSum(s, m.rules.grid_digit_sum))
    if m.rules.cell_values_once:
        cons.append(ValuesOnce(s, m.rules.cell_values_once))
    if m.rules.digits_once:
        cons.append(AllDiff([("x", rc) for rc in m.grid.cells()], "each digit once"))
    for kind in m.rules.no_repeat:
        for line in _lines(m, kind):
            cons.append(AllDiff([("x", rc) for rc in line], f"no repeated digit in {kind}"))
    if m.rules.reversed_pair:
        cons.append(FinalCheck(_reversed_pair, "one answer is another reversed"))
    if m.rules.grid:
        from .gridprop import GridRulesCon

        cons.append(GridRulesCon(s, m.rules.grid))
    if m.rules.hooks:
        from .hooks import HOOKS

        for h, args in m.rules.hooks:
            cons.append(FinalCheck(_hook_check(HOOKS[h], args), h))
    return cons


def _reversed_pair(s: Solver, a: dict) -> bool:
    """The ``reversed_pair`` rule: some answer is another answer reversed."""
    vals = [a[("c", c)] for c in s.model.clues]
    pool = set(vals)
    return any(nb.reverse_int(v) in pool and nb.reverse_int(v) != v for v in vals)


def _hook_check(fn: Callable[..., bool], args: dict[str, Any]) -> Callable[[Solver, dict], bool]:
    """A puzzle hook as a whole-solution check (``args`` are the file's hook arguments)."""

    def check(s: Solver, a: dict) -> bool:
        return fn(s.model, s.solution_from(a), **args)

    return check


def _lines(m: Model, kind: str) -> list[list[tuple[int, int]]]:
    """The white cells of each row, column or diagonal (``no_repeat``)."""
    g = m.grid
    if kind == "rows":
        return [[(r, c) for c in range(g.cols) if g.white[r][c]] for r in range(g.rows)]
    if kind == "columns":
        return [[(r, c) for r in range(g.rows) if g.white[r][c]] for c in range(g.cols)]
    n = min(g.rows, g.cols)
    return [
        [(i, i) for i in range(n) if g.white[i][i]],
        [(i, g.cols - 1 - i) for i in range(n) if g.white[i][g.cols - 1 - i]],
    ]
