"""Shared text helpers for genres whose clues sit in cells."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.errors import InvalidDescription
from ..genre import split_tokens
from ..topology import Cell

__all__ = ["read_cells", "write_cells", "orthogonal_component", "is_connected"]


def read_cells(
    lines: list[str],
    rows: int,
    cols: int,
    parse: Callable[[str], Any],
    *,
    genre: str,
    first_line: int = 2,
) -> dict:
    """Body lines -> {Cell: value} for tokens other than '.' (parse(token) -> value)."""
    if len(lines) < rows:
        raise InvalidDescription(
            f"{genre}: {len(lines)} grid lines, expected {rows}",
            line=first_line + len(lines),
            expected=f"{rows} lines of {cols} cells",
        )
    out = {}
    for r in range(rows):
        toks = split_tokens(lines[r])
        if len(toks) != cols:
            raise InvalidDescription(
                f"{genre}: line has {len(toks)} cells",
                line=first_line + r,
                expected=f"{cols} cells ('.' for empty)",
            )
        for c, t in enumerate(toks):
            if t in (".", "-", "_"):
                continue
            try:
                out[Cell(r, c)] = parse(t)
            except (ValueError, KeyError):
                raise InvalidDescription(
                    f"{genre}: cell token {t!r}",
                    line=first_line + r,
                    expected="a clue symbol of this genre or '.'",
                ) from None
    return out


def write_cells(rows: int, cols: int, token: Callable[[Cell], str]) -> list[str]:
    grid = [[token(Cell(r, c)) for c in range(cols)] for r in range(rows)]
    wide = any(len(t) > 1 for row in grid for t in row)
    return [(" " if wide else "").join(row) for row in grid]


def orthogonal_component(cells: set, start: Cell) -> set:
    """The cells of ``cells`` reachable from ``start`` through edge-adjacent cells.

    Generators use it to grow and repair regions (Star Battle) and to keep the wall of a
    Nurikabe candidate in one piece; the solver has its own graph code in the engine.
    """
    seen, stack = {start}, [start]
    while stack:
        c = stack.pop()
        for d in (Cell(c.r - 1, c.c), Cell(c.r + 1, c.c), Cell(c.r, c.c - 1), Cell(c.r, c.c + 1)):
            if d in cells and d not in seen:
                seen.add(d)
                stack.append(d)
    return seen


def is_connected(cells: set) -> bool:
    """True when ``cells`` is empty or forms one edge-connected piece."""
    return not cells or len(orthogonal_component(cells, min(cells))) == len(cells)
