"""Solve cross-number ``Model``s: propagation to a fixpoint, then search.

Why this is the module everyone imports: the solver is split by job -- ``propagation.py``
(the ``Solver``: domains, the constraints' work queue), ``search.py`` (case splits and
solution counting), ``domains.py`` (the starting sets), ``constraintset.py`` (which
constraints a model brings), ``results.py`` (``Solution``, ``SolveResult``) and
``steptext.py`` (how the step log names things) -- while callers keep one entry point:
``solve`` a model, ``check_grid`` a proposed answer, ``fail_if_timed_out`` where a solve
decides what is kept.

Every clue keeps a set of possible values, every cell a set of possible digits (or
multi-digit cell values), every variable a set of values, and -- for puzzles whose clue
numbers are not given -- every clue a set of entries it may sit in. Constraints narrow
those sets until nothing changes; then the solver picks the smallest open set, tries each
value and propagates again, collecting every solution up to a limit so non-unique
puzzles are reported. Every leaf is re-checked against every constraint exactly, so a
constraint that deferred its enumeration never lets a wrong grid through.
"""

from __future__ import annotations

import random

from .constraints import Contradiction
from .model import Model
from .propagation import Solver
from .results import Solution, SolveResult

__all__ = [
    "Solver",
    "SolveResult",
    "Solution",
    "solve",
    "Contradiction",
    "check_grid",
    "fail_if_timed_out",
    "rows_to_cells",
]


def solve(
    model: Model,
    *,
    limit: int = 10,
    time_limit: float = 60.0,
    log_steps: bool = True,
    fixed: dict[tuple[int, int], str] | None = None,
    rng: random.Random | None = None,
    node_limit: int | None = None,
) -> SolveResult:
    """Solve a model; every solution up to ``limit`` (``complete`` says the count is exact).
    ``fixed`` pins cells (row, col) -> text, e.g. to check a proposed grid; ``rng`` tries
    values in random order (the generator uses it to fill grids)."""
    return Solver(model, log_steps=log_steps, fixed=fixed, rng=rng).solve(
        limit=limit, time_limit=time_limit, node_limit=node_limit
    )


def fail_if_timed_out(result: SolveResult, what: str, seconds: float) -> SolveResult:
    """``result``, unless its CPU time limit stopped the search: then a loud
    ``LimitExceeded`` (exit status 4).

    Why: where a solve decides what is kept (generation, a bundled file's check), an
    undecided search stopped by seconds must not count as a rejection, or the output would
    depend on machine speed; the node limits are the deciding budgets (docs/limits.md).
    """
    if result.timed_out:
        from ..core.limits import LimitExceeded

        raise LimitExceeded(
            f"{what} was stopped at its limit of {seconds:g} CPU seconds per solve "
            f"({result.nodes} search nodes); no puzzle is given, because which one came out "
            "would depend on the machine's speed",
            expected="a smaller puzzle or grid, or a larger time limit",
        )
    return result


def rows_to_cells(model: Model, rows: list[str] | list[list[str]]) -> dict[tuple[int, int], str]:
    """Grid rows ('455451' or '10 1 7 ...' or lists) -> {(r, c): cell text} for white cells."""
    out: dict[tuple[int, int], str] = {}
    for r, row in enumerate(rows):
        cells = (
            row
            if isinstance(row, list)
            else (str(row).split() if " " in str(row).strip() else list(str(row).strip()))
        )
        for c, ch in enumerate(cells):
            if r < model.grid.rows and c < model.grid.cols and model.grid.white[r][c] and ch != "#":
                out[(r, c)] = str(ch)
    return out


def check_grid(
    model: Model,
    rows: list[str] | list[list[str]],
    *,
    time_limit: float = 10.0,
    what: str = "checking a grid",
) -> Solution | None:
    """The solution whose grid is ``rows`` if it satisfies every clue and rule, else None
    (fast: every cell is pinned, so only variables are left to deduce). A check stopped
    by ``time_limit`` CPU seconds is ``LimitExceeded``, never "does not fit"."""
    cells = rows_to_cells(model, rows)
    if len(cells) != len(model.grid.cells()):
        return None
    res = solve(model, limit=1, time_limit=time_limit, log_steps=False, fixed=cells)
    fail_if_timed_out(res, what, time_limit)
    return res.solutions[0] if res.solutions else None
