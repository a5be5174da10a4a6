"""Janko codecs of the number-placement genres: Sudoku, Futoshiki, Skyscrapers.

Why these three together: each fills a Latin square (or Sudoku grid) with digits, reads
its solution as digits, and differs only in where its extra clues sit: Sudoku's box
shape in the setup, Futoshiki's signs between the cells of a (2n-1) x (2n-1) grid,
Skyscrapers' view counts in label lines (or a frame around the grid).
"""

from __future__ import annotations

from ...core.errors import InvalidDescription
from ..genre import Instance, concrete
from ..topology import Cell, Edge
from .janko import JankoDoc
from .janko_tokens import (
    EMPTY,
    Reader,
    Writer,
    cells_section,
    grid_section,
    label_lines,
    solution_digits,
    token_int,
)

__all__ = ["READERS", "WRITERS"]

Read = tuple[Instance, list[list[str]] | None]


def _read_sudoku(doc: JankoDoc) -> Read:
    rows, cols = doc.size()
    inst = Instance("sudoku", rows, cols)
    px, py = doc.get_int("patternx"), doc.get_int("patterny")
    if px and py:
        inst.opts["box"] = (py, px)
    grid = grid_section(doc, "problem", rows, cols)
    inst.clues = {
        "given": {
            Cell(r, c): token_int(t, "sudoku digit", 1, rows)
            for r, row in enumerate(grid)
            for c, t in enumerate(row)
            if t not in EMPTY
        }
    }
    return inst, solution_digits(doc, rows, cols)


_ACROSS = {"<": "<", "«": "<", ">": ">", "»": ">"}
_DOWN = {"^": "<", "A": "<", "Λ": "<", "∧": "<", "v": ">", "V": ">", "∨": ">"}


def _read_futoshiki(doc: JankoDoc) -> Read:
    n, _ = doc.size()
    inst = Instance("futoshiki", n, n)
    raw = doc.sections.get("problem", [])
    given, rel = {}, {}
    if len(raw) == n and all(len(r) == n for r in raw):  # cells only
        grid = [[t for t in row] for row in raw]
        given = {
            Cell(r, c): token_int(t, "futoshiki digit", 1, n)
            for r, row in enumerate(grid)
            for c, t in enumerate(row)
            if t not in EMPTY
        }
    else:
        grid = grid_section(doc, "problem", 2 * n - 1, 2 * n - 1)
        for i, row in enumerate(grid):
            for j, t in enumerate(row):
                if t in EMPTY:
                    continue
                if i % 2 == 0 and j % 2 == 0:
                    given[Cell(i // 2, j // 2)] = token_int(t, "futoshiki digit", 1, n)
                elif i % 2 == 0 and t in _ACROSS:
                    rel[Edge("v", i // 2, j // 2 + 1)] = _ACROSS[t]
                elif j % 2 == 0 and i % 2 == 1 and t in _DOWN:
                    rel[Edge("h", i // 2 + 1, j // 2)] = _DOWN[t]
                elif i % 2 == 1 and j % 2 == 1:
                    continue  # corner between four cells: decoration only
                else:
                    raise InvalidDescription(
                        f"Janko futoshiki token {t!r} at row {i + 1}, column {j + 1}",
                        expected="< > across, ^ v down, digits in cells, - for none",
                    )
    inst.clues = {"given": given, "rel": rel}
    return inst, solution_digits(doc, n, n)


def _read_skyscrapers(doc: JankoDoc) -> Read:
    n, _ = doc.size()
    inst = Instance("skyscrapers", n, n)
    lines = {line.name: line for line in concrete(n, n).sight_lines()}
    raw = doc.sections.get("problem", [])
    view, given = {}, {}

    def put(side: str, i: int, t: str) -> None:
        if t not in EMPTY:
            view[lines[(side, i)]] = token_int(t, "skyscrapers clue", 1, n)

    if len(raw) == n + 2 and all(len(r) == n + 2 for r in raw):  # clues in a frame
        for j in range(n):
            put("N", j, raw[0][j + 1])
            put("S", j, raw[n + 1][j + 1])
        for i in range(n):
            put("W", i, raw[i + 1][0])
            put("E", i, raw[i + 1][n + 1])
        cells = [row[1 : n + 1] for row in raw[1 : n + 1]]
    else:
        cells = grid_section(doc, "problem", n, n) if raw else [["-"] * n for _ in range(n)]
        cl, rl = label_lines(doc, "clabels", 2, n), label_lines(doc, "rlabels", 2, n)
        for side, lab in (
            ("N", cl and cl[0]),
            ("S", cl and cl[1]),
            ("W", rl and rl[0]),
            ("E", rl and rl[1]),
        ):
            for i, t in enumerate(lab or []):
                put(side, i, t)
    for r, row in enumerate(cells):
        for c, t in enumerate(row):
            if t not in EMPTY:
                given[Cell(r, c)] = token_int(t, "height", 1, n)
    inst.clues = {"given": given, "view": view}
    return inst, solution_digits(doc, n, n)


def _write_sudoku(inst: Instance, doc: JankoDoc) -> None:
    from ..genres import get_genre

    bh, bw = get_genre("sudoku").box(inst)
    doc.fields["patternx"], doc.fields["patterny"] = str(bw), str(bh)
    g = inst.clues.get("given", {})
    doc.sections["problem"] = cells_section(inst, lambda c: str(g[c]) if c in g else "-")


def _write_futoshiki(inst: Instance, doc: JankoDoc) -> None:
    n = inst.rows
    g, rel = inst.clues.get("given", {}), inst.clues.get("rel", {})
    grid = [["-"] * (2 * n - 1) for _ in range(2 * n - 1)]
    for c, v in g.items():
        grid[2 * c.r][2 * c.c] = str(v)
    for e, s in rel.items():
        if e.o == "v":
            grid[2 * e.r][2 * e.c - 1] = s
        else:
            grid[2 * e.r - 1][2 * e.c] = "^" if s == "<" else "v"
    doc.sections["problem"] = grid


def _write_skyscrapers(inst: Instance, doc: JankoDoc) -> None:
    n = inst.rows
    view = {line.name: v for line, v in inst.clues.get("view", {}).items()}
    g = inst.clues.get("given", {})

    def t(side: str, i: int) -> str:
        return str(view[(side, i)]) if (side, i) in view else "-"

    doc.sections["problem"] = cells_section(inst, lambda c: str(g[c]) if c in g else "-")
    doc.sections["clabels"] = [[t("N", j) for j in range(n)], [t("S", j) for j in range(n)]]
    doc.sections["rlabels"] = [[t("W", i) for i in range(n)], [t("E", i) for i in range(n)]]


READERS: dict[str, Reader] = {
    "sudoku": _read_sudoku,
    "futoshiki": _read_futoshiki,
    "skyscrapers": _read_skyscrapers,
}
WRITERS: dict[str, Writer] = {
    "sudoku": _write_sudoku,
    "futoshiki": _write_futoshiki,
    "skyscrapers": _write_skyscrapers,
}
