"""Token-level helpers shared by the per-genre Janko codecs.

Why a module of its own: every genre reads its grids the same way (a section of token
rows of a known shape, ``-`` for empty, numbers in decimal or base 36, optional label
lines, an optional solution of digits or shading marks), and a wrong shape must give the
same clear error whatever the genre. The genre groups (``janko_numbers``,
``janko_shading``, ``janko_loops``) only say what the tokens mean.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.errors import InvalidDescription
from ..genre import Instance
from ..topology import Cell
from .janko import JankoDoc

__all__ = [
    "EMPTY",
    "SHADED",
    "Reader",
    "Writer",
    "grid_section",
    "label_lines",
    "token_int",
    "all_cells",
    "solution_digits",
    "solution_shade",
    "cells_section",
    "cell_clue_reader",
    "cell_clue_writer",
]

#: a genre's reader: document -> (instance, solution as our answer tokens or None)
Reader = Callable[[JankoDoc], tuple[Instance, list[list[str]] | None]]
#: a genre's writer: fills the document's fields and sections from the instance
Writer = Callable[[Instance, JankoDoc], None]

EMPTY = {"-", ".", "_"}
SHADED = {"x", "X", "#", "*", "1", "b", "B", "s", "S"}


def grid_section(doc: JankoDoc, name: str, rows: int, cols: int) -> list[list[str]]:
    """Section ``name`` as ``rows`` rows of ``cols`` tokens, or a one-paragraph error."""
    grid = doc.sections.get(name)
    if grid is None:
        raise InvalidDescription(
            f"Janko text without [{name}]", field=name, expected=f"{rows} rows of {cols} tokens"
        )
    if len(grid) != rows or any(len(r) != cols for r in grid):
        shape = (
            f"{len(grid)} rows of "
            + "/".join(sorted({str(len(r)) for r in grid}) or ["0"])
            + " tokens"
        )
        raise InvalidDescription(
            f"Janko [{name}] has {shape}", field=name, expected=f"{rows} rows of {cols} tokens"
        )
    return grid


def label_lines(doc: JankoDoc, name: str, count: int, n: int) -> list[list[str]] | None:
    """``count`` label lines of ``n`` tokens (also accepted transposed: n lines of count)."""
    grid = doc.sections.get(name)
    if grid is None:
        return None
    if len(grid) == count and all(len(r) == n for r in grid):
        return grid
    if len(grid) == n and all(len(r) == count for r in grid):
        return [[grid[i][k] for i in range(n)] for k in range(count)]
    raise InvalidDescription(
        f"Janko [{name}] has {len(grid)} lines",
        field=name,
        expected=f"{count} line(s) of {n} numbers",
    )


def token_int(tok: str, what: str, lo: int = 0, hi: int | None = None) -> int:
    """A number token (decimal, or base 36 for letters past 9) within ``lo..hi``."""
    try:
        v = int(tok) if tok.isdigit() else int(tok, 36)
    except ValueError:
        raise InvalidDescription(
            f"Janko token {tok!r} for {what}", expected="a number or '-'"
        ) from None
    if v < lo or (hi is not None and v > hi):
        raise InvalidDescription(f"Janko {what} {v}", expected=f"{lo}..{hi}")
    return v


def all_cells(rows: int, cols: int) -> list[Cell]:
    return [Cell(r, c) for r in range(rows) for c in range(cols)]


def solution_digits(doc: JankoDoc, rows: int, cols: int) -> list[list[str]] | None:
    """The [solution] digits as our answer tokens (None without a solution)."""
    if "solution" not in doc.sections:
        return None
    return [
        [str(token_int(t, "solution digit", 1)) for t in row]
        for row in grid_section(doc, "solution", rows, cols)
    ]


def solution_shade(
    doc: JankoDoc, rows: int, cols: int, shaded: set = SHADED
) -> list[list[str]] | None:
    """The [solution] shading as ``1``/``0`` answer tokens (None without a solution)."""
    if "solution" not in doc.sections:
        return None
    return [
        ["1" if t in shaded else "0" for t in row]
        for row in grid_section(doc, "solution", rows, cols)
    ]


def cells_section(inst: Instance, token: Callable[[Cell], str]) -> list[list[str]]:
    """One token per cell of ``inst``, row by row."""
    return [[token(Cell(r, c)) for c in range(inst.cols)] for r in range(inst.rows)]


def cell_clue_reader(
    gid: str,
    key: str,
    parse: Callable[[str], Any],
    solution: Callable[[JankoDoc, int, int], list[list[str]] | None] | None = None,
) -> Reader:
    """A reader for genres whose [problem] holds one clue token per cell (``key`` clues),
    with ``solution`` reading the [solution] where the genre's marks are unambiguous."""

    def read(doc: JankoDoc) -> tuple[Instance, list[list[str]] | None]:
        rows, cols = doc.size()
        inst = Instance(gid, rows, cols)
        out = {}
        for r, row in enumerate(grid_section(doc, "problem", rows, cols)):
            for c, t in enumerate(row):
                if t in EMPTY:
                    continue
                try:
                    out[Cell(r, c)] = parse(t)
                except (KeyError, ValueError):
                    raise InvalidDescription(
                        f"Janko {gid} token {t!r}", line=r + 1, expected="a clue of this genre or -"
                    ) from None
        inst.clues = {key: out}
        sol = None
        if solution is not None and "solution" in doc.sections:
            sol = solution(doc, rows, cols)
        return inst, sol

    return read


def cell_clue_writer(key: str) -> Writer:
    """A writer of ``key`` clues as their numbers in [problem], ``-`` elsewhere."""

    def write(inst: Instance, doc: JankoDoc) -> None:
        d = inst.clues.get(key, {})
        doc.sections["problem"] = cells_section(inst, lambda c: str(d[c]) if c in d else "-")

    return write
