"""The constraints of the cross-number solver: each narrows domains and checks leaves.

Why this module: the solver (solver.py) only runs a work queue and a search; what a clue,
a clue/entry link or a puzzle-wide rule means lives in one module per job, each class with
``propagate`` (narrow the sets it watches) and ``check`` (judge a complete assignment).
This module gathers their public names so callers import them from one place:

- conbase.py: ``Con``, ``Contradiction``, ``FinalCheck``, ``range_for``, the work limits;
- exprcon.py: ``ExprCon`` (a clue equals an expression, or a relation holds);
- altcon.py: ``AltCon`` (one of several alternatives holds);
- linkcon.py: ``LinkCon`` (a clue's value is written in its entry's cells);
- groupcon.py: ``AllDiff``, ``Matching``, ``Ordered`` (rules over a group of keys);
- gridcounts.py: ``GridDigitSum``, ``ValuesOnce`` (rules over every cell).

Single digits in words are digitcon.py's, grid rules in the clue language gridprop.py's.
"""

from __future__ import annotations

from .altcon import AltCon
from .conbase import (
    BUDGET,
    CHECK_LIMIT,
    COMBO_LIMIT,
    Con,
    Contradiction,
    FinalCheck,
    range_for,
)
from .exprcon import ExprCon
from .gridcounts import GridDigitSum, ValuesOnce
from .groupcon import AllDiff, Matching, Ordered
from .linkcon import LinkCon

__all__ = [
    "Con",
    "ExprCon",
    "AltCon",
    "LinkCon",
    "AllDiff",
    "Matching",
    "Ordered",
    "GridDigitSum",
    "ValuesOnce",
    "FinalCheck",
    "Contradiction",
    "range_for",
    "COMBO_LIMIT",
    "CHECK_LIMIT",
    "BUDGET",
]
