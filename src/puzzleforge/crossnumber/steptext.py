"""How the solver's subjects read in the step log: a domain key, a clue's kinds, its length.

Why shared: the search's case analysis, the starting domains and the hint engine all name
the same cells, clues and entries, and must name them the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Clue

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["key_text", "kinds_text", "length_text"]


def key_text(key: tuple) -> str:
    """``r2c3`` for a cell, ``entry of A1`` for a clue's entry, else the clue or variable."""
    if key[0] == "x":
        r, c = key[1]
        return f"r{r + 1}c{c + 1}"
    if key[0] == "m":
        return f"entry of {key[1]}"
    return str(key[1])


def kinds_text(c: Clue) -> str:
    """The clue's kind tests joined by "and" ("prime and square"), or "unclued"."""
    return " and ".join(c.tests) or "unclued"


def length_text(s: Solver, c: Clue) -> str:
    """``3 digits``, or ``3 cells`` when a cell may hold a multi-digit value."""
    return f"{c.cells} cells" if s.multi else f"{c.cells} digits"
