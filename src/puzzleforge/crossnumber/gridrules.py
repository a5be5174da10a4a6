"""Whole-grid rules written in the clue expression language (``rules.grid``).

Why: some published puzzles constrain the grid as a whole ("no even digit is repeated
anywhere in the grid"), which no clue and no fixed rule can say. A grid rule is a
relation over ``count0`` .. ``count9`` (how many times each digit occurs in the grid),
the puzzle's entries and its variables, parsed by the same safe parser as clues (never
``eval``). An optional ``for X in <digits>`` suffix repeats the rule with ``countX``
replaced by each digit (several ``for`` suffixes repeat it over every combination), so::

    rules:
      grid:
      - countE <= 1 for E in 0,2,4,6,8     # no even digit repeated in the grid
      - count1 = count7                    # as many 1s as 7s
      - countD * countE * (countD - countE) = 0 for D in 0..9 for E in 0..9
                                           # every digit used is used equally often

Grid rules propagate on partial grids by interval reasoning (``gridprop.py``) and are
checked exactly on complete candidate grids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..core.errors import InvalidSpec
from . import expr as ex
from .ranges import parse_range

__all__ = ["GridRule", "COUNT_NAMES", "cell_name", "parse_grid_rules", "digit_counts"]

COUNT_NAMES = [f"count{d}" for d in range(10)]


def cell_name(rc: tuple[int, int]) -> str:
    """``r2c3``: the number in row 2, column 3 (counted from 1) -- a grid rule's name for
    one cell, so rules can relate single cells (a magic square's rows and columns)."""
    return f"r{rc[0] + 1}c{rc[1] + 1}"


_FOR = re.compile(
    r"^(?P<body>.*)\s+for\s+(?P<letter>[A-Za-z])\s+in\s+(?P<digits>[0-9][0-9.,\s-]*)$"
)


@dataclass
class GridRule:
    """One relation (after expanding ``for``): its text, and compiled sides and operators."""

    text: str
    sides: list[ex.Compiled]
    ops: tuple[str, ...]

    def holds(self, env: dict[str, int]) -> bool:
        vals: list[int] = []
        for side in self.sides:
            v = side.single(env) if side.single is not None else None
            if v is None:
                return False
            vals.append(v)
        return all(
            ex.compare(op, a, b) for op, (a, b) in zip(self.ops, pairwise(vals), strict=True)
        )


def digit_counts(cells: list[str]) -> dict[str, int]:
    """``count0`` .. ``count9``: occurrences of each digit over all cells (a two-digit
    cell value such as 16 counts one 1 and one 6)."""
    text = "".join(cells)
    return {f"count{d}": text.count(str(d)) for d in range(10)}


def parse_grid_rules(
    raw: Any,
    *,
    clues: list[str],
    variables: list[str],
    file: str | None,
    lines: dict[str, int],
    cells: list[tuple[int, int]] | None = None,
) -> list[GridRule]:
    """``rules.grid`` (a rule or a list of rules) -> GridRules; bad rules raise InvalidSpec
    naming the rule's own YAML line (``lines``: dotted field path -> line)."""
    line = lines.get("rules.grid")

    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list):
        raise InvalidSpec(
            f"rules.grid is {type(raw).__name__}, not a list of rules",
            file=file,
            field="rules.grid",
            line=line,
            expected="a list of relations such as 'countE <= 1 for E in 0,2,4,6,8'",
        )
    out: list[GridRule] = []
    for i, item in enumerate(items):
        fld = f"rules.grid[{i}]"
        line = lines.get(fld, lines.get("rules.grid"))
        text = str(item).strip()
        body = text
        loops: list[tuple[str, list[int]]] = []
        while m := _FOR.match(body):  # peel 'for X in ...' suffixes, last first
            letter = m.group("letter")
            digits = parse_range(m.group("digits"), what=fld, file=file, fld=fld, line=line)
            bad = [d for d in digits if not 0 <= d <= 9]
            if bad:
                raise InvalidSpec(
                    f"{fld}: {bad[0]} is not a digit",
                    file=file,
                    field=fld,
                    line=line,
                    expected="digits 0..9 after 'for X in'",
                )
            body = m.group("body")
            loops.insert(0, (letter, digits))
        bodies = [body]
        for letter, digits in loops:
            pattern = re.compile(rf"\bcount{letter}\b")
            if not pattern.search(body):
                raise InvalidSpec(
                    f"{fld}: 'for {letter} in ...' but the rule never says count{letter}",
                    file=file,
                    field=fld,
                    line=line,
                    expected=f"a rule that uses count{letter}",
                )
            bodies = [pattern.sub(f"count{d}", b) for b in bodies for d in digits]
        for body in bodies:
            node = ex.parse(
                body,
                clues=list(clues) + COUNT_NAMES + [cell_name(rc) for rc in cells or []],
                variables=variables,
                field=fld,
                file=file,
                line=line,
            )
            if node.op != "cmp":
                raise InvalidSpec(
                    f"{fld}: {text!r} is not a relation",
                    file=file,
                    field=fld,
                    line=line,
                    expected="a comparison such as 'count0 <= 1' (= < > <= >= !=)",
                )
            if ex.has_generator(node):
                raise InvalidSpec(
                    f"{fld}: {text!r} uses a number kind as a value",
                    file=file,
                    field=fld,
                    line=line,
                    expected="counts, cells (r2c3), entries, variables and numbers only",
                )
            sides = [ex.compile_expr(a) for a in node.args]
            out.append(GridRule(body, sides, tuple(node.ops)))
    return out
