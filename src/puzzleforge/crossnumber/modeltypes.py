"""The checked form of a cross-number puzzle file: grid, entries, clues, variables, rules.

Why a module of its own: the solver, the renderers and every part of the file reader
(model.py, clueparse.py, filerules.py, fileclues.py, filesections.py) share these
records; keeping them apart from the reading code lets each reader import them without
importing the others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import expr as ex
from .digitclues import DigitRule
from .grid import Entry, Grid

__all__ = ["Part", "Clue", "Variables", "Rules", "Model", "DIRECTIONS"]

DIRECTIONS = ("across", "down", "any")  # "any": one clue list for both directions


@dataclass
class Part:
    """One conjunct of a clue. ``kind``: 'type' (number kind test), 'value' (the clue's
    value equals every side of an expression), 'cond' (a relation that mentions the clue
    itself), 'griddigits' (the sum of all digits in the grid), 'alt' (at least one of
    ``alts`` holds: a part naming ``other`` entries, one alternative per choice) or
    'digits' (a rule on single digits in words, ``digits``; its test is ``number_kind``)."""

    kind: str
    text: str
    number_kind: str | None = None
    sides: list[ex.Compiled] = field(default_factory=list)
    cond: ex.Compiled | None = None
    alts: list[Part] = field(default_factory=list)
    digits: DigitRule | None = None


@dataclass
class Clue:
    name: str
    direction: str
    text: str
    parts: list[Part]
    cells: int
    entry: str | None  # fixed entry, or None when the mapping is searched
    candidates: list[str]  # entries this clue may map to
    transform: str | None = None  # "reverse": the entry holds the value reversed
    line: int | None = None

    @property
    def tests(self) -> list[str]:
        """Names of the value tests: number kinds and digit rules (kinds.kind_test)."""
        return [p.number_kind for p in self.parts if p.kind in ("type", "digits") and p.number_kind]


@dataclass
class Variables:
    names: list[str]
    domain: list[int]
    distinct: bool
    order: list[list[str]]  # chains a < b < c
    text: str = ""


@dataclass
class Rules:
    distinct: bool = True
    leading_zeros: bool = False
    digits: list[int] = field(default_factory=lambda: list(range(10)))
    cell_values: list[int] | None = None  # multi-digit cells (e.g. 0..16)
    cell_values_once: list[int] = field(default_factory=list)
    digits_once: bool = False
    no_repeat: list[str] = field(default_factory=list)  # rows / columns / diagonals
    reversed_pair: bool = False
    grid_digit_sum: int | None = None
    nontrivial: bool = False
    clue_order: str | None = None  # ascending / descending within each direction
    hooks: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    grid: list[Any] = field(default_factory=list)  # gridrules.GridRule, checked on full grids
    grid_text: list[str] = field(default_factory=list)  # the rules as written
    every_clue: list[str] = field(default_factory=list)  # parts added to every clue


@dataclass
class Model:
    title: str
    grid: Grid
    entries: dict[str, Entry]
    clues: dict[str, Clue]
    variables: Variables
    rules: Rules
    expect: dict[str, Any]
    notes: str
    source: str | None
    raw: dict[str, Any]

    @property
    def mapped(self) -> bool:
        """True when every clue's entry is known (no clue-to-entry search needed)."""
        return all(c.entry is not None for c in self.clues.values())

    def cell_domain(self) -> list[str]:
        vals = self.rules.cell_values if self.rules.cell_values is not None else self.rules.digits
        return [str(v) for v in vals if v >= 10 or v in self.rules.digits]
