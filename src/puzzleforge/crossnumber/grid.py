"""Grid text -> cells and entries, for block grids and barred grids.

Why two formats: printed cross-numbers come either as crossword-style block grids
(``#`` squares, standard numbering derived automatically) or as barred grids, which the
corpus writes in pohara60's ASCII style::

    +--+--+--+
    |1 :2 |3 |      '|' is a bar, ':' no bar; a number marks where an entry starts
    +::+--+::+      '--' is a bar below a cell, '::' no bar
    |4 :  :##|      '##' is a block (a cell outside every entry, e.g. a blank centre)
    +--+--+--+

An entry is a maximal run of two or more cells with no bar (or block) between them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import InvalidSpec

__all__ = ["Entry", "Grid", "parse_grid", "parse_block_grid", "parse_barred_grid"]


@dataclass(frozen=True)
class Entry:
    """An across or down entry: name like ``A7`` / ``D3`` and its cells in order."""

    name: str
    direction: str  # "across" | "down"
    number: int
    cells: tuple[tuple[int, int], ...]

    @property
    def length(self) -> int:
        return len(self.cells)


@dataclass
class Grid:
    rows: int
    cols: int
    white: list[list[bool]]
    entries: dict[str, Entry]
    givens: dict[tuple[int, int], str]
    style: str  # "block" | "barred"

    def cells(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if self.white[r][c]]


def parse_grid(text: str, *, file: str | None = None, line: int | None = None) -> Grid:
    """Detect the style (a first line starting with '+' means barred) and parse."""
    lines = [ln.rstrip() for ln in str(text).strip("\n").splitlines() if ln.strip()]
    if not lines:
        raise InvalidSpec(
            "the grid is empty",
            file=file,
            field="grid",
            line=line,
            expected="rows of '.', '#' and digits, or a barred '+--+' grid",
        )
    if lines[0].lstrip().startswith("+"):
        return parse_barred_grid(lines, file=file, line=line)
    return parse_block_grid(lines, file=file, line=line)


def parse_block_grid(lines: list[str], *, file: str | None = None, line: int | None = None) -> Grid:
    """``.`` white cell, ``#`` block, a digit is a given digit in a white cell.
    Spaces between cells are allowed (``. . #``)."""
    rows = [ln.replace(" ", "") for ln in lines]
    width = len(rows[0])
    for i, text in enumerate(rows):
        if len(text) != width:
            raise InvalidSpec(
                f"grid row {i + 1} has {len(text)} cells but row 1 has {width}: "
                "the grid is not rectangular",
                file=file,
                field="grid",
                line=None if line is None else line + 1 + i,
                expected=f"every row {width} cells wide",
            )
        bad = re.search(r"[^.#0-9]", text)
        if bad:
            raise InvalidSpec(
                f"grid row {i + 1} has the character {bad.group()!r}",
                file=file,
                field="grid",
                line=None if line is None else line + 1 + i,
                expected="'.' (white), '#' (block) or a given digit",
            )
    white = [[ch != "#" for ch in r] for r in rows]
    givens = {(i, j): ch for i, r in enumerate(rows) for j, ch in enumerate(r) if ch.isdigit()}
    nrows, ncols = len(rows), width
    entries: dict[str, Entry] = {}
    number = 0
    for r in range(nrows):
        for c in range(ncols):
            if not white[r][c]:
                continue
            starts_a = (c == 0 or not white[r][c - 1]) and c + 1 < ncols and white[r][c + 1]
            starts_d = (r == 0 or not white[r - 1][c]) and r + 1 < nrows and white[r + 1][c]
            if not (starts_a or starts_d):
                continue
            number += 1
            if starts_a:
                cells = []
                k = c
                while k < ncols and white[r][k]:
                    cells.append((r, k))
                    k += 1
                entries[f"A{number}"] = Entry(f"A{number}", "across", number, tuple(cells))
            if starts_d:
                cells = []
                k = r
                while k < nrows and white[k][c]:
                    cells.append((k, c))
                    k += 1
                entries[f"D{number}"] = Entry(f"D{number}", "down", number, tuple(cells))
    _check_orphans(
        nrows, ncols, white, entries, lambda r: None if line is None else line + 1 + r, file
    )
    return Grid(nrows, ncols, white, _sorted(entries), givens, "block")


def _check_orphans(
    nrows: int,
    ncols: int,
    white: list[list[bool]],
    entries: dict[str, Entry],
    line_of,
    file: str | None,
) -> None:
    """Refuse a white cell that belongs to no entry: nothing could ever clue its digit, so
    it is almost always a typo in the grid (a missing block, a stray bar)."""
    covered = {rc for e in entries.values() for rc in e.cells}
    for r in range(nrows):
        for c in range(ncols):
            if white[r][c] and (r, c) not in covered:
                raise InvalidSpec(
                    f"the white cell at row {r + 1}, column {c + 1} is in no "
                    "entry (an orphan cell: no across or down run of two or more "
                    "cells passes through it)",
                    file=file,
                    field="grid",
                    line=line_of(r),
                    expected="every white cell in an entry of at least 2 cells: "
                    "make it a block '#' or remove the bars around it",
                )


def _sorted(entries: dict[str, Entry]) -> dict[str, Entry]:
    return dict(sorted(entries.items(), key=lambda kv: (kv[1].direction != "across", kv[1].number)))


def parse_barred_grid(
    lines: list[str], *, file: str | None = None, line: int | None = None
) -> Grid:
    """pohara60's barred ASCII (see the module docstring)."""

    def err(i: int, problem: str, expected: str) -> InvalidSpec:
        return InvalidSpec(
            problem,
            file=file,
            field="grid",
            line=None if line is None else line + 1 + i,
            expected=expected,
        )

    width = len(lines[0])
    if (width - 1) % 3 != 0 or not lines[0].startswith("+"):
        raise err(
            0,
            "the first barred-grid line is not a '+--+--+' border",
            "a border line of '+' separated by '--' or '::' (cells 2 characters wide)",
        )
    ncols = (width - 1) // 3
    if len(lines) % 2 != 1:
        raise err(
            len(lines) - 1,
            "a barred grid needs border lines above and below every row",
            "alternating border and cell lines, starting and ending with a border",
        )
    for i, ln in enumerate(lines):
        if len(ln) != width:
            raise err(
                i,
                f"line {i + 1} of the grid is {len(ln)} characters wide, the first is "
                f"{width}: the grid is not rectangular",
                f"every line {width} characters wide",
            )
    nrows = len(lines) // 2
    bar_right = [[False] * ncols for _ in range(nrows)]
    bar_below = [[False] * ncols for _ in range(nrows)]
    numbers: dict[tuple[int, int], int] = {}
    white = [[True] * ncols for _ in range(nrows)]
    for r in range(nrows):
        cell_line = lines[2 * r + 1]
        below = lines[2 * r + 2]
        for c in range(ncols):
            sep = cell_line[3 * c + 3]
            if sep not in "|:":
                raise err(
                    2 * r + 1,
                    f"row {r + 1}, column {c + 1}: separator {sep!r}",
                    "'|' (bar) or ':' (no bar) between cells",
                )
            bar_right[r][c] = sep == "|" or c == ncols - 1
            content = cell_line[3 * c + 1 : 3 * c + 3].strip()
            if content == "##":
                white[r][c] = False
            elif content:
                if not content.isdigit():
                    raise err(
                        2 * r + 1,
                        f"row {r + 1}, column {c + 1}: cell text {content!r}",
                        "blank, an entry number or '##' (a block)",
                    )
                numbers[(r, c)] = int(content)
            mark = below[3 * c + 1 : 3 * c + 3]
            if mark not in ("--", "::"):
                raise err(
                    2 * r + 2,
                    f"border below row {r + 1}, column {c + 1} is {mark!r}",
                    "'--' (bar) or '::' (no bar)",
                )
            bar_below[r][c] = mark == "--" or r == nrows - 1
    for r in range(nrows):
        for c in range(ncols):
            if not white[r][c]:  # a block ends runs on all four sides
                bar_right[r][c] = bar_below[r][c] = True
                if c > 0:
                    bar_right[r][c - 1] = True
                if r > 0:
                    bar_below[r - 1][c] = True
    entries: dict[str, Entry] = {}
    for r in range(nrows):
        for c in range(ncols):
            starts_a = (c == 0 or bar_right[r][c - 1]) and not bar_right[r][c]
            starts_d = (r == 0 or bar_below[r - 1][c]) and not bar_below[r][c]
            for starts, d in ((starts_a, "across"), (starts_d, "down")):
                if not starts:
                    continue
                if (r, c) not in numbers:
                    raise err(
                        2 * r + 1,
                        f"an {d} entry starts at row {r + 1}, column {c + 1} "
                        "but the cell has no number",
                        "a number in every cell where an entry starts",
                    )
                cells = [(r, c)]
                rr, cc = r, c
                while True:
                    if d == "across":
                        if bar_right[rr][cc]:
                            break
                        cc += 1
                    else:
                        if bar_below[rr][cc]:
                            break
                        rr += 1
                    cells.append((rr, cc))
                n = numbers[(r, c)]
                name = ("A" if d == "across" else "D") + str(n)
                if name in entries:
                    raise err(
                        2 * r + 1,
                        f"the number {n} at row {r + 1}, column {c + 1} starts "
                        f"a second {d} entry {name} (the first starts at row "
                        f"{entries[name].cells[0][0] + 1}, column "
                        f"{entries[name].cells[0][1] + 1})",
                        "each entry number used once per direction",
                    )
                entries[name] = Entry(name, d, n, tuple(cells))
    first_cells = {e.cells[0] for e in entries.values()}
    for (r, c), n in sorted(numbers.items()):
        if (r, c) not in first_cells:
            raise err(
                2 * r + 1,
                f"row {r + 1}, column {c + 1} is numbered {n} but no entry "
                "starts there (an orphan number: the cell has a bar-free neighbour on its "
                "left and above, or bars on its right and below)",
                "a number only in cells where an across or down entry starts: remove "
                "the number or fix the bars",
            )
    _check_orphans(
        nrows, ncols, white, entries, lambda r: None if line is None else line + 2 + 2 * r, file
    )
    return Grid(nrows, ncols, white, _sorted(entries), {}, "barred")
